/* Keeping chapters offline (docs/offline.md), on every page: a chapter's reader page, its payload
 * (GET /api/chapter, with the page sizes the layout needs) and its page images go into the Cache API
 * under their stable keys (offline, the worker answers a page's thumbnail with its image); IndexedDB
 * records what is kept. The buttons are
 * offline-buttons.js's (the manga page, the reader). With the setting offlineFollowed, each page
 * loaded online keeps the next offlineAhead unread chapters of every followed manga (GET
 * /api/offline/followed), at most every FOLLOWED_EVERY.
 */
(function () {
  "use strict";
  const O = window.MCOffline;
  if (!O || !O.later || !O.user) return;
  // The connections Chromium and Firefox open to one host over HTTP/1.1; 4, 8 and 12 did no better
  // on a 40-page chapter over loopback (python -m bench, "offline: keep a 40-page chapter").
  const PARALLEL = 6;
  const FOLLOWED_EVERY = 5 * 60 * 1000; // the server's list changes with a scan or a chapter read
  const FOLLOWED = "mc.offline.followed";

  /** The width the reader asks a PDF's pages at (read.js): the first step as wide as the screen. */
  function sized(data) {
    const need = Math.ceil(Math.max(window.innerWidth, window.screen.width || 0) * (window.devicePixelRatio || 1));
    const width = data.widths ? data.widths.find((w) => w >= need) || data.widths[data.widths.length - 1] : 0;
    return (u) => (width ? u + (u.indexOf("?") >= 0 ? "&" : "?") + "w=" + width : u);
  }

  /** From the server (a copy in the HTTP cache is checked with it first), never from what is kept. */
  async function fetched(url) {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-cache" });
    if (!response.ok) {
      let message = response.statusText;
      try { message = (await response.clone().json()).error || message; } catch (e) { /* not JSON */ }
      const error = new Error(message);
      error.status = response.status;
      throw error;
    }
    return response;
  }

  /** Fetch each [url, key] into the cache, PARALLEL at a time; resolves to the bytes stored. After
      a failure the others stop, so nothing is stored after the caller has cleaned up. */
  async function storeAll(cache, pairs) {
    let bytes = 0;
    let next = 0;
    let failed = false;
    async function worker() {
      while (next < pairs.length && !failed) {
        const [url, key] = pairs[next++];
        try {
          const response = await fetched(url);
          const length = Number(response.headers.get("Content-Length"));
          bytes += length > 0 ? length : (await response.clone().blob()).size; // without reading it twice
          await cache.put(key, response);
        } catch (error) { // a page refused, no connection, no space left
          failed = true;
          throw error;
        }
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
    const keys = [O.stableKey(dataUrl)].concat(pairs.map((pair) => pair[1]));
    let bytes = (await answer.clone().blob()).size;
    const payload = cache.put(keys[0], answer); // beside the pages, not before them
    try {
      bytes += await storeAll(cache, pairs);
      await payload;
    } catch (error) {
      await payload.catch(() => null);
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

  /** Keep chapters [{m, c, url, label}] one after the other, saying so; `afterEach(chapter)` runs
      when one is kept. Stops at the first that fails. */
  async function keepMany(chapters, afterEach, nothing) {
    if (!chapters.length) {
      toast(nothing || gettext("No unread chapters to keep."));
      return;
    }
    const count = chapters.length;
    toast(count === 1 ? interpolate(gettext("Keeping %(name)s offline…"), { name: chapters[0].label }, true)
      : interpolate(ngettext("Keeping %(n)s chapter offline…", "Keeping %(n)s chapters offline…", count), { n: count }, true));
    let bytes = 0;
    for (const chapter of chapters) {
      try {
        bytes += (await keep(chapter.m, chapter.c, chapter.url)).bytes;
      } catch (error) {
        toast(interpolate(gettext("%(name)s could not be kept offline: %(error)s"), { name: chapter.label, error: error.message }, true),
          "error");
        return;
      }
      if (afterEach) afterEach(chapter);
    }
    const size = O.size(bytes);
    toast(count === 1 ? interpolate(gettext("%(name)s kept offline (%(size)s)."), { name: chapters[0].label, size }, true)
      : interpolate(ngettext("%(n)s chapter kept offline (%(size)s).", "%(n)s chapters kept offline (%(size)s).", count),
        { n: count, size }, true));
  }

  async function forget(m, cids) {
    const wanted = new Set(cids);
    await O.forgetKept((await O.keptOf(O.user)).filter((k) => k.m === m && wanted.has(k.c)));
  }

  async function keptIds(m) {
    return new Set((await O.keptOf(O.user)).filter((k) => k.m === m).map((k) => k.c));
  }

  /** Automatic keeping: the chapters the server lists for the followed manga that are not kept yet,
      quietly, one toast when something new was kept. A chapter that fails waits for the next round. */
  async function keepFollowed() {
    await O.ready;
    const last = Number(localStorage.getItem(FOLLOWED)) || 0;
    if (O.offline() || Date.now() - last < FOLLOWED_EVERY) return;
    localStorage.setItem(FOLLOWED, String(Date.now()));
    const answer = await api("api/offline/followed", undefined, { noRedirect: true });
    if (!answer.on) return;
    const kept = new Set((await O.keptOf(O.user)).map((k) => k.m + "\n" + k.c));
    let count = 0;
    for (const chapter of answer.chapters.filter((c) => !kept.has(c.m + "\n" + c.c))) {
      if (O.offline()) break;
      try {
        await keep(chapter.m, chapter.c, chapter.url);
        count++;
      } catch (error) {
        if (error.status === undefined || error.status === 401) break; // no connection, or signed out
      }
    }
    if (count) {
      document.dispatchEvent(new CustomEvent("mc:kept"));
      toast(interpolate(ngettext("Kept %(n)s new chapter of the manga you follow offline.",
        "Kept %(n)s new chapters of the manga you follow offline.", count), { n: count }, true));
    }
  }

  Object.assign(O, { keep, keepMany, forget, keptIds, keepFollowed, FOLLOWED });
  keepFollowed().catch(() => null);
})();
