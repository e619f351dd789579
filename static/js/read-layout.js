/* Reader layout (docs/reader.md, "Modes"): page sizes, book pairing, and build → layout → place.
 *
 * Every page's size is known before it loads, so the reader computes one box {x, y, w, h} per
 * shown page in canvas pixels and positions the page elements absolutely. Nothing here waits
 * for an image.
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});

  const UNKNOWN = { w: 1000, h: 1414 }; // laid out like this until the image tells its size
  const FLOW_GAP = 8;

  // ---- page geometry -----------------------------------------------------------------------

  function stored(p) {
    return p.w && p.h ? { w: p.w, h: p.h } : UNKNOWN;
  }

  function turned(p) {
    return p.r === 90 || p.r === 270;
  }

  /** The size as displayed: width and height swap for a quarter turn. */
  function shown(p) {
    const s = stored(p);
    return turned(p) ? { w: s.h, h: s.w } : s;
  }

  function aspect(p) {
    const s = shown(p);
    return s.w / s.h;
  }

  /** A double page: wider than tall once turned, unless a [single] or [wide] tag says otherwise. */
  function isWide(p) {
    if (p.t.indexOf("single") >= 0) return false;
    if (p.t.indexOf("wide") >= 0) return true;
    const s = shown(p);
    return s.w > s.h;
  }

  function standsAlone(p) {
    return p.t.indexOf("cover") >= 0 || isWide(p);
  }

  function median(values, fallback) {
    if (!values.length) return fallback;
    const sorted = values.slice().sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  /** The aspect of a normal single page: the median of the pages that are not wide. */
  function refAspect(list) {
    return median(list.filter((p) => !isWide(p)).map(aspect), UNKNOWN.w / UNKNOWN.h);
  }

  // ---- split double pages -------------------------------------------------------------------

  /** Whether the split setting asks for halves here: "phone" is a phone held upright (as in read.js). */
  function splitWanted(R) {
    const how = R.settings.split;
    if (!R.m.splits || R.dir === "ttb" || (how !== "always" && how !== "phone")) return false;
    return how === "always" || (window.innerWidth < 600 && window.innerHeight > window.innerWidth);
  }

  /** A double page of known size that is not quarter-turned (its halves would be its top and bottom). */
  function splittable(p) {
    return !p.half && !turned(p) && !!(p.w && p.h) && isWide(p);
  }

  /**
   * The pages to lay out: `shown` (whole pages), with each splittable double page replaced by its
   * two halves when `on`, in reading order (rtl: the right half first). A half is a page of its own
   * for the layout, half as wide, keeping the full page index `i` (progress counts whole pages);
   * `made` keeps the halves made before, so their elements survive a re-split.
   */
  function split(shown, on, dir, made) {
    if (!on) return shown.slice();
    const out = [];
    shown.forEach((p) => {
      if (!splittable(p)) return out.push(p);
      const sides = dir === "rtl" ? ["right", "left"] : ["left", "right"];
      sides.forEach((side) => {
        const key = p.i + side;
        if (!made.has(key)) {
          made.set(key, { i: p.i, u: p.u, w: Math.round(p.w / 2), h: p.h, r: 0, el: null, half: side, whole: p,
            t: p.t.filter((tag) => tag !== "wide") });
        }
        out.push(made.get(key));
      });
    });
    return out;
  }

  // ---- book pairing --------------------------------------------------------------------------

  /**
   * Group the shown pages into spreads for Book mode.
   *  1. Covers and wide pages stand alone.
   *  2. The single pages between them form runs; each run pairs from its own start.
   *  3. A run whose first page index (in the full list) is in `shift` starts with a lone page.
   * So a correction stays local: one broken spot never moves the pairing of the whole chapter.
   * Returns [{pages: [list positions], run: full index of the run's first page | null}].
   */
  function pair(list, shift) {
    const spreads = [];
    let k = 0;
    while (k < list.length) {
      if (standsAlone(list[k])) {
        spreads.push({ pages: [k], run: null, runLength: 0 });
        k++;
        continue;
      }
      let end = k;
      while (end < list.length && !standsAlone(list[end])) end++;
      const run = list[k].i;
      const runLength = end - k;
      let j = k;
      if (shift.has(run)) spreads.push({ pages: [j++], run, runLength });
      for (; j < end; j += 2) spreads.push({ pages: j + 1 < end ? [j, j + 1] : [j], run, runLength });
      k = end;
    }
    return spreads;
  }

  function spreadOf(spreads, pos) {
    for (let s = 0; s < spreads.length; s++) if (spreads[s].pages.indexOf(pos) >= 0) return s;
    return spreads.length;
  }

  // ---- layout: boxes per mode, each named by its entry in read-modes.js -------------------------

  function flowBoxes(R, vw, vh, z) {
    const boxes = [];
    let width = vw;
    let y = 0;
    let next = 0;
    if (R.strip) {
      // Webtoon: one width for every slice, no gaps, so the slices join seamlessly.
      const W = Math.round(Math.min(vw, median(R.list.map((p) => shown(p).w), UNKNOWN.w)) * z);
      R.list.forEach((p, li) => {
        next = y + W / aspect(p);
        boxes.push({ li, x: 0, y: Math.round(y), w: W, h: Math.round(next) - Math.round(y) });
        y = next;
      });
      width = Math.max(vw, W);
    } else {
      const ref = refAspect(R.list);
      const W = Math.min(vw, vh * ref) * z; // a normal single page fits the screen at 100 %
      const singleHeight = W / ref;
      const cap = Math.max(vw, W);
      const gap = R.settings.flowPageGap === false ? 0 : FLOW_GAP;
      R.list.forEach((p, li) => {
        const a = aspect(p);
        const w = isWide(p) ? Math.min(singleHeight * a, cap) : W;
        next = y + w / a;
        boxes.push({ li, x: 0, y: Math.round(y), w: Math.round(w), h: Math.round(next) - Math.round(y) });
        y = next + (li < R.list.length - 1 ? gap : 0);
        width = Math.max(width, Math.round(w));
      });
    }
    boxes.forEach((b) => (b.x = Math.round((width - b.w) / 2)));
    const pagesHeight = Math.round(y);
    const endHeight = Math.round(Math.min(Math.max(vh * 0.45, 240), 420));
    return { boxes, cw: width, ch: pagesHeight + endHeight, end: { x: 0, y: pagesHeight, w: width, h: endHeight } };
  }

  /** The page fit of Page mode: the size at 100 % zoom, as a scale of the page's own pixels. */
  const FITS = {
    screen: (s, vw, vh) => Math.min(vw / s.w, vh / s.h),
    width: (s, vw) => vw / s.w,
    height: (s, vw, vh) => vh / s.h,
    original: () => 1, // one pixel of the image per CSS pixel, as the browser shows an image by itself
  };

  function pageBoxes(R, vw, vh, z) {
    const p = R.list[R.cur];
    const s = shown(p);
    const scale = (FITS[R.m.fits && R.fit] || FITS.screen)(s, vw, vh) * z;
    const w = Math.round(s.w * scale);
    const h = Math.round(s.h * scale);
    const box = { li: R.cur, x: Math.max(0, Math.round((vw - w) / 2)), y: Math.max(0, Math.round((vh - h) / 2)), w, h };
    return { boxes: [box], cw: Math.max(vw, w), ch: Math.max(vh, h) };
  }

  function bookBoxes(R, vw, vh, z) {
    const spread = R.spreads[spreadOf(R.spreads, R.cur)];
    const order = R.dir === "rtl" ? spread.pages.slice().reverse() : spread.pages;
    const sum = order.reduce((total, li) => total + aspect(R.list[li]), 0);
    const H = Math.min(vh, vw / sum) * z; // the pages of a spread share one height
    const total = H * sum;
    const left = Math.max(0, (vw - total) / 2);
    const top = Math.max(0, Math.round((vh - H) / 2));
    const boxes = [];
    let x = left;
    order.forEach((li) => {
      const next = x + H * aspect(R.list[li]);
      boxes.push({ li, x: Math.round(x), y: top, w: Math.round(next) - Math.round(x), h: Math.round(H) });
      x = next;
    });
    return { boxes, cw: Math.max(vw, Math.round(total)), ch: Math.max(vh, Math.round(H)) };
  }

  function compute(R, vw, vh) {
    if (R.cur >= R.list.length && !R.m.scrolls) {
      return { boxes: [], cw: vw, ch: vh, end: { x: 0, y: 0, w: vw, h: vh } }; // the end card
    }
    return R.m.boxes(R, vw, vh, R.zoom);
  }

  // ---- build: the page elements of the mode ------------------------------------------------------

  function pageEl(p) {
    if (!p.el) p.el = h("div", { className: "rd-page", "data-i": p.i, "data-half": p.half });
    return p.el;
  }

  /** The list positions on screen in Page or Book mode (none on the end card). */
  function visible(R) {
    if (R.m.scrolls || R.cur >= R.list.length) return [];
    return R.m.spreads ? R.spreads[spreadOf(R.spreads, R.cur)].pages : [R.cur];
  }

  /**
   * Put the mode's elements in the canvas in one DOM change. Flow: every page, each with a lazy
   * image. Page/Book: the current spread, with the pool's (already decoded) images, so the old
   * and the new page swap within one frame.
   */
  function build(R) {
    const loading = MCR.loading;
    let els;
    if (R.m.scrolls) {
      els = R.list.map((p) => {
        const el = pageEl(p);
        if (!el.querySelector("img")) el.insertBefore(loading.flowImage(R, p), el.firstChild);
        return el;
      });
      els.push(R.endCard);
    } else if (R.cur >= R.list.length) {
      els = [R.endCard];
    } else {
      els = visible(R).map((li) => {
        const p = R.list[li];
        loading.attach(R, pageEl(p), loading.imageFor(R, p), p);
        return p.el;
      });
    }
    R.canvas.replaceChildren.apply(R.canvas, els);
  }

  // ---- place: apply the boxes -------------------------------------------------------------------

  function px(el, box) {
    el.style.left = box.x + "px";
    el.style.top = box.y + "px";
    el.style.width = box.w + "px";
    el.style.height = box.h + "px";
  }

  /** Size the image inside its box; a quarter-turned image is sized swapped and turned with CSS, a
      half is the whole image at twice the box's width, its other half outside the box. */
  function fitImage(img, p, box) {
    if (p.half) {
      img.style.width = box.w * 2 + "px";
      img.style.height = box.h + "px";
      img.style.left = p.half === "right" ? -box.w + "px" : "0";
      img.style.top = "0";
    } else if (turned(p)) {
      img.style.width = box.h + "px";
      img.style.height = box.w + "px";
      img.style.left = (box.w - box.h) / 2 + "px";
      img.style.top = (box.h - box.w) / 2 + "px";
    } else {
      img.style.width = box.w + "px";
      img.style.height = box.h + "px";
      img.style.left = "0";
      img.style.top = "0";
    }
    img.style.transform = p.r ? "rotate(" + p.r + "deg)" : "";
  }

  function place(R, L) {
    R.canvas.style.width = L.cw + "px";
    R.canvas.style.height = L.ch + "px";
    L.boxes.forEach((box) => {
      const p = R.list[box.li];
      px(p.el, box);
      const img = p.el.querySelector("img");
      if (img) fitImage(img, p, box);
    });
    if (L.end && R.endCard) px(R.endCard, L.end);
    R.boxes = L.boxes;
    R.end = L.end || null;
    R.canvasSize = { w: L.cw, h: L.ch };
  }

  // ---- anchoring -----------------------------------------------------------------------------

  /**
   * Remember which page is under the viewport point (x, y) and where inside it, as a fraction.
   * A point between pages takes the nearest page, so the fraction may lie outside 0..1.
   */
  function anchor(R, x, y) {
    const sx = R.scroller.scrollLeft + x;
    const sy = R.scroller.scrollTop + y;
    let best = null;
    let bestDistance = Infinity;
    R.boxes.forEach((b) => {
      const dx = sx < b.x ? b.x - sx : sx > b.x + b.w ? sx - b.x - b.w : 0;
      const dy = sy < b.y ? b.y - sy : sy > b.y + b.h ? sy - b.y - b.h : 0;
      const d = dx + dy;
      if (d < bestDistance) {
        best = b;
        bestDistance = d;
      }
    });
    if (!best) return null;
    const p = R.list[best.li];
    return { i: p.i, half: p.half, fx: (sx - best.x) / best.w, fy: (sy - best.y) / best.h, x, y };
  }

  /** Scroll so the anchored page point is under (x, y) again (by default where it was). */
  function restore(R, a, x, y) {
    if (!a) return;
    // A page split since (or joined again) is found by its index alone.
    const box = R.boxes.find((b) => R.list[b.li].i === a.i && R.list[b.li].half === a.half)
      || R.boxes.find((b) => R.list[b.li].i === a.i);
    if (!box) return;
    R.scroller.scrollLeft = box.x + a.fx * box.w - (x === undefined ? a.x : x);
    R.scroller.scrollTop = box.y + a.fy * box.h - (y === undefined ? a.y : y);
  }

  /**
   * Lay out and place, then restore the anchor. Repeated (up to three times) until the viewport
   * is stable, because scrollbars that appear or disappear change the viewport.
   */
  function render(R, a, x, y) {
    for (let round = 0; round < 3; round++) {
      const vw = R.scroller.clientWidth;
      const vh = R.scroller.clientHeight;
      place(R, compute(R, vw, vh));
      R.viewport = { w: vw, h: vh };
      restore(R, a, x, y);
      if (R.scroller.clientWidth === vw && R.scroller.clientHeight === vh) break;
    }
    const wide = R.canvasSize.w > R.viewport.w + 1;
    R.scroller.classList.toggle("rd-pan-x", wide);
    R.scroller.classList.toggle("rd-pannable", wide || (!R.m.scrolls && R.canvasSize.h > R.viewport.h + 1));
    R.root.dispatchEvent(new Event("mc:pages")); // the boxes changed (read-clock.js listens)
  }

  /** The shown list position whose box holds canvas point (sx, sy), or -1. */
  function boxAt(R, sx, sy) {
    for (const b of R.boxes) if (sx >= b.x && sx < b.x + b.w && sy >= b.y && sy < b.y + b.h) return b;
    return null;
  }

  MCR.layout = { fits: Object.keys(FITS), split, splitWanted, pair, spreadOf, visible, build, render, anchor, boxAt, flowBoxes, pageBoxes, bookBoxes };
})();
