/* Keep offline (docs/offline.md), on the manga page and in the reader: a chapter's reader page,
 * its payload (GET /api/chapter, with the page sizes the layout needs), its page images and their
 * thumbnails go into the Cache API under their stable keys; IndexedDB records what is kept.
 * "Keep the next N unread chapters": N is the reading setting offlineAhead.
 */
(function () {
  "use strict";
  const O = window.MCOffline;
  if (!O || !O.later || !O.user) return;
  const PARALLEL = 4;

  /** The width the reader asks a PDF's pages at (read.js): the first step as wide as the screen. */
  function sized(data) {
    const need = Math.ceil(Math.max(window.innerWidth, window.screen.width || 0) * (window.devicePixelRatio || 1));
    const width = data.widths ? data.widths.find((w) => w >= need) || data.widths[data.widths.length - 1] : 0;
    return (u) => (width ? u + (u.indexOf("?") >= 0 ? "&" : "?") + "w=" + width : u);
  }

  async function fetched(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    if (!response.ok) {
      let message = response.statusText;
      try { message = (await response.clone().json()).error || message; } catch (e) { /* not JSON */ }
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    return response;
  }

  /** Fetch each [url, key] into the cache, PARALLEL at a time; resolves to the bytes stored. */
  async function storeAll(cache, pairs) {
    let bytes = 0;
    let next = 0;
    async function worker() {
      while (next < pairs.length) {
        const [url, key] = pairs[next++];
        const response = await fetched(url);
        bytes += (await response.clone().blob()).size;
        await cache.put(key, response);
      }
    }
    await Promise.all(Array.from({ length: Math.min(PARALLEL, pairs.length) }, worker));
    return bytes;
  }

  /** Keep one chapter: `url` is its reader page relative to the root ("read/<manga>/<book>/<chapter>/"). */
  async function keep(m, c, url) {
    const cache = await caches.open(O.KEPT);
    const dataUrl = ROOT + "api/chapter?" + new URLSearchParams({ m, c, peek: "1" });
    const answer = await fetched(dataUrl);
    const data = await answer.clone().json();
    const readerKey = new URL(ROOT + url, location.href).href;
    const size = sized(data);
    const pairs = [[ROOT + url + "?peek=1", readerKey]];
    data.pages.forEach((p) => pairs.push([ROOT + size(p.u), O.stableKey(ROOT + size(p.u))]));
    data.pages.forEach((p) => {
      const thumb = ROOT + p.u.replace(/^lib\//, "lib-thumb/");
      pairs.push([thumb, O.stableKey(thumb)]);
    });
    const keys = [O.stableKey(dataUrl)].concat(pairs.map((pair) => pair[1]));
    let bytes;
    try {
      bytes = (await answer.clone().blob()).size;
      await cache.put(keys[0], answer);
      bytes += await storeAll(cache, pairs);
    } catch (error) {
      await Promise.all(keys.map((key) => cache.delete(key)));
      throw error;
    }
    const label = data.chapter.title ? data.chapter.label + " · " + data.chapter.title : data.chapter.label;
    const record = { id: O.keptId(O.user, m, c), user: O.user, m, c, title: data.manga.title, label, url,
      version: data.version, pages: data.pages.length, bytes, keys, at: Date.now() };
    await O.put("kept", record);
    if (navigator.storage && navigator.storage.persist) navigator.storage.persist().catch(() => false);
    return record;
  }

  async function keepMany(chapters, afterEach) {
    if (!chapters.length) {
      toast("No unread chapters to keep.");
      return;
    }
    toast(chapters.length === 1 ? "Keeping " + chapters[0].label + " offline…" : "Keeping " + chapters.length + " chapters offline…");
    let bytes = 0;
    for (const chapter of chapters) {
      try {
        bytes += (await keep(chapter.m, chapter.c, chapter.url)).bytes;
      } catch (error) {
        toast(chapter.label + " could not be kept offline: " + error.message, "error");
        return;
      }
      if (afterEach) afterEach(chapter);
    }
    toast((chapters.length === 1 ? chapters[0].label : chapters.length + " chapters") + " kept offline (" + O.size(bytes) + ").");
  }

  async function forget(m, c) {
    const record = (await O.keptOf(O.user)).find((k) => k.m === m && k.c === c);
    if (record) await O.forgetKept([record]);
  }

  async function keptIds(m) {
    return new Set((await O.keptOf(O.user)).filter((k) => k.m === m).map((k) => k.c));
  }

  async function ahead() {
    try {
      return (await api("api/me")).settings.offlineAhead || 3;
    } catch (e) {
      return 3;
    }
  }

  // ---- the manga page ---------------------------------------------------------------------------

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
      if (kept && !badge) badge = row.insertBefore(h("span", { className: "kept-badge", title: "Kept offline" }, "Offline"), button);
      if (!kept && badge) badge.remove();
      button.textContent = kept ? "Remove offline copy" : "Keep offline";
      button.setAttribute("aria-label", (kept ? "Remove the offline copy of " : "Keep offline: ") + label);
      li.classList.toggle("kept", kept);
    }

    async function toggle(li) {
      const chapter = info(li);
      if (li.classList.contains("kept")) {
        await forget(m, chapter.c);
        mark(li, false);
        toast("Removed the offline copy of " + chapter.label + ".");
      } else {
        await keepMany([chapter], () => mark(li, true));
      }
    }

    async function refresh() {
      const kept = await keptIds(m);
      rows.forEach((li) => mark(li, kept.has(li.dataset.c)));
    }

    const head = document.querySelector(".chapters-head .bulk-read");
    if (head) {
      const button = h("button", { type: "button", className: "keep-ahead" }, "Keep next unread offline");
      head.appendChild(button);
      ahead().then((n) => {
        button.textContent = "Keep next " + n + " unread offline";
        button.addEventListener("click", async () => {
          const unread = rows.filter((li) => !li.classList.contains("read")).slice(0, n).map(info);
          button.disabled = true;
          await keepMany(unread, () => refresh());
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
    const select = h("select", { className: "rd-keep", "aria-label": "Keep offline" });
    top.appendChild(select);

    async function options() {
      const kept = (await keptIds(m)).has(current.c);
      select.replaceChildren(
        h("option", { value: "" }, kept ? "Offline ✓" : "Offline"),
        kept ? h("option", { value: "remove" }, "Remove this chapter's offline copy")
          : h("option", { value: "this" }, "Keep this chapter offline"),
        h("option", { value: "ahead" }, "Keep the next " + n + " unread chapters offline"));
      select.value = "";
    }

    select.addEventListener("change", async () => {
      const choice = select.value;
      select.disabled = true;
      if (choice === "this") await keepMany([current]);
      else if (choice === "remove") await forget(m, current.c);
      else if (choice === "ahead") await keepMany(all.slice(Math.max(0, at)).filter((c) => !c.read || c.c === current.c).slice(0, n));
      select.disabled = false;
      options();
    });
    options();
  }

  const chapterData = document.getElementById("chapter-data");
  const pageData = document.getElementById("page-data");
  if (chapterData) reader(JSON.parse(chapterData.textContent));
  else if (pageData && document.querySelector("li.chapter[data-c]")) mangaPage(JSON.parse(pageData.textContent));

  O.keep = keep;
})();
