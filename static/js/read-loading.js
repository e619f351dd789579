/* Reader image loading (docs/reader.md, "Loading").
 *
 * Flow: images get their src from an IntersectionObserver on the scroll container, 1.5 screens
 * ahead. Page/Book: a pool of 12 Image objects. Once the pages on screen have been decoded and
 * drawn, the next pages and the previous one are fetched at low priority and decoded, and a page
 * turn inserts those same decoded elements, so the old and the new page swap in one frame (a fresh
 * <img> would be painted empty while it decodes).
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});

  const POOL_SIZE = 12;
  const SPINNER_DELAY = 150; // fast loads never flash a spinner
  const AHEAD_PAGES = 3;
  const AHEAD_SPREADS = 2;

  const pool = new Map(); // full page index → img, oldest first
  let observer = null;
  let turn = 0;

  function isLoaded(img) {
    return img.complete && img.naturalWidth > 0;
  }

  function pageOf(img) {
    return img.parentNode && img.parentNode.classList.contains("rd-page") ? img.parentNode : null;
  }

  /** Spinner only if the image is still loading 150 ms after it was put on the page. */
  function spinLater(img) {
    clearTimeout(img.mcSpin);
    img.mcSpin = setTimeout(() => {
      const el = pageOf(img);
      if (el && !isLoaded(img) && !img.mcFailed) el.classList.add("rd-loading");
    }, SPINNER_DELAY);
  }

  function onScreen(el) {
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
  }

  function loaded(R, p, img) {
    clearTimeout(img.mcSpin);
    const el = pageOf(img);
    if (el) el.classList.remove("rd-loading", "rd-failed");
    if (!p.w || !p.h) {
      // Laid out at 1000×1414 so far: now the real size is known.
      p.w = img.naturalWidth;
      p.h = img.naturalHeight;
      R.sizeLearned();
    }
    // Painted means decoded and then a frame: "load" comes before the decode, 20-50 ms before the
    // image is on screen (docs/performance.md).
    if (img.mcReady) img.mcReady.then(() => {
      if (img.mcDecoded && el && el.isConnected && onScreen(el)) R.painted("first-page");
    });
    checkWhole(R, p, img);
  }

  /** Whether an image file's bytes reach its format's end: a truncated JPEG, PNG or WebP still
      fires "load" and decodes (partly, or blank), so only its bytes tell. Other formats pass. */
  function isWhole(bytes) {
    const n = bytes.length;
    const at = (i, ...values) => values.every((v, k) => bytes[i + k] === v);
    if (at(0, 0xff, 0xd8)) { // JPEG: an end-of-image marker near the end (padding may follow it)
      for (let i = n - 2; i >= Math.max(2, n - 1024); i--) if (at(i, 0xff, 0xd9)) return true;
      return false;
    }
    if (at(0, 0x89, 0x50, 0x4e, 0x47)) return n >= 12 && at(n - 8, 0x49, 0x45, 0x4e, 0x44); // PNG: IEND last
    if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) { // WebP: the RIFF size
      return (bytes[4] | (bytes[5] << 8) | (bytes[6] << 16) | (bytes[7] << 24)) + 8 <= n;
    }
    return true;
  }

  /** After "load": read the same URL again (the HTTP cache answers: /lib/ sends max-age) and show
      the failure message when the file is cut short. Runs after the page is shown, never before. */
  function checkWhole(R, p, img) {
    const src = img.currentSrc || img.src;
    if (img.mcChecked === src) return;
    img.mcChecked = src;
    fetch(src, { cache: "force-cache", credentials: "same-origin" })
      .then((response) => (response.ok ? response.arrayBuffer() : null))
      .then((buffer) => {
        if (buffer && !isWhole(new Uint8Array(buffer)) && (img.currentSrc || img.src) === src) failed(R, p, img);
      }, () => {});
  }

  function failed(R, p, img) {
    clearTimeout(img.mcSpin);
    img.mcFailed = true;
    const el = pageOf(img);
    if (el) showFailure(R, p, img, el);
  }

  function showFailure(R, p, img, el) {
    el.classList.remove("rd-loading");
    el.classList.add("rd-failed");
    if (el.querySelector(".rd-fail")) return;
    const retry = () => {
      el.classList.remove("rd-failed");
      message.remove();
      img.mcFailed = false;
      img.mcReady = null;
      img.src = ROOT + p.u + (p.u.indexOf("?") >= 0 ? "&" : "?") + "retry=" + Date.now();
      track(img, R, p);
      spinLater(img);
    };
    const message = h("div", { className: "rd-fail", role: "alert" },
      h("p", null, interpolate(gettext("Page %(page)s could not be loaded."), { page: p.i + 1 }, true)),
      h("button", { type: "button", onclick: retry }, gettext("Try again")));
    el.appendChild(message);
  }

  /** img.mcReady: a promise that settles once the image is decoded (or failed). A loaded image
      whose decode() fails gets the failure message (unless its src changed meanwhile). */
  function track(img, R, p) {
    img.mcDecoded = false;
    const src = img.src;
    img.mcReady = img.decode().then(() => {
      img.mcDecoded = true;
    }, () => {
      if (R && img.src === src && img.complete && img.naturalWidth > 0 && !img.mcFailed) failed(R, p, img);
    });
  }

  function newImage(R, p, priority, withSrc) {
    const img = new Image();
    img.alt = interpolate(gettext("Page %(page)s"), { page: p.i + 1 }, true);
    img.className = "rd-img";
    img.draggable = false;
    img.decoding = "async";
    img.setAttribute("fetchpriority", priority);
    img.mcPage = p;
    img.addEventListener("load", () => loaded(R, p, img));
    img.addEventListener("error", () => failed(R, p, img));
    if (withSrc) {
      img.src = ROOT + p.u;
      track(img, R, p);
    }
    return img;
  }

  /** Put an image in its page element; a decoded one is inserted for synchronous painting. */
  function attach(R, el, img, p) {
    if (img.mcDecoded) img.decoding = "sync";
    if (img.parentNode !== el) el.insertBefore(img, el.firstChild);
    el.classList.remove("rd-loading");
    if (img.mcFailed) showFailure(R, p, img, el);
    else if (!isLoaded(img)) spinLater(img);
  }

  // ---- Page and Book mode: the pool --------------------------------------------------------------

  function imageFor(R, p) {
    let img = pool.get(p.i);
    if (img) {
      pool.delete(p.i); // refresh its age
    } else {
      img = newImage(R, p, "high", true);
    }
    pool.set(p.i, img);
    trim();
    return img;
  }

  function trim() {
    for (const [i, img] of pool) {
      if (pool.size <= POOL_SIZE) break;
      if (img.isConnected) continue;
      pool.delete(i);
      if (img.parentNode) img.parentNode.removeChild(img);
      if (!isLoaded(img)) img.src = ""; // abandon a fetch nobody waits for any more
    }
  }

  /** The list positions to fetch next: 3 pages ahead (Book: 2 spreads) and the previous one. */
  function neighbours(R) {
    const layout = MCR.layout;
    if (R.m.spreads) {
      const s = layout.spreadOf(R.spreads, R.cur);
      const wanted = [];
      for (let k = 1; k <= AHEAD_SPREADS; k++) if (R.spreads[s + k]) wanted.push.apply(wanted, R.spreads[s + k].pages);
      if (R.spreads[s - 1]) wanted.push.apply(wanted, R.spreads[s - 1].pages);
      return wanted;
    }
    const wanted = [];
    for (let k = 1; k <= AHEAD_PAGES; k++) if (R.cur + k < R.list.length) wanted.push(R.cur + k);
    if (R.cur > 0) wanted.push(Math.min(R.cur, R.list.length) - 1);
    return wanted;
  }

  /** A promise settled once the next frame has been drawn: the frame after it has begun. */
  function afterFrame() {
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))));
  }

  /**
   * After a page turn: once the pages on screen are decoded and drawn, fetch and decode the
   * neighbours. Not before that frame: a neighbour's decode would take the CPU from the raster of
   * the page just turned to. Returns a promise settled when the pages on screen are decoded.
   */
  function shown(R) {
    const mine = ++turn;
    const imgs = MCR.layout.visible(R).map((li) => pool.get(R.list[li].i)).filter(Boolean);
    const ready = Promise.all(imgs.map((img) => img.mcReady));
    ready.then(afterFrame).then(() => {
      if (mine !== turn || R.m.scrolls) return;
      neighbours(R).forEach((li) => {
        const p = R.list[li];
        if (!pool.has(p.i)) pool.set(p.i, newImage(R, p, "low", true));
      });
      trim();
    });
    return ready;
  }

  function decoded() {
    const result = [];
    pool.forEach((img, i) => {
      if (img.mcDecoded) result.push(i);
    });
    return result.sort((a, b) => a - b);
  }

  // ---- Flow mode: lazy images ----------------------------------------------------------------------

  function flowImage(R, p) {
    const img = newImage(R, p, "auto", false);
    img.dataset.src = ROOT + p.u;
    return img;
  }

  function observeFlow(R) {
    if (observer) observer.disconnect();
    observer = new IntersectionObserver((entries) => {
      entries.forEach((entry) => {
        if (!entry.isIntersecting) return;
        const img = entry.target.querySelector("img");
        observer.unobserve(entry.target);
        if (img && img.dataset.src && !img.getAttribute("src")) {
          img.src = img.dataset.src;
          track(img, R, img.mcPage);
          spinLater(img);
        }
      });
    }, { root: R.scroller, rootMargin: "150% 0px 150% 0px" });
    R.list.forEach((p) => observer.observe(p.el));
  }

  function stopFlow() {
    if (observer) observer.disconnect();
    observer = null;
  }

  MCR.loading = { attach, imageFor, shown, decoded, flowImage, observeFlow, stopFlow };
})();
