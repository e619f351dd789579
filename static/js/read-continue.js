/* Flow carries on into the next chapter (docs/reader.md, "Flow into the next chapter").
 *
 * When the end card comes within two screens, the next chapter's payload is fetched and its first
 * pages are laid out below the end card exactly as the next chapter's own reader will lay them
 * out (same width, zoom, split and gap). Once the top of the screen reaches them, the position is
 * saved (this chapter read) and the next chapter opens at the same page and the same point in it,
 * carried in the URL's #flow=<page>:<fraction>; the browser keeps the old frame until the new one
 * paints, so the scroll goes on where it was.
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});
  const AHEAD = 2; // screens: fetch the next chapter when its end card is this close; show this much of it

  let R = null;
  let next = null; // {data, list} once fetched
  let asked = false;
  let preview = null; // {top, boxes: [{p, x, y, w, h}]} as placed on the canvas
  let leaving = false;

  function wanted() {
    return R.m.scrolls && R.settings.flowContinues !== false && !!R.data.next && !leaving;
  }

  /** The next chapter's pages as its reader will show them (read.js shownPages, then split). */
  function pagesOf(data) {
    const all = data.pages.map((p, i) => ({ i, u: p.u, w: p.w, h: p.h, t: p.t || [], r: p.r || 0 }));
    const shown = R.shownPages(all, data.settings);
    return MCR.layout.split(shown, MCR.layout.splitWanted(R), data.direction, new Map());
  }

  async function fetchNext() {
    asked = true;
    const d = R.data;
    try {
      const m = d.next.m || d.manga.name; // a read list's next chapter may be of another manga
      const data = await api("api/chapter?peek=1&m=" + encodeURIComponent(m) + "&c=" + encodeURIComponent(d.next.id)
        + (d.list ? "&list=" + encodeURIComponent(d.list.id) : ""));
      // A chapter of another shape (a webtoon after pages, a PDF drawn at widths) opens as before.
      if ((data.direction === "ttb") !== (R.dir === "ttb") || data.widths) return;
      next = { data, list: pagesOf(data) };
      place();
    } catch (e) {
      asked = false; // tried again on the next scroll near the end
    }
  }

  function pageEl(p) {
    const img = h("img", { src: p.u, alt: "", decoding: "async", draggable: false });
    return h("div", { className: "rd-page rd-next-page", "data-i": p.i, "aria-hidden": "true" }, img);
  }

  /** Lay the next chapter's first screens out below the end card; again after every render. */
  function place() {
    if (!next || !R.end || !wanted()) return remove();
    const vw = R.viewport.w;
    const vh = R.viewport.h;
    const L = MCR.layout.flowBoxes({ list: next.list, strip: R.strip, settings: R.settings }, vw, vh, R.zoom);
    const top = R.end.y + R.end.h;
    const boxes = L.boxes.filter((b) => b.y < AHEAD * vh).map((b) => Object.assign({ p: next.list[b.li] }, b));
    const old = preview ? preview.boxes : [];
    boxes.forEach((b, k) => {
      b.el = old[k] && old[k].p === b.p ? old[k].el : pageEl(b.p);
      const img = b.el.firstChild;
      Object.assign(b.el.style, { left: b.x + "px", top: top + b.y + "px", width: b.w + "px", height: b.h + "px" });
      Object.assign(img.style, b.p.half ? { width: b.w * 2 + "px", height: b.h + "px", left: b.p.half === "right" ? -b.w + "px" : "0", top: "0" }
        : { width: b.w + "px", height: b.h + "px", left: "0", top: "0" });
      if (!b.el.isConnected) R.canvas.appendChild(b.el);
    });
    old.slice(boxes.length).forEach((b) => b.el.remove());
    const last = boxes[boxes.length - 1];
    preview = { top, boxes };
    // Room below, so that the top of the screen can reach into the last page shown too.
    R.canvas.style.height = top + (last ? last.y + last.h : 0) + vh + "px";
  }

  function remove() {
    if (preview) preview.boxes.forEach((b) => b.el.remove());
    preview = null;
  }

  /** The top of the screen is in the next chapter: open it there. */
  function carryOn() {
    const y = R.scroller.scrollTop - preview.top;
    const b = preview.boxes.find((box) => box.y + box.h > y) || preview.boxes[preview.boxes.length - 1];
    if (!b || y < preview.boxes[0].y) return;
    leaving = true;
    R.done = true;
    MCR.progress.save(R, true);
    const at = b.p.i + (b.p.half ? "." + b.p.half : "") + ":" + Math.max(0, (y - b.y) / b.h).toFixed(4);
    location.href = ROOT + R.data.next.url + "#flow=" + at;
  }

  function scrolled() {
    if (!wanted() || !R.end) return;
    const top = R.scroller.scrollTop;
    if (!asked && R.end.y < top + AHEAD * R.viewport.h) fetchNext();
    if (preview && top >= preview.top) carryOn();
  }

  /** Arriving from the chapter before: the same page at the same point at the top of the screen. */
  function arrive() {
    const m = /^#flow=(\d+)(?:\.(left|right))?:([0-9.]+)$/.exec(location.hash);
    if (!m) return;
    history.replaceState(history.state, "", location.pathname + location.search);
    if (!R.m.scrolls) return;
    const i = +m[1];
    const half = m[2] || undefined;
    const box = R.boxes.find((b) => R.list[b.li].i === i && R.list[b.li].half === half)
      || R.boxes.find((b) => R.list[b.li].i === i);
    if (!box) return;
    R.scroller.scrollTop = Math.round(box.y + Math.min(1, +m[3]) * box.h);
    R.keepAnchor(); // a page whose size is learned later keeps this point, not the chapter's start
  }

  function init(reader) {
    R = reader;
    arrive();
    R.scroller.addEventListener("scroll", scrolled, { passive: true });
    R.root.addEventListener("mc:pages", place);
    // Back from the next chapter (bfcache): this page is as it was, and may carry on again.
    window.addEventListener("pageshow", (e) => {
      if (!e.persisted || !leaving) return;
      leaving = false;
      if (preview) R.scroller.scrollTop = Math.max(0, preview.top - R.viewport.h); // at the end card again
    });
  }

  MCR.continues = {
    init,
    get preview() {
      return preview ? preview.boxes.map((b) => ({ i: b.p.i, y: preview.top + b.y, h: b.h, w: b.w, x: b.x })) : null;
    },
  };
})();
