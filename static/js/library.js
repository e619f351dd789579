/* The library page: filter and sort as you type (the form works without this too, through ?q=&sort=),
   the filter chips and genre/tag/status facets following, and "Show more" appending the next cards in place. */
"use strict";

(function library() {
  const start = JSON.parse(document.getElementById("page-data").textContent);
  const form = document.querySelector(".library-tools");
  const grid = document.getElementById("grid");
  const empty = document.getElementById("grid-empty");
  const count = document.getElementById("library-count");
  const topRows = document.querySelectorAll(".continue, .recent, .story"); // continue, recently added, discover, Reading Story
  const chips = document.getElementById("chips");
  const facets = document.getElementById("facets");
  let shown = start.shown;
  let total = start.total;
  let latest = 0;
  let timer = null;

  form.querySelector(".apply").hidden = true;

  function cover(m) {
    return h("span", { className: "cover" },
      m.cover ? h("img", { src: ROOT + m.cover, alt: "", loading: "lazy", width: 200, height: 300 }) : null,
      m.unread ? h("span", { className: "unread-count",
        title: interpolate(ngettext("%(unread)s unread chapter", "%(unread)s unread chapters", m.unread), { unread: m.unread }, true) }, m.unread) : null);
  }

  function tile(m) {
    const sub = [interpolate(ngettext("%(chapters)s chapter", "%(chapters)s chapters", m.chapters), { chapters: m.chapters }, true)];
    if (m.read) sub.push(m.unread ? interpolate(gettext("%(read)s read"), { read: m.read }, true) : gettext("all read"));
    if (m.following) sub.push(gettext("following"));
    return h("li", { className: m.unread ? "tile" : "tile all-read" },
      h("a", { href: ROOT + m.url }, cover(m), h("span", { className: "title" }, m.title),
        h("span", { className: "sub" }, sub.join(" · "))));
  }

  /** A filter link keeps the sort: the server's "?q=…" plus the sort chosen here. */
  function filterHref(query) {
    const params = new URLSearchParams(query || "");
    if (form.sort.value !== "title") params.set("sort", form.sort.value); else params.delete("sort");
    return "?" + params.toString();
  }

  function showChips(filters) {
    chips.hidden = !filters.length;
    chips.replaceChildren(...filters.map((f) => h("li", null, h("a", { className: "chip on", href: filterHref(f.without), title: f.label },
      h("span", { className: "chip-label" }, f.label), h("span", { className: "chip-x", "aria-hidden": "true" }, " ×"), h("span", { className: "sr" }, " " + gettext("(remove)"))))));
  }

  function facetList(title, items, label, named) { // named: the server sends each one's shown name (a status's)
    if (!items.length) return [];
    return [h("h2", { className: "facet-title" }, title), h("ul", { className: "facet-list" }, items.map((f) => h("li", null,
      h("a", { className: f.on ? "chip on" : "chip", href: filterHref(f.add), "aria-current": f.on ? "true" : null },
        named && f.label ? f.label : label(f.value), " ", h("span", { className: "n" }, f.count)))))];
  }

  function showFacets(found) {
    const cap = (v) => v.charAt(0).toUpperCase() + v.slice(1);
    const genres = found.genres || [];
    const shelves = found.libraries || [];
    facets.replaceChildren(...facetList(gettext("Libraries"), shelves, (v) => v), ...facetList(gettext("Genres"), genres, (v) => v),
      ...facetList(gettext("Tags"), found.tags, (v) => v), ...facetList(gettext("Status"), found.statuses, cap, true));
    facets.hidden = !shelves.length && !genres.length && !found.tags.length && !found.statuses.length;
  }

  function moreLink() {
    let row = document.querySelector(".more-row");
    if (shown >= total) { if (row) row.remove(); return; }
    if (!row) {
      row = h("p", { className: "more-row" }, h("a", { className: "button more", id: "more", href: "#" }, gettext("Show more")));
      empty.after(row);
    }
  }

  function query(offset, limit) {
    const params = new URLSearchParams();
    const q = form.q.value.trim();
    if (q) params.set("q", q);
    if (form.sort.value !== "title") params.set("sort", form.sort.value);
    const page = params.toString();
    params.set("offset", offset);
    params.set("limit", limit || start.pageSize);
    return { page, api: params.toString(), q };
  }

  async function load(append, limit) {
    const ask = query(append ? shown : 0, limit);
    const mine = ++latest;
    let result;
    try {
      result = await api("api/library?" + ask.api);
    } catch (e) {
      toast(e.message, "error");
      return;
    }
    if (mine !== latest) return;
    const tiles = result.manga.map(tile);
    if (append) grid.append(...tiles); else grid.replaceChildren(...tiles);
    shown = result.offset + result.manga.length;
    total = result.total;
    count.textContent = ask.q ? interpolate(gettext("%(total)s of %(count)s"), { total, count: result.count }, true) : String(result.count);
    empty.hidden = total > 0;
    if (!total) {
      empty.textContent = result.count ? interpolate(gettext("No manga match “%(q)s”."), { q: ask.q }, true)
        : result.unavailable ? gettext("The library is unavailable.") : gettext("The library is empty.");
    }
    topRows.forEach((row) => { row.hidden = Boolean(ask.q); });
    if (!append) {
      showChips(result.filters);
      showFacets(result.facets);
    }
    moreLink();
    if (!append) history.replaceState(null, "", location.pathname + (ask.page ? "?" + ask.page : ""));
  }

  // After the selection is marked read or unread (library-select.js): the same tiles, new counts.
  grid.addEventListener("mc:refresh", () => load(false, Math.max(shown, start.pageSize)));
  form.q.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => load(false), 150); });
  form.sort.addEventListener("change", () => load(false));
  form.addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); load(false); });
  document.addEventListener("click", (e) => {
    if (e.target.closest("#more")) { e.preventDefault(); load(true); }
  });
})();
