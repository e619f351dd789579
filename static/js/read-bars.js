/* Reader bars (docs/reader.md, "The bars"): the top bar with the chapter and version pickers, the bottom
 * bar with the page slider, modes, ⇄ Shift, the page fit and zoom, the one-time hint and the end card.
 *
 * Bars are shown on open and hidden on the first page turn or after 100 px of scrolling. They
 * are never shown by scrolling, only by a tap beside the pages or in the middle of a page (or m).
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});

  const HIDE_AFTER_SCROLL = 100;
  const HINT_MS = 4000;

  let R = null;
  let el = {};
  let shown = false;
  let scrollBase = 0;
  let hintTimer = 0;

  /** "Ch. 2.5 · Interlude", "Extra 1 · Summer Sketches": the label is the server's (reader/lookup.py),
   * the same as on the manga page. */
  function chapterLabel(chapter) {
    return chapter.title ? chapter.label + " · " + chapter.title : chapter.label;
  }

  function currentUrl() {
    for (const book of R.data.books) {
      for (const c of book.chapters) if (c.id === R.data.chapter.id) return c.url;
    }
    return location.pathname.slice(ROOT.length);
  }

  // The Fit button: its icon (a phone shows only that) and its words.
  const FITS = { screen: ["▣", gettext("Screen")], width: ["↔", gettext("Width")], height: ["↕", gettext("Height")],
    original: ["1:1", gettext("Original size")] };

  const MARKS = [["mark:previous", gettext("Mark previous chapters read")], ["mark:all-read", gettext("Mark all read")],
    ["mark:all-unread", gettext("Mark all unread")]];

  function chapterOptions() {
    const groups = R.data.books.map((book) => {
      const options = book.chapters.map((c) => h("option", { value: c.url, selected: c.id === R.data.chapter.id },
        (c.read ? "✓ " : "\u2003") + chapterLabel(c)));
      const label = book.heading || "";
      return label ? h("optgroup", { label }, options) : options;
    });
    return groups.concat(h("optgroup", { label: gettext("Mark chapters") }, MARKS.map(([value, text]) => h("option", { value }, text))));
  }

  /** The picker's "Mark …" entries: one request, then the ✓ marks follow; the picker goes back to this chapter. */
  async function mark(select, value) {
    const body = { m: R.data.manga.name, read: value !== "mark:all-unread" };
    if (value === "mark:previous") body.before = R.data.chapter.id;
    select.disabled = true;
    try {
      const result = await api("api/read/many", body);
      const read = new Set(result.chapters.filter((c) => c.read).map((c) => c.id));
      R.data.books.forEach((book) => book.chapters.forEach((c) => (c.read = read.has(c.id))));
      const n = result.marked;
      toast(interpolate(body.read ? ngettext("%(n)s chapter marked read.", "%(n)s chapters marked read.", n)
        : ngettext("%(n)s chapter marked unread.", "%(n)s chapters marked unread.", n), { n }, true));
    } catch (e) {
      toast(e.message, "error");
    } finally {
      select.replaceChildren(...chapterOptions());
      select.disabled = false;
    }
  }

  function chapterPicker() {
    return h("select", {
      className: "rd-chapters", "aria-label": gettext("Chapter"),
      onchange: (e) => (e.target.value.startsWith("mark:") ? mark(e.target, e.target.value) : (location.href = ROOT + e.target.value)),
    }, chapterOptions());
  }

  function versionLabel(v) {
    const score = v.score ? " · " + (v.score > 0 ? "+" : "") + v.score : "";
    return (v.source || v.title || v.name) + " · " + interpolate(gettext("%(pages)s p"), { pages: v.pages }, true) + score;
  }

  function versionPicker() {
    if (R.data.versions.length < 2) return null;
    const pick = (e) => (location.href = ROOT + currentUrl() + "?v=" + encodeURIComponent(e.target.value));
    return h("select", { className: "rd-versions", "aria-label": gettext("Version"), onchange: pick },
      R.data.versions.map((v) => h("option", { value: v.name, selected: v.name === R.data.version }, versionLabel(v))));
  }

  /** ‹ or ›: a link to the neighbour chapter, or a dimmed placeholder keeping the bar's layout. */
  function chapterLink(target, label, className) {
    if (!target) return h("span", { className: className + " rd-disabled", "aria-hidden": "true" }, label);
    const name = chapterLabel(target);
    return h("a", { className: "button " + className, href: ROOT + target.url, title: name,
      "aria-label": interpolate(className === "rd-prev" ? gettext("Previous: %(chapter)s") : gettext("Next: %(chapter)s"),
        { chapter: name }, true) }, label);
  }

  function build(reader) {
    R = reader;
    const d = R.data;
    el.top = h("header", { className: "rd-bar rd-top" },
      h("a", { className: "button rd-back", href: ROOT + d.manga_url, title: d.manga.title,
        "aria-label": interpolate(gettext("Back to %(title)s"), { title: d.manga.title }, true) }, "←"),
      h("div", { className: "rd-title" },
        h("span", { className: "rd-manga" }, d.manga.title), chapterPicker()),
      versionPicker());
    el.count = h("span", { className: "rd-count" });
    el.slider = h("input", {
      type: "range", className: "rd-slider", "aria-label": gettext("Page"), min: 1, max: Math.max(1, R.list.length), step: 1,
      dir: R.dir === "rtl" ? "rtl" : "ltr", // the slider runs the way the pages do
      oninput: (e) => (el.count.textContent = e.target.value + " / " + R.list.length),
      onchange: (e) => R.goTo(+e.target.value - 1),
    });
    el.modes = Object.values(MCR.modes).map((m) => h("button", { type: "button", className: "rd-mode",
      "data-mode": m.name, onclick: () => R.setMode(m.name, true) }, m.label));
    el.shift = h("button", { type: "button", className: "rd-shift", "aria-label": gettext("Shift pairing"),
      title: gettext("Shift: pair this run of pages the other way"), onclick: () => R.toggleShift() },
      "⇄", h("span", { className: "rd-wide-only" }, " " + gettext("Shift")));
    el.fit = h("button", { type: "button", className: "rd-fit", title: gettext("Fit the page (W)"), onclick: () => R.nextFit() },
      el.fitIcon = h("span", { "aria-hidden": "true" }), el.fitWords = h("span", { className: "rd-wide-only" }));
    el.zoom = h("button", { type: "button", className: "rd-zoom", title: gettext("Zoom (click for 100 %)"),
      onclick: () => R.zoomTo(1) });
    el.bottom = h("footer", { className: "rd-bar rd-bottom" },
      h("div", { className: "rd-row" }, el.count, el.slider),
      h("div", { className: "rd-row" },
        chapterLink(d.prev, "‹", "rd-prev"),
        h("div", { className: "rd-modes", role: "group", "aria-label": gettext("Mode") }, el.modes),
        el.shift, el.fit, el.zoom,
        chapterLink(d.next, "›", "rd-next")));
    el.hint = h("div", { className: "rd-hint", role: "status" });
    R.root.append(el.top, el.bottom, el.hint);
    R.endCard = endCard();
  }

  function endCard() {
    const d = R.data;
    const here = chapterLabel(d.chapter);
    const inList = d.list; // opened from a read list (?list=): next is the list's
    return h("section", { className: "rd-end" },
      h("p", { className: "rd-end-done" }, interpolate(gettext("End of %(chapter)s"), { chapter: here }, true)),
      inList ? h("p", { className: "rd-end-list" }, h("a", { href: ROOT + "readlists/" + encodeURIComponent(inList.id) + "/" },
        inList.name), " · " + interpolate(gettext("%(n)s of %(total)s"), { n: inList.position, total: inList.count }, true))
        : null,
      d.next ? h("a", { className: "button primary rd-end-next", href: ROOT + d.next.url },
        interpolate(inList ? gettext("Next in list: %(chapter)s") : gettext("Next: %(chapter)s"),
          { chapter: chapterLabel(d.next) }, true))
        : h("p", { className: "muted" },
          inList ? gettext("This is the end of the read list.") : gettext("This is the last chapter for now.")),
      h("a", { className: "rd-end-back", href: ROOT + d.manga_url },
        interpolate(gettext("Back to %(title)s"), { title: d.manga.title }, true)));
  }

  /** Refresh what depends on the position, mode and zoom. */
  function update() {
    const n = R.list.length;
    const atEnd = R.cur >= n;
    let label = gettext("End");
    if (!atEnd) {
      const pages = R.m.spreads ? R.spreads[MCR.layout.spreadOf(R.spreads, R.cur)].pages : [R.cur];
      label = pages.length > 1 ? pages[0] + 1 + "–" + (pages[1] + 1) : String(pages[0] + 1);
    }
    el.count.textContent = label + " / " + n;
    el.slider.value = String(Math.min(R.cur, n - 1) + 1);
    el.modes.forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === R.mode)));
    const spread = R.m.spreads && !atEnd ? R.spreads[MCR.layout.spreadOf(R.spreads, R.cur)] : null;
    el.shift.hidden = !R.m.spreads;
    el.shift.disabled = !spread || spread.run === null || spread.runLength < 2;
    el.shift.setAttribute("aria-pressed", String(!!spread && spread.run !== null && R.shift.has(spread.run)));
    el.zoom.textContent = Math.round(R.zoom * 100) + " %";
    const [icon, words] = FITS[R.fit];
    el.fit.hidden = !R.m.fits;
    const fit = /\w/.test(icon) ? words + " (" + icon + ")" : words; // holds what a phone shows
    el.fit.setAttribute("aria-label", interpolate(gettext("Fit: %(fit)s"), { fit }, true));
    el.fitIcon.textContent = icon;
    el.fitWords.textContent = " " + words;
    el.slider.max = String(Math.max(1, n)); // a split double page counts as two
  }

  function setShown(on) {
    shown = on;
    R.root.classList.toggle("rd-bars-on", on);
  }

  /** Show: also stops a running smooth scroll, so that scroll cannot hide the bars right away. */
  function show() {
    const s = R.scroller;
    s.scrollTo({ left: s.scrollLeft, top: s.scrollTop, behavior: "auto" });
    scrollBase = s.scrollTop;
    el.hint.classList.remove("rd-hint-on"); // the hint is about getting here: done
    setShown(true);
  }

  /** Hide; an automatic hide (page turn, scrolling) shows the hint once per device and family. */
  function hide(auto) {
    if (!shown) return;
    setShown(false);
    if (auto) hintOnce();
  }

  function toggle() {
    if (shown) hide(false);
    else show();
  }

  function scrolled(top) {
    if (shown && Math.abs(top - scrollBase) > HIDE_AFTER_SCROLL) hide(true);
  }

  /** The reader moved the scroll itself (a zoom re-laid out the pages): that is no reader's scroll,
      so it must not hide the bars the 100 % button is on. */
  function rebase() {
    scrollBase = R.scroller.scrollTop;
  }

  function hintOnce() {
    const key = "mc.reader.hint." + R.m.hint;
    try {
      if (localStorage.getItem(key)) return;
      localStorage.setItem(key, "1");
    } catch (e) {
      return; // storage refused: better no hint than a hint every time
    }
    const touch = matchMedia("(pointer: coarse)").matches;
    el.hint.textContent = touch ? gettext("Tap the middle of the page to bring the menu back")
      : gettext("Click the middle of the page or press M to bring the menu back");
    el.hint.classList.add("rd-hint-on");
    clearTimeout(hintTimer);
    hintTimer = setTimeout(() => el.hint.classList.remove("rd-hint-on"), HINT_MS);
  }

  MCR.bars = {
    build, update, show, hide, toggle, scrolled, rebase,
    get shown() { return shown; },
    get hinting() { return el.hint.classList.contains("rd-hint-on"); },
  };
})();
