/* Reader input (docs/reader.md, "Turning pages", "Zoom"): tap zones, swipe, mouse drag-pan, keys, and zoom by
 * Ctrl+wheel, touchpad pinch, Safari gesture events and two-finger pinch, each anchored at the
 * pointer or finger midpoint. Browser zoom is suppressed only over the pages.
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});

  const ZONE = 0.35;
  const SWIPE_MIN = 50;
  const SWIPE_MS = 800;
  const DRAG_MIN = 6;
  const KEY_STEP = 0.05;
  const PAN_STEP = 0.2; // of the screen, per Shift+arrow

  let R = null;

  function local(e) {
    const rect = R.scroller.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  function overPages(target) {
    return !!(target && target.closest && target.closest(".rd-page"));
  }

  function interactive(target) {
    return !!(target && target.closest && target.closest("a, button, select, input, label, .rd-bar"));
  }

  /** "left"/"right" to previous/next, following the reading direction (rtl: left = next). */
  function side(which) {
    const forward = R.dir === "rtl" ? which === "left" : which === "right";
    R.turn(forward ? 1 : -1);
  }

  // ---- taps ---------------------------------------------------------------------------------------

  function tap(x, y) {
    const vw = R.viewport.w;
    const vh = R.viewport.h;
    if (!R.m.scrolls && R.cur >= R.list.length) {
      // The end card uses the whole screen as zones.
      if (x < vw * ZONE) side("left");
      else if (x > vw * (1 - ZONE)) side("right");
      else MCR.bars.toggle();
      return;
    }
    const sx = R.scroller.scrollLeft;
    const sy = R.scroller.scrollTop + y;
    const onEnd = R.m.scrolls && R.end && sy >= R.end.y; // the end of the flow counts as a page
    if (R.m.scrolls) {
      const box = MCR.layout.boxAt(R, sx + x, sy);
      if (!box && !onEnd) return MCR.bars.toggle();
      if (y < vh * ZONE) R.flowStep(-1);
      else if (y > vh * (1 - ZONE)) R.flowStep(1);
      else MCR.bars.toggle();
      return;
    }
    // The outer 35 % of the visible page area (the part of the spread that is on screen), each
    // reaching on to its edge of the viewport: a click in the margin beside a portrait page turns
    // it. The middle band, above and below the pages too, is the bars'.
    const left = Math.max(0, Math.min.apply(null, R.boxes.map((b) => b.x)) - sx);
    const right = Math.min(vw, Math.max.apply(null, R.boxes.map((b) => b.x + b.w)) - sx);
    const f = (x - left) / Math.max(1, right - left);
    if (f < ZONE) side("left");
    else if (f > 1 - ZONE) side("right");
    else MCR.bars.toggle();
  }

  // ---- mouse drag-pan -------------------------------------------------------------------------------

  let drag = null;
  let swallowClick = false;

  function pointerDown(e) {
    if (e.pointerType !== "mouse" || e.button !== 0 || interactive(e.target)) return;
    const s = R.scroller;
    drag = { id: e.pointerId, x: e.clientX, y: e.clientY, left: s.scrollLeft, top: s.scrollTop, moving: false };
  }

  function pointerMove(e) {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.moving && Math.hypot(dx, dy) >= DRAG_MIN) {
      drag.moving = true;
      R.scroller.classList.add("rd-dragging");
      try { R.scroller.setPointerCapture(e.pointerId); } catch (err) { /* pointer already gone */ }
    }
    if (drag.moving) {
      R.scroller.scrollLeft = drag.left - dx;
      R.scroller.scrollTop = drag.top - dy;
    }
  }

  function pointerUp(e) {
    if (!drag || e.pointerId !== drag.id) return;
    if (drag.moving) swallowClick = true; // the click that follows a drag is no tap
    R.scroller.classList.remove("rd-dragging");
    drag = null;
    setTimeout(() => (swallowClick = false), 0);
  }

  function click(e) {
    if (swallowClick) {
      swallowClick = false;
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (interactive(e.target)) return;
    const p = local(e);
    tap(p.x, p.y);
  }

  // ---- zoom ---------------------------------------------------------------------------------------

  function wheel(e) {
    if (!e.ctrlKey || !overPages(e.target)) return; // a touchpad pinch arrives as Ctrl+wheel
    e.preventDefault();
    const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
    const factor = Math.min(2, Math.max(0.5, Math.exp(-delta * 0.002)));
    const p = local(e);
    let z = R.zoom * factor;
    if ((R.zoom < 1 && z > 1) || (R.zoom > 1 && z < 1)) z = 1; // a detent at 100 %
    R.zoomAt(z, p.x, p.y);
  }

  // Safari's gesture events (touchpad pinch on macOS, pinch on iOS).
  let gesture = null;

  function gestureStart(e) {
    if (!overPages(e.target)) return;
    e.preventDefault();
    const p = local(e);
    gesture = { z: R.zoom, anchor: MCR.layout.anchor(R, p.x, p.y) };
  }

  function gestureChange(e) {
    if (!gesture) return;
    e.preventDefault();
    const p = local(e);
    R.zoomAt(gesture.z * e.scale, p.x, p.y, gesture.anchor);
  }

  function gestureEnd(e) {
    if (gesture) e.preventDefault();
    gesture = null;
  }

  // ---- touch: two-finger pinch and swipe ------------------------------------------------------------

  let pinch = null;
  let swipe = null;

  function midpoint(t) {
    const rect = R.scroller.getBoundingClientRect();
    return { x: (t[0].clientX + t[1].clientX) / 2 - rect.left, y: (t[0].clientY + t[1].clientY) / 2 - rect.top,
      d: Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY) };
  }

  function touchStart(e) {
    if (e.touches.length === 2 && (overPages(e.touches[0].target) || overPages(e.touches[1].target))) {
      const m = midpoint(e.touches);
      pinch = { z: R.zoom, d: Math.max(1, m.d), anchor: MCR.layout.anchor(R, m.x, m.y) };
      swipe = null;
      e.preventDefault();
    } else if (e.touches.length === 1 && !pinch && !interactive(e.target)) {
      const t = e.touches[0];
      swipe = { x: t.clientX, y: t.clientY, t: e.timeStamp };
    } else {
      swipe = null;
    }
  }

  function touchMove(e) {
    if (swipe && !pinch && e.cancelable && !R.m.scrolls && R.canvasSize.w <= R.viewport.w + 1) {
      // A sideways swipe over unzoomed pages is ours: no browser back-swipe or overscroll.
      const t = e.touches[0];
      if (Math.abs(t.clientX - swipe.x) > Math.abs(t.clientY - swipe.y)) e.preventDefault();
    }
    if (!pinch || e.touches.length < 2) return;
    e.preventDefault();
    const m = midpoint(e.touches);
    R.zoomAt(pinch.z * (m.d / pinch.d), m.x, m.y, pinch.anchor);
  }

  function touchEnd(e) {
    if (pinch) {
      if (e.touches.length < 2) pinch = null;
      swipe = null;
      return;
    }
    if (!swipe || e.touches.length) return;
    const t = e.changedTouches[0];
    const dx = t.clientX - swipe.x;
    const dy = t.clientY - swipe.y;
    const quick = e.timeStamp - swipe.t <= SWIPE_MS;
    swipe = null;
    const paged = !R.m.scrolls;
    const pannable = R.canvasSize.w > R.viewport.w + 1; // zoomed in: a drag pans instead
    if (paged && !pannable && quick && Math.abs(dx) >= SWIPE_MIN && Math.abs(dx) > Math.abs(dy)) {
      side(dx < 0 ? "right" : "left"); // pulling the page leftwards brings in what lies right
    }
  }

  // ---- keys ---------------------------------------------------------------------------------------

  function keyDown(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const paged = !R.m.scrolls;
    const tall = R.canvasSize.h > R.viewport.h + 1;
    const pan = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (e.shiftKey && pan) { // Shift+arrows pan a zoomed page, as a mouse drag does
      R.scroller.scrollBy(pan[0] * R.viewport.w * PAN_STEP, pan[1] * R.viewport.h * PAN_STEP);
      e.preventDefault();
      return;
    }
    let handled = true;
    switch (e.key) {
      case "ArrowLeft": side("left"); break;
      case "ArrowRight": side("right"); break;
      case "ArrowDown": if (paged && !tall) R.turn(1); else handled = false; break;
      case "ArrowUp": if (paged && !tall) R.turn(-1); else handled = false; break;
      case " ": case "Spacebar": if (paged) R.turn(e.shiftKey ? -1 : 1); else handled = false; break; // not shown: old browsers' key name
      case "PageDown": if (paged) R.turn(1); else handled = false; break;
      case "PageUp": if (paged) R.turn(-1); else handled = false; break;
      case "+": case "=": R.zoomTo(Math.round((R.zoom + KEY_STEP) * 20) / 20); break;
      case "-": case "_": R.zoomTo(Math.round((R.zoom - KEY_STEP) * 20) / 20); break;
      case "0": R.zoomTo(1); break;
      case "w": case "W": if (R.m.fits) R.nextFit(); else handled = false; break;
      case "m": case "M": case "Escape": MCR.bars.toggle(); break;
      case "f": case "F": fullscreen(); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  }

  function fullscreen() {
    if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
    else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen().catch(() => {});
  }

  function init(reader) {
    R = reader;
    const s = R.scroller;
    s.addEventListener("click", click);
    s.addEventListener("pointerdown", pointerDown);
    s.addEventListener("pointermove", pointerMove);
    s.addEventListener("pointerup", pointerUp);
    s.addEventListener("pointercancel", pointerUp);
    s.addEventListener("wheel", wheel, { passive: false });
    s.addEventListener("gesturestart", gestureStart, { passive: false });
    s.addEventListener("gesturechange", gestureChange, { passive: false });
    s.addEventListener("gestureend", gestureEnd, { passive: false });
    s.addEventListener("touchstart", touchStart, { passive: false });
    s.addEventListener("touchmove", touchMove, { passive: false });
    s.addEventListener("touchend", touchEnd);
    s.addEventListener("touchcancel", () => { pinch = null; swipe = null; });
    document.addEventListener("keydown", keyDown);
  }

  MCR.input = { init };
})();
