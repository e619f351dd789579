/* Reader progress and reading preferences (docs/reader.md, "Your place", "Zoom").
 *
 * The position is saved 700 ms after it settles and on pagehide (a fetch with keepalive). It
 * stores the page index in the full page list, so hiding extras or covers never corrupts it.
 * Zoom is saved per mode key (flow, page, book, strip) 800 ms after the last change. lastMode is
 * written only when the user clicks a mode, never on an automatic switch; pageFit when the user picks a fit.
 * Offline, or when no answer comes, the position is queued on this device (offline.js) and sent
 * when the connection returns.
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});

  const SAVE_DELAY = 700;
  const ZOOM_DELAY = 800;
  const RETRY_DELAY = 10000; // after no answer or a server error; a newer position replaces it

  let saveTimer = 0;
  let zoomTimer = 0;
  let pendingZoom = null;
  let lastSent = "";
  let offlineSaid = false;

  function body(R) {
    return {
      m: R.data.manga.name, c: R.data.chapter.id, v: R.data.version,
      p: R.pageIndex(), n: R.data.pages.length, done: R.done,
      shift: Array.from(R.shift).sort((a, b) => a - b),
    };
  }

  /** The position changed: save once it has been still for 700 ms. */
  function changed(R) {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(() => save(R, false), SAVE_DELAY);
  }

  function save(R, leaving) {
    clearTimeout(saveTimer);
    saveTimer = 0;
    const data = body(R);
    const key = JSON.stringify(data);
    if (key === lastSent) return Promise.resolve();
    lastSent = key;
    const offline = window.MCOffline && window.MCOffline.later ? window.MCOffline : null;
    const queued = "progress\n" + data.m + "\n" + data.c;
    // Sent later with when it was read, so the server keeps whichever position is newest (docs/offline.md).
    const later = (quietly) => offline.later(queued, "api/progress", Object.assign({ at: Date.now() }, data), quietly)
      .catch(() => null);
    if (offline && offline.offline()) {
      if (!leaving && !offlineSaid) {
        toast(gettext("You are offline: your reading position is kept on this device and sent when the connection returns."));
      }
      offlineSaid = true;
      return later();
    }
    return api("api/progress", data, leaving ? { keepalive: true } : undefined).then(() => {
      if (offline) offline.sent(queued);
    }, (error) => {
      lastSent = "";
      if (offline && error.status === 0) later(!leaving); // staying, the page tries again in 10 s itself
      if (leaving || error.status === 401) return;
      if (error.status === 0 || error.status >= 500) {
        toast(interpolate(gettext("Reading position not saved: %(error)s; trying again %(when)s"),
          { error: error.message, when: inWords(RETRY_DELAY / 1000) }, true), "error");
        if (!saveTimer) saveTimer = setTimeout(() => save(R, false), RETRY_DELAY);
      } else {
        toast(interpolate(gettext("Reading position not saved: %(error)s"), { error: error.message }, true), "error");
      }
    });
  }

  function zoomChanged(R) {
    const z = Math.round(R.zoom * 10000) / 10000;
    R.settings.zoom[R.zoomKey] = z;
    pendingZoom = Object.assign(pendingZoom || {}, { [R.zoomKey]: z });
    clearTimeout(zoomTimer);
    zoomTimer = setTimeout(() => saveZoom(false), ZOOM_DELAY);
  }

  function saveZoom(leaving) {
    clearTimeout(zoomTimer);
    if (!pendingZoom) return;
    const zoom = pendingZoom;
    pendingZoom = null;
    api("api/settings", { zoom }, leaving ? { keepalive: true } : undefined).catch(() => {});
  }

  /** Only a click on a mode button records the user's intended mode. */
  function modeChosen(R, mode) {
    R.settings.lastMode = mode;
    api("api/settings", { lastMode: mode }).catch((error) =>
      toast(interpolate(gettext("Mode not saved: %(error)s"), { error: error.message }, true), "error"));
  }

  /** The Fit button or W: remembered as the page fit for every chapter, as the zoom is. */
  function fitChosen(R) {
    R.settings.pageFit = R.fit;
    api("api/settings", { pageFit: R.fit }).catch((error) =>
      toast(interpolate(gettext("Page fit not saved: %(error)s"), { error: error.message }, true), "error"));
  }

  function init(R) {
    window.addEventListener("pagehide", () => {
      save(R, true);
      saveZoom(true);
    });
  }

  MCR.progress = { init, changed, save, zoomChanged, modeChosen, fitChosen };
})();
