/* The manga page: follow, mark chapters read or unread (one, all, or all before one), vote on versions
   (all through the JSON API);
   the server rendered everything else. */
"use strict";

(function manga() {
  const start = JSON.parse(document.getElementById("page-data").textContent);
  const m = start.m;
  const followButton = document.getElementById("follow");

  followButton.addEventListener("click", async () => {
    const on = followButton.getAttribute("aria-pressed") !== "true";
    followButton.disabled = true;
    try {
      const result = await api("api/follow", { m, on });
      followButton.setAttribute("aria-pressed", String(result.following));
      followButton.textContent = result.following ? gettext("Following") : gettext("Follow");
      toast(result.following ? gettext("You will be notified of new chapters.") : gettext("No more notifications for this manga."));
    } catch (e) {
      toast(e.message, "error");
    } finally {
      followButton.disabled = false;
    }
  });

  const wantButton = document.getElementById("want");
  wantButton.addEventListener("click", async () => {
    const on = wantButton.getAttribute("aria-pressed") !== "true";
    wantButton.disabled = true;
    try {
      const result = await api("api/want", { m, on });
      wantButton.setAttribute("aria-pressed", String(result.wantToRead));
      wantButton.textContent = result.wantToRead ? gettext("On your want-to-read list") : gettext("Want to read");
    } catch (e) {
      toast(e.message, "error");
    } finally {
      wantButton.disabled = false;
    }
  });

  function showRating(rating) {
    document.querySelectorAll("#rating .star").forEach((star) => {
      star.setAttribute("aria-pressed", String(Number(star.dataset.stars) <= rating.mine));
    });
    document.getElementById("rating-sum").textContent = rating.count
      ? interpolate(ngettext("%(mean)s from %(count)s rating", "%(mean)s from %(count)s ratings", rating.count), { mean: rating.mean, count: rating.count }, true)
      : gettext("Not rated yet");
  }

  document.getElementById("rating").addEventListener("click", async (e) => {
    const star = e.target.closest(".star");
    if (!star) return;
    // Pressing one's own rating again withdraws it.
    const mine = document.querySelectorAll('#rating .star[aria-pressed="true"]').length;
    const stars = Number(star.dataset.stars) === mine ? 0 : Number(star.dataset.stars);
    try {
      showRating((await api("api/rating", { m, stars })).rating);
    } catch (error) {
      toast(error.message, "error");
    }
  });

  const choice = document.getElementById("add-collection");
  const newName = document.getElementById("new-collection-name");
  choice.addEventListener("change", () => { newName.hidden = Boolean(choice.value); });

  document.getElementById("add-to-collection").addEventListener("click", async () => {
    try {
      let c;
      if (choice.value) {
        c = await api("api/collections/" + encodeURIComponent(choice.value) + "/add", { members: [m] });
      } else {
        c = await api("api/collections", { name: newName.value, members: [m] });
        choice.insertBefore(h("option", { value: c.id }, c.name), choice.lastElementChild);
        choice.value = c.id;
        newName.value = "";
        newName.hidden = true;
      }
      const where = document.getElementById("in-collections");
      if (!where.querySelector('a[href$="/' + c.id + '/"]')) {
        if (!where.firstChild) where.append(gettext("In") + " ");
        else where.append(", ");
        where.append(h("a", { href: ROOT + c.url }, c.name));
      }
      toast(interpolate(gettext("Added to %(name)s."), { name: c.name }, true));
    } catch (error) {
      toast(error.message, "error");
    }
  });

  // Add to read list: every chapter, a book, or one chapter, into a list one may edit or a new one.
  const list = document.getElementById("add-readlist");
  const listName = document.getElementById("new-readlist-name");
  list.addEventListener("change", () => { listName.hidden = Boolean(list.value); });
  document.getElementById("add-to-readlist").addEventListener("click", async () => {
    const what = document.getElementById("readlist-what").value;
    const chosen = what.startsWith("c:") ? { m, c: what.slice(2) } : what.startsWith("book:") ? { m, book: what.slice(5) } : { m };
    try {
      let r;
      if (list.value) {
        r = await api("api/readlists/" + encodeURIComponent(list.value) + "/add", { items: [chosen] });
      } else {
        r = await api("api/readlists", { name: listName.value, items: [chosen] });
        list.insertBefore(h("option", { value: r.id }, r.name), list.lastElementChild);
        list.value = r.id;
        listName.value = "";
        listName.hidden = true;
      }
      toast(interpolate(ngettext("Added to %(name)s (%(count)s chapter).", "Added to %(name)s (%(count)s chapters).", r.count), { name: r.name, count: r.count }, true));
    } catch (error) {
      toast(error.message, "error");
    }
  });

  function continueLink(target) {
    if (!target) return h("span", { className: "continue caught-up", id: "continue" }, gettext("All caught up"));
    const verb = { start: gettext("Start reading"), resume: gettext("Resume"), next: gettext("Continue") }[target.action];
    let text = verb + ": " + target.title;
    if (target.action === "resume" && target.pages) text += " " + interpolate(gettext("· p. %(page)s/%(pages)s"), { page: target.page + 1, pages: target.pages }, true);
    return h("a", { className: "button primary continue", id: "continue", href: ROOT + target.url }, text);
  }

  function showChapterState(row, result) {
    showRowState(row, result.chapter);
    document.getElementById("continue").replaceWith(continueLink(result.continue));
    document.getElementById("read-count").textContent = interpolate(gettext("%(read)s of %(chapters)s read"), result.counts, true);
  }

  async function toggleRead(button) {
    const row = button.closest(".chapter");
    const read = button.getAttribute("aria-pressed") === "true";
    button.disabled = true;
    try {
      showChapterState(row, await api(read ? "api/unread" : "api/read", { m, c: row.dataset.c }));
    } catch (e) {
      toast(e.message, "error");
    } finally {
      button.disabled = false;
    }
  }

  function showRowState(row, c) {
    row.classList.toggle("read", c.read);
    row.classList.toggle("started", !c.read && Boolean(c.progress));
    row.querySelector(".state").textContent = c.read ? gettext("Read")
      : c.progress ? interpolate(gettext("p. %(p)s/%(n)s"), { p: c.progress.p + 1, n: c.progress.n }, true) : "";
    const button = row.querySelector(".toggle-read");
    button.setAttribute("aria-pressed", String(c.read));
    button.textContent = c.read ? gettext("Mark unread") : gettext("Mark read");
    button.setAttribute("aria-label", interpolate(c.read ? gettext("Mark unread: %(label)s") : gettext("Mark read: %(label)s"), { label: c.label }, true));
  }

  /** "Mark previous read" on a row, "Mark all read / unread" above the list: one request each. */
  async function markMany(button, body) {
    button.disabled = true;
    try {
      const result = await api("api/read/many", Object.assign({ m }, body));
      for (const c of result.chapters) {
        const row = document.querySelector('.chapter[data-c="' + CSS.escape(c.id) + '"]');
        if (row) showRowState(row, c);
      }
      document.getElementById("continue").replaceWith(continueLink(result.continue));
      document.getElementById("read-count").textContent = interpolate(gettext("%(read)s of %(chapters)s read"), result.counts, true);
      toast(interpolate(body.read
        ? ngettext("%(marked)s chapter marked read.", "%(marked)s chapters marked read.", result.marked)
        : ngettext("%(marked)s chapter marked unread.", "%(marked)s chapters marked unread.", result.marked),
      { marked: result.marked }, true));
    } catch (e) {
      toast(e.message, "error");
    } finally {
      button.disabled = false;
    }
  }

  function versionItem(v) {
    // The name is the hidden text: an aria-label would not contain the visible ▲ (label-content-name-mismatch).
    const voteButton = (cls, value, text, title) => h("button", {
      type: "button", className: cls, "data-value": value, "aria-pressed": String(v.mine === value), title,
    }, h("span", { "aria-hidden": "true" }, text), h("span", { className: "sr-only" }, title));
    return h("li", { className: "version", "data-v": v.name },
      h("a", { href: ROOT + v.url }, v.source || v.name),
      h("span", { className: "pages" }, interpolate(gettext("%(pages)s p."), { pages: v.pages }, true)),
      h("span", { className: "vote", role: "group", "aria-label": interpolate(gettext("Vote for %(source)s"), { source: v.source || v.name }, true) },
        voteButton("up", 1, "▲", gettext("Vote up")),
        h("span", { className: "score" }, v.score),
        voteButton("down", -1, "▼", gettext("Vote down"))));
  }

  async function vote(button) {
    const row = button.closest(".chapter");
    const version = button.closest(".version").dataset.v;
    const value = button.getAttribute("aria-pressed") === "true" ? 0 : Number(button.dataset.value);
    button.disabled = true;
    try {
      const result = await api("api/vote", { m, c: row.dataset.c, v: version, value });
      const list = row.querySelector(".versions");
      const refocus = () => {
        const again = list.querySelector('.version[data-v="' + CSS.escape(version) + '"] .' + button.className.split(" ")[0]);
        if (again) again.focus();
      };
      // New scores at once, in the order on screen; the ranking later (see settle()).
      list.mcVersions = result.versions;
      result.versions.forEach((v) => {
        const old = list.querySelector('.version[data-v="' + CSS.escape(v.name) + '"]');
        if (old) old.replaceWith(versionItem(v));
      });
      refocus();
      settle(list, refocus);
    } catch (e) {
      toast(e.message, "error");
      button.disabled = false;
    }
  }

  /** Re-rank a version list only once the pointer has left it (a mouse), or 2 s after the last
      vote (touch, keys): a row that moved to the top under the pointer would take the next click. */
  function settle(list, refocus) {
    clearTimeout(list.mcTimer);
    if (list.mcRank) list.removeEventListener("mouseleave", list.mcRank);
    list.mcRank = () => {
      clearTimeout(list.mcTimer);
      list.removeEventListener("mouseleave", list.mcRank);
      const focused = list.contains(document.activeElement);
      list.replaceChildren(...list.mcVersions.map((v) => versionItem(v)));
      if (focused) refocus();
    };
    if (list.matches(":hover") && matchMedia("(hover: hover)").matches) list.addEventListener("mouseleave", list.mcRank);
    else list.mcTimer = setTimeout(list.mcRank, 2000);
  }

  document.querySelector(".chapters").addEventListener("click", (e) => {
    const button = e.target.closest("button");
    if (!button) return;
    if (button.classList.contains("toggle-read")) toggleRead(button);
    else if (button.classList.contains("mark-previous")) markMany(button, { read: true, before: button.closest(".chapter").dataset.c });
    else if (button.classList.contains("mark-all")) markMany(button, { read: button.dataset.read === "true" });
    else if (button.closest(".vote")) vote(button);
  });
})();
