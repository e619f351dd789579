/* The reader (docs/reader.md): bootstrap, state, mode resolution, page turns and zoom.
 *
 * The chapter payload is embedded in the page ("chapter-data"). The modes are the table of
 * read-modes.js (R.mode is the name, R.m its entry). The helpers live in read-layout.js
 * (build → layout → place, pairing), read-loading.js, read-input.js, read-progress.js and
 * read-bars.js; they share the state object R built here.
 * window.mcReader is a small read-only view of that state for tests and debugging.
 */
(function () {
  "use strict";
  const MCR = window.MCR;
  const modes = MCR.modes;
  const layout = MCR.layout;
  const loading = MCR.loading;
  const progress = MCR.progress;
  const bars = MCR.bars;

  const ZOOM_MIN = 0.2;
  const ZOOM_MAX = 6;
  const SNAP = 0.01; // within ±1 % of 100 % is 100 %

  /**
   * intended   = startMode == "last" ? lastMode : startMode (the default mode if neither is one)
   * compatible = the modes that suit the chapter (ttb: a webtoon) and the screen (upright: a phone
   *              held upright); today flow for a webtoon, page and flow on an upright phone, else all
   * mode       = adapt && intended ∉ compatible ? (the default mode if compatible, else the first) : intended
   */
  function resolveMode(settings, direction) {
    const names = Object.keys(modes);
    const fallback = names.find((name) => modes[name].default);
    let intended = settings.startMode === "last" ? settings.lastMode : settings.startMode;
    if (names.indexOf(intended) < 0) intended = fallback;
    const portraitPhone = window.innerWidth < 600 && window.innerHeight > window.innerWidth;
    const compatible = names.filter((name) => (direction !== "ttb" || modes[name].ttb)
      && (!portraitPhone || modes[name].upright));
    if (!settings.adapt || compatible.indexOf(intended) >= 0) return intended;
    return compatible.indexOf(fallback) >= 0 ? fallback : compatible[0];
  }

  function shownPages(all, settings) {
    const list = all.filter((p) => !(settings.skipExtras && p.t.indexOf("extra") >= 0)
      && !(settings.skipCovers && p.t.indexOf("cover") >= 0));
    return list.length ? list : all; // never hide a whole chapter
  }

  const data = JSON.parse(document.getElementById("chapter-data").textContent);
  const settings = data.settings;
  settings.zoom = settings.zoom || {};
  const root = document.getElementById("reader");
  // No pull-to-refresh or swipe-back navigation while reading: swipes turn pages here.
  document.documentElement.style.overscrollBehavior = "none";
  const canvas = h("div", { className: "rd-canvas" });
  const scroller = h("div", { className: "rd-scroller", tabindex: "-1" }, canvas);
  root.appendChild(scroller);

  // A PDF's pages are drawn at the width asked: the first step of the ladder as wide as the screen.
  const need = Math.ceil(Math.max(window.innerWidth, window.screen.width || 0) * (window.devicePixelRatio || 1));
  const width = data.widths ? data.widths.find((w) => w >= need) || data.widths[data.widths.length - 1] : 0;
  const sized = (u) => (width ? u + (u.indexOf("?") >= 0 ? "&" : "?") + "w=" + width : u);
  const all = data.pages.map((p, i) => ({ i, u: sized(p.u), w: p.w, h: p.h, t: p.t || [], r: p.r || 0, el: null }));
  const whole = shownPages(all, settings);
  const list = whole.slice(); // what is laid out: `whole`, with double pages split when asked (resplit)
  const halves = new Map(); // the halves made so far, by page index and side
  const sameVersion = data.progress && data.progress.v === data.version;

  const R = {
    data, settings, root, scroller, canvas, list, shownPages,
    dir: data.direction,
    mode: resolveMode(settings, data.direction), m: null, // the name and its entry in MCR.modes
    zoom: 1, zoomKey: "page", strip: false,
    fit: layout.fits.indexOf(settings.pageFit) >= 0 ? settings.pageFit : layout.fits[0],
    cur: 0, spreads: [], boxes: [], end: null, endCard: null,
    viewport: { w: 0, h: 0 }, canvasSize: { w: 0, h: 0 },
    shift: new Set(sameVersion ? data.progress.shift || [] : []),
    done: !!(data.progress && data.progress.done),
    anchor: null,
  };

  const startAt = list.findIndex((p) => p.i >= (data.start || 0));
  R.cur = startAt < 0 ? list.length - 1 : startAt;

  R.pageIndex = () => list[Math.min(R.cur, list.length - 1)].i;

  // ---- modes --------------------------------------------------------------------------------------

  function applyMode(mode) {
    R.mode = mode;
    R.m = modes[mode];
    R.strip = R.m.scrolls && R.dir === "ttb";
    R.zoomKey = R.strip ? "strip" : mode;
    R.zoom = clampZoom(+settings.zoom[R.zoomKey] || 1);
    resplit();
    R.spreads = layout.pair(list, R.shift);
    root.dataset.mode = mode;
    root.classList.toggle("rd-strip", R.strip);
  }

  function setMode(mode, clicked) {
    if (clicked) progress.modeChosen(R, mode);
    if (mode === R.mode) return;
    R.cur = Math.min(R.cur, list.length - 1);
    loading.stopFlow();
    list.forEach((p) => (p.el = null));
    halves.forEach((p) => (p.el = null));
    applyMode(mode);
    if (R.m.spreads) R.cur = firstOfSpread(R.cur);
    open();
  }

  /**
   * Lay out the double pages as halves, or whole again, as the mode and the split setting ask,
   * changing `list` in place (every helper holds it). The current page stays current: a page just
   * split opens at its first half. Returns whether the list changed.
   */
  function resplit() {
    const next = layout.split(whole, layout.splitWanted(R), R.dir, halves);
    if (next.length === list.length && next.every((p, k) => p === list[k])) return false;
    const atEnd = R.cur >= list.length;
    const keep = list[Math.min(R.cur, list.length - 1)];
    list.splice(0, list.length, ...next);
    let pos = next.indexOf(keep);
    if (pos < 0) pos = next.findIndex((p) => p.i === keep.i);
    R.cur = atEnd ? list.length : Math.max(0, pos);
    return true;
  }

  function firstOfSpread(pos) {
    const s = R.spreads[layout.spreadOf(R.spreads, pos)];
    return s ? s.pages[0] : pos;
  }

  /** Build the mode's elements and lay them out at R.cur. */
  function open() {
    layout.build(R);
    if (R.m.scrolls) {
      layout.render(R);
      const box = R.boxes[R.cur];
      R.scroller.scrollTop = box ? box.y : 0;
      loading.observeFlow(R);
      trackFlow();
    } else {
      showCurrent();
    }
    bars.update();
  }

  // ---- paged: page turns -----------------------------------------------------------------------------

  function showCurrent() {
    layout.build(R);
    layout.render(R);
    const s = R.scroller;
    s.scrollTop = 0;
    s.scrollLeft = R.dir === "rtl" ? s.scrollWidth : 0; // a zoomed page starts at its reading corner
    const lastSpread = R.m.spreads && layout.spreadOf(R.spreads, R.cur) >= R.spreads.length - 1;
    if (R.cur >= list.length - 1 || lastSpread) R.done = true; // the last page has been on screen
    keepAnchor();
    bars.update();
    progress.changed(R);
    return loading.shown(R);
  }

  function turn(delta) {
    if (R.m.scrolls) return flowStep(delta);
    let pos;
    if (R.cur >= list.length) {
      if (delta > 0) return nextChapter();
      pos = R.m.spreads ? R.spreads[R.spreads.length - 1].pages[0] : list.length - 1;
    } else if (R.m.spreads) {
      const s = layout.spreadOf(R.spreads, R.cur) + delta;
      if (s < 0) return bars.show();
      pos = s >= R.spreads.length ? list.length : R.spreads[s].pages[0];
    } else {
      pos = R.cur + delta;
      if (pos < 0) return bars.show();
    }
    goTo(pos);
  }

  function goTo(pos) {
    pos = Math.max(0, Math.min(pos, list.length));
    if (R.m.scrolls) {
      const box = R.boxes[Math.min(pos, list.length - 1)];
      R.scroller.scrollTop = box.y;
      return;
    }
    if (R.m.spreads && pos < list.length) pos = firstOfSpread(pos);
    performance.mark("mc-turn-start");
    R.cur = pos;
    bars.hide(true);
    showCurrent().then(() => afterPaint(() => performance.measure("mc-turn", "mc-turn-start")));
  }

  function nextChapter() {
    if (data.next) {
      R.done = true;
      progress.save(R, true);
      location.href = ROOT + data.next.url;
    } else {
      bars.show();
    }
  }

  function toggleShift() {
    const spread = R.spreads[layout.spreadOf(R.spreads, R.cur)];
    if (!spread || spread.run === null) return;
    if (R.shift.has(spread.run)) R.shift.delete(spread.run);
    else R.shift.add(spread.run);
    const at = R.cur;
    R.spreads = layout.pair(list, R.shift);
    R.cur = firstOfSpread(at);
    showCurrent();
  }

  // ---- flow -------------------------------------------------------------------------------------------

  /** Next/previous page top, at most 90 % of a screen (85 % in a webtoon); at the bottom → next chapter. */
  function flowStep(delta) {
    const s = R.scroller;
    const top = s.scrollTop;
    const cap = (R.strip ? 0.85 : 0.9) * R.viewport.h;
    const tops = R.boxes.map((b) => b.y).concat(R.end ? [R.end.y] : []);
    let target;
    if (delta > 0) {
      if (top + R.viewport.h >= s.scrollHeight - 2) return nextChapter();
      const next = tops.find((y) => y > top + 1);
      target = Math.min(next === undefined ? Infinity : next, top + cap);
    } else {
      const before = tops.filter((y) => y < top - 1);
      target = Math.max(before.length ? before[before.length - 1] : 0, top - cap);
    }
    s.scrollTo({ top: target, behavior: "smooth" });
  }

  /** The page at the top of the screen is the current one. */
  function trackFlow() {
    const top = R.scroller.scrollTop + 1;
    let pos = R.boxes.findIndex((b) => b.y + b.h > top);
    if (pos < 0) pos = list.length - 1;
    const last = R.boxes[R.boxes.length - 1];
    if (last && R.scroller.scrollTop + R.viewport.h >= last.y + last.h - 2) R.done = true;
    if (pos !== R.cur) {
      R.cur = pos;
      bars.update();
    }
    progress.changed(R);
  }

  // ---- page fit (Page mode) ---------------------------------------------------------------------------

  function setFit(fit) {
    if (!R.m.fits || fit === R.fit || layout.fits.indexOf(fit) < 0) return;
    R.fit = fit;
    const s = R.scroller;
    layout.render(R);
    s.scrollTop = 0;
    s.scrollLeft = R.dir === "rtl" ? s.scrollWidth : 0; // the reading corner, as after a page turn
    keepAnchor();
    bars.update();
    progress.fitChosen(R);
  }

  function nextFit() {
    const names = layout.fits;
    setFit(names[(names.indexOf(R.fit) + 1) % names.length]);
  }

  // ---- zoom and anchoring ----------------------------------------------------------------------------

  function clampZoom(z) {
    z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, z));
    return Math.abs(z - 1) <= SNAP ? 1 : z;
  }

  /** Zoom so that the page point under (x, y) stays there (or `a`, anchored earlier, goes there). */
  function zoomAt(z, x, y, a) {
    z = clampZoom(z);
    if (z === R.zoom) return;
    const anchor = a || layout.anchor(R, x, y);
    R.zoom = z;
    layout.render(R, anchor, x, y);
    bars.rebase();
    keepAnchor();
    bars.update();
    progress.zoomChanged(R);
  }

  function zoomTo(z) {
    zoomAt(z, R.viewport.w / 2, R.viewport.h / 2);
  }

  /** The reading position to keep through a resize: the top of the screen in Flow, else its centre. */
  function keepAnchor() {
    R.anchor = layout.anchor(R, R.viewport.w / 2, R.m.scrolls ? 0 : R.viewport.h / 2);
  }

  function resized() {
    const s = R.scroller;
    if (s.clientWidth === R.viewport.w && s.clientHeight === R.viewport.h) return false;
    const a = R.anchor;
    layout.render(R, a, s.clientWidth / 2, R.m.scrolls ? 0 : s.clientHeight / 2);
    keepAnchor();
    return true;
  }

  function sizeLearned() {
    const a = R.anchor;
    const changed = resplit(); // a page measured wide only now is split now
    R.spreads = layout.pair(list, R.shift);
    if ((R.m.spreads || changed) && (R.cur < list.length || R.m.scrolls)) {
      if (R.m.spreads) R.cur = firstOfSpread(R.cur);
      layout.build(R);
      if (changed && R.m.scrolls) loading.observeFlow(R);
    }
    layout.render(R, a, R.viewport.w / 2, R.m.scrolls ? 0 : R.viewport.h / 2);
    keepAnchor();
    bars.update();
  }

  // ---- scrolling --------------------------------------------------------------------------------------

  let scrollFrame = 0;
  function onScroll() {
    if (scrollFrame) return;
    scrollFrame = requestAnimationFrame(() => {
      scrollFrame = 0;
      if (resized()) return; // the viewport changed under us: keep the position first
      keepAnchor();
      bars.scrolled(R.scroller.scrollTop);
      if (R.m.scrolls) trackFlow();
    });
  }

  // ---- timing ------------------------------------------------------------------------------------------

  function afterPaint(fn) {
    requestAnimationFrame(() => setTimeout(fn, 0));
  }

  const marked = {};
  R.painted = (name) => {
    if (marked[name]) return;
    marked[name] = true;
    afterPaint(() => performance.mark("mc-" + name));
  };

  // ---- start ------------------------------------------------------------------------------------------

  Object.assign(R, { turn, goTo, setMode, setFit, nextFit, toggleShift, flowStep, zoomAt, zoomTo, sizeLearned, nextChapter, keepAnchor });

  applyMode(R.mode);
  if (R.m.spreads) R.cur = firstOfSpread(R.cur);
  bars.build(R);
  if (MCR.overview) MCR.overview.init(R);
  MCR.input.init(R);
  progress.init(R);
  scroller.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", () => resized());
  open();
  if (MCR.continues) MCR.continues.init(R);
  bars.show();
  scroller.focus({ preventScroll: true });

  window.mcReader = Object.freeze({
    get mode() { return R.mode; },
    get zoomKey() { return R.zoomKey; },
    get zoom() { return R.zoom; },
    get page() { return R.cur < list.length ? list[R.cur].i : -1; },
    get atEnd() { return !R.m.scrolls && R.cur >= list.length; },
    get fit() { return R.fit; },
    get shown() { return list.map((p) => p.i); },
    get halves() { return list.map((p) => p.half || null); },
    get boxes() { return R.boxes.map((b) => ({ i: list[b.li].i, half: list[b.li].half || null, x: b.x, y: b.y, w: b.w, h: b.h })); },
    get viewport() { return Object.assign({}, R.viewport); },
    get canvas() { return Object.assign({}, R.canvasSize); },
    get scroll() { return { x: R.scroller.scrollLeft, y: R.scroller.scrollTop }; },
    get spreads() { return R.spreads.map((s) => s.pages.map((li) => list[li].i)); },
    get shift() { return Array.from(R.shift).sort((a, b) => a - b); },
    get decoded() { return loading.decoded(); },
    get bars() { return bars.shown; },
    get hint() { return bars.hinting; },
    get done() { return R.done; },
    get preview() { return MCR.continues ? MCR.continues.preview : null; },
  });
})();
