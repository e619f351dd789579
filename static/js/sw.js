/* The service worker (docs/offline.md), served at <root>/sw.js by reader/offline_views.py, which
 * puts self.MC_WORKER before this file: {root, version, shell: [static URLs], offline, logout, store}.
 *
 *   pages (library, manga, reader, Settings → Offline)  network first; the copy last fetched, else
 *                                                       the offline page, when there is no answer
 *   static/, jsi18n/ (the language's catalog)           network first, the shell cache without one
 *   lib/ (page images)                                  a kept copy under its stable key, else network
 *                                                       (keeping asks with cache "no-cache": network)
 *   lib-thumb/ (page thumbnails)                        network first; without one, the kept page image
 *   api/chapter                                         network first, the kept payload without one
 *   thumb/ (covers)                                     network first, the copy last fetched
 *   POST logout/                                        forgets every kept page and queued write
 * A write queued while offline is sent on "sync" (Background Sync), as the pages do on load.
 */
"use strict";
importScripts(self.MC_WORKER.store);
importScripts(...self.MC_WORKER.shell.filter((url) => /\/js\/sw-push(\.[0-9a-f]+)?\.js$/.test(url))); // Web Push

const W = self.MC_WORKER;
const O = self.MCOffline;
const SHELL = O.SHELL + "-" + W.version;
const CACHED_PAGES = [/^$/, /^manga\/[^/]+\/$/, /^read\//, /^settings\/user\/offline\/$/];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => Promise.all(
    W.shell.concat([W.offline]).map((url) => cache.add(new Request(url, { credentials: "same-origin" })).catch(() => null))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith(O.SHELL + "-") && n !== SHELL).map((n) => caches.delete(n))))
    .then(() => self.clients.claim()));
});

self.addEventListener("sync", (event) => {
  if (event.tag === "mc-queue") event.waitUntil(O.flush(W.root));
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.forget !== undefined) event.waitUntil(O.forgetUser(event.data.forget));
});

function keptCopy(request) {
  return caches.open(O.KEPT).then((cache) => cache.match(O.stableKey(request.url)));
}

async function networkFirst(request, cacheName) {
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected) {
      const copy = response.clone();
      caches.open(cacheName).then((cache) => cache.put(request, copy)).catch(() => null);
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request, { cacheName });
    if (cached) return cached;
    throw error;
  }
}

/** A kept page from its copy, unless the page asked for the network itself (keeping does, with
    cache "no-cache"): looking in the kept cache while keeping writes to it costs each request a
    wait for the writes before it. */
async function image(request) {
  if (request.cache === "no-cache" || request.cache === "reload" || request.cache === "no-store") return fetch(request);
  return (await keptCopy(request)) || fetch(request);
}

/** A page's thumbnail is not kept: with them, keeping a 40-page chapter took 2.9× fetching its
    pages once (python -m bench), twice the requests; without, 1.2-1.4×. Offline, the kept image itself
    stands in for it, which the overview shows scaled down. */
async function thumbnail(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const page = new URL(O.stableKey(request.url));
    page.pathname = W.root + "lib/" + page.pathname.slice((W.root + "lib-thumb/").length);
    // A PDF's page is kept with the width it was asked at (?w=): its path alone names the page.
    const kept = await caches.open(O.KEPT).then((cache) => cache.match(page.href, { ignoreSearch: true }));
    if (kept) return kept;
    throw error;
  }
}

async function chapterData(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const kept = await keptCopy(request);
    if (kept) return kept;
    throw error;
  }
}

async function page(request, rel) {
  const remembered = CACHED_PAGES.some((pattern) => pattern.test(rel));
  try {
    const response = await fetch(request);
    const html = (response.headers.get("Content-Type") || "").startsWith("text/html");
    if (remembered && response.status === 200 && !response.redirected && html) {
      const [copy, forKept] = [response.clone(), response.clone()];
      const key = O.stableKey(request.url);
      caches.open(O.PAGES).then((cache) => cache.put(key, copy)).catch(() => null);
      // A kept reader page follows the latest visit (its start page and settings).
      caches.open(O.KEPT).then(async (cache) => {
        if (await cache.match(key.split("?")[0])) await cache.put(key.split("?")[0], forKept);
      }).catch(() => null);
    }
    return response;
  } catch (error) {
    const key = O.stableKey(request.url);
    const found = (await caches.match(key.split("?")[0], { cacheName: O.KEPT }))
      || (await caches.match(key, { cacheName: O.PAGES }))
      || (await caches.match(key, { cacheName: O.PAGES, ignoreSearch: true }))
      || (await caches.match(W.offline, { cacheName: SHELL }));
    if (found) return marked(found);
    throw error;
  }
}

/** A copy served without the network says so on its <body> (offline.js reads it): a browser's
    navigator.onLine cannot be trusted to be false then. */
async function marked(response) {
  const html = await response.text();
  return new Response(html.replace("<body ", '<body data-offline-copy="" '),
    { status: response.status, statusText: response.statusText, headers: response.headers });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith(W.root)) return;
  const rel = url.pathname.slice(W.root.length);
  if (request.method === "POST" && rel === W.logout) {
    event.waitUntil(O.currentUser().then(O.forgetUser));
    return;
  }
  // A position sent as the page is left (keepalive) is lost when the page it came from goes
  // while the worker holds it: the worker sends it itself, and outlives the page.
  if (request.method === "POST" && request.keepalive) {
    event.respondWith(fetch(request));
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate") event.respondWith(page(request, rel));
  else if (rel.startsWith("static/") || rel.startsWith("jsi18n/")) event.respondWith(networkFirst(request, SHELL));
  else if (rel.startsWith("lib/")) event.respondWith(image(request));
  else if (rel.startsWith("lib-thumb/")) event.respondWith(thumbnail(request));
  else if (rel === "api/chapter") event.respondWith(chapterData(request));
  else if (rel.startsWith("thumb/")) event.respondWith(networkFirst(request, O.PAGES));
});
