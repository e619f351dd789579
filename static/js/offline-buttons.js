/* Keep offline buttons (docs/offline.md), on the manga page and in the reader; the keeping itself is
 * offline-keep.js's. The manga page: Keep offline beside each chapter and each book, Keep next N
 * unread above the list, and an Offline badge on what is kept. The reader: the top bar's Offline
 * menu. N is the reading setting offlineAhead.
 */
(function () {
  "use strict";
  const O = window.MCOffline;
  if (!O || !O.keep) return;

  async function ahead() {
    try {
      return (await api("api/me")).settings.offlineAhead || 3;
    } catch (e) {
      return 3;
    }
  }

  // ---- the manga page ---------------------------------------------------------------------------

  const keptBadge = () => h("span", { className: "kept-badge", title: gettext("Kept offline") }, gettext("Offline"));

  function mangaPage(data) {
    const m = data.m;
    const rows = Array.from(document.querySelectorAll("li.chapter[data-c]"));
    const info = (li) => {
      const link = li.querySelector(".chapter-link");
      return { m, c: li.dataset.c, url: link.getAttribute("href").slice(ROOT.length),
        label: li.querySelector(".label").textContent };
    };

    function mark(li, kept) {
      const row = li.querySelector(".chapter-row");
      let badge = row.querySelector(".kept-badge");
      let button = row.querySelector(".keep");
      const label = info(li).label;
      if (!button) {
        button = h("button", { type: "button", className: "link keep", onclick: () => toggle(li) });
        row.appendChild(button);
      }
      if (kept && !badge) badge = row.insertBefore(keptBadge(), button);
      if (!kept && badge) badge.remove();
      button.textContent = kept ? gettext("Remove offline copy") : gettext("Keep offline");
      const named = kept ? gettext("Remove the offline copy of %(name)s") : gettext("Keep offline: %(name)s");
      button.setAttribute("aria-label", interpolate(named, { name: label }, true));
      li.classList.toggle("kept", kept);
    }

    async function toggle(li) {
      const chapter = info(li);
      if (li.classList.contains("kept")) {
        await O.forget(m, [chapter.c]);
        mark(li, false);
        toast(interpolate(gettext("Removed the offline copy of %(name)s."), { name: chapter.label }, true));
      } else {
        await O.keepMany([chapter], () => mark(li, true));
      }
      refreshBooks();
    }

    // Each book (a run of the list under its heading): kept when every one of its chapters is. Its
    // button has its words from the start: an empty one is a button without a name until the kept
    // copies are known.
    const books = Array.from(document.querySelectorAll("section.book")).filter((section) =>
      section.querySelector("li.chapter[data-c]")).map((section) => {
      const chapters = Array.from(section.querySelectorAll("li.chapter[data-c]"));
      const heading = section.querySelector("h3");
      const name = heading ? heading.firstChild.textContent.trim() : gettext("these chapters");
      const button = h("button", { type: "button", className: "link keep-book" });
      const line = h("p", { className: "book-keep" }, button);
      section.insertBefore(line, section.querySelector(".chapter-list"));
      const book = { section, chapters, name, button, line };
      button.addEventListener("click", () => toggleBook(book));
      markBook(book);
      return book;
    });

    function markBook(book) {
      const kept = book.chapters.every((li) => li.classList.contains("kept"));
      let badge = book.line.querySelector(".kept-badge");
      if (kept && !badge) book.line.insertBefore(keptBadge(), book.button);
      if (!kept && badge) badge.remove();
      const named = kept ? gettext("Remove the offline copy of %(name)s") : gettext("Keep %(name)s offline");
      book.button.textContent = interpolate(named, { name: book.name }, true);
      book.section.classList.toggle("kept", kept);
    }

    function refreshBooks() {
      books.forEach(markBook);
    }

    async function toggleBook(book) {
      book.button.disabled = true;
      try {
        if (book.section.classList.contains("kept")) {
          await O.forget(m, book.chapters.map((li) => li.dataset.c));
          book.chapters.forEach((li) => mark(li, false));
          toast(interpolate(gettext("Removed the offline copy of %(name)s."), { name: book.name }, true));
        } else {
          const missing = book.chapters.filter((li) => !li.classList.contains("kept"));
          await O.keepMany(missing.map(info), (chapter) => {
            mark(missing.find((li) => li.dataset.c === chapter.c), true);
          }, interpolate(gettext("Every chapter of %(name)s is kept already."), { name: book.name }, true));
        }
      } finally {
        refreshBooks();
        book.button.disabled = false;
      }
    }

    async function refresh() {
      const kept = await O.keptIds(m);
      rows.forEach((li) => mark(li, kept.has(li.dataset.c)));
      refreshBooks();
    }

    const head = document.querySelector(".chapters-head .bulk-read");
    if (head) {
      const button = h("button", { type: "button", className: "keep-ahead" }, gettext("Keep next unread offline"));
      head.appendChild(button);
      ahead().then((n) => {
        button.textContent = interpolate(ngettext("Keep next %(n)s unread offline", "Keep next %(n)s unread offline", n), { n }, true);
        button.addEventListener("click", async () => {
          const unread = rows.filter((li) => !li.classList.contains("read")).slice(0, n).map(info);
          button.disabled = true;
          await O.keepMany(unread, () => refresh());
          button.disabled = false;
        });
      });
    }
    document.addEventListener("mc:kept", refresh);
    refresh();
  }

  // ---- the reader -------------------------------------------------------------------------------

  function reader(data) {
    const top = document.querySelector(".rd-top");
    if (!top) return;
    const m = data.manga.name;
    const all = [];
    data.books.forEach((book) => book.chapters.forEach((c) => all.push({ m, c: c.id, url: c.url, label: c.label, read: c.read })));
    const at = all.findIndex((c) => c.c === data.chapter.id);
    const current = all[at] || { m, c: data.chapter.id, url: location.pathname.slice(ROOT.length), label: data.chapter.label };
    const n = data.settings.offlineAhead || 3;
    const select = h("select", { className: "rd-keep", "aria-label": gettext("Keep offline") });
    top.appendChild(select);

    async function options() {
      const kept = (await O.keptIds(m)).has(current.c);
      select.replaceChildren(
        h("option", { value: "" }, kept ? gettext("Offline") + " ✓" : gettext("Offline")),
        kept ? h("option", { value: "remove" }, gettext("Remove this chapter's offline copy"))
          : h("option", { value: "this" }, gettext("Keep this chapter offline")),
        h("option", { value: "ahead" }, interpolate(ngettext("Keep the next %(n)s unread chapters offline",
          "Keep the next %(n)s unread chapters offline", n), { n }, true)));
      select.value = "";
    }

    select.addEventListener("change", async () => {
      const choice = select.value;
      select.disabled = true;
      if (choice === "this") await O.keepMany([current]);
      else if (choice === "remove") await O.forget(m, [current.c]);
      else if (choice === "ahead") await O.keepMany(all.slice(Math.max(0, at)).filter((c) => !c.read || c.c === current.c).slice(0, n));
      select.disabled = false;
      options();
    });
    options();
  }

  const chapterData = document.getElementById("chapter-data");
  const pageData = document.getElementById("page-data");
  if (chapterData) reader(JSON.parse(chapterData.textContent));
  else if (pageData && document.querySelector("li.chapter[data-c]")) mangaPage(JSON.parse(pageData.textContent));
})();
