/* Offline reading's storage (docs/offline.md), shared by the pages and the service worker (sw.js
 * loads it with importScripts): cache names, the stable key of a signed URL, and the IndexedDB
 * database "mangacircus-offline":
 *   kept   one record per kept chapter {id, user, m, c, title, label, url, bytes, keys, at}
 *   queue  writes made offline {key, user, n, path, body}, sent in order of n
 *   meta   {key: "user", value}: who is signed in, so the worker never sends another user's writes
 * Nothing here touches the DOM.
 */
(function (scope) {
  "use strict";

  const KEPT = "mc-kept"; // kept chapters: reader page, payload, page images and their thumbnails
  const PAGES = "mc-pages"; // the library, manga and reader pages as last fetched, and cover thumbnails
  const SHELL = "mc-shell"; // scripts, CSS, icons and the offline page (named with the worker's version)
  const DB_NAME = "mangacircus-offline";
  // Signed links (library/links.py) add e and s; the reader adds retry; keeping adds peek.
  const VOLATILE = ["e", "s", "retry", "peek"];

  /** The key a response is kept under: its URL without the parameters that change between
      requests for the same thing, so an expired signed link still finds its page. */
  function stableKey(url) {
    const u = new URL(url, scope.location.href);
    VOLATILE.forEach((name) => u.searchParams.delete(name));
    if (u.pathname.endsWith("/api/chapter")) {
      const keep = new URLSearchParams({ m: u.searchParams.get("m") || "", c: u.searchParams.get("c") || "" });
      u.search = "?" + keep.toString();
    }
    u.hash = "";
    return u.href;
  }

  let opened = null;
  function db() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = () => {
          const d = request.result;
          d.createObjectStore("kept", { keyPath: "id" });
          d.createObjectStore("queue", { keyPath: "key" });
          d.createObjectStore("meta", { keyPath: "key" });
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      opened.catch(() => (opened = null));
    }
    return opened;
  }

  /** Run fn(store) in one transaction; resolves with what fn's request gave, once committed. */
  async function withStore(name, mode, fn) {
    const d = await db();
    return new Promise((resolve, reject) => {
      const tx = d.transaction(name, mode);
      const request = fn(tx.objectStore(name));
      tx.oncomplete = () => resolve(request ? request.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  }

  const all = (name) => withStore(name, "readonly", (s) => s.getAll());
  const put = (name, value) => withStore(name, "readwrite", (s) => s.put(value));
  const remove = (name, key) => withStore(name, "readwrite", (s) => s.delete(key));

  async function currentUser() {
    const entry = await withStore("meta", "readonly", (s) => s.get("user"));
    return entry ? entry.value : "";
  }

  function setUser(user) {
    return put("meta", { key: "user", value: user });
  }

  const keptId = (user, m, c) => [user, m, c].join("\n");

  async function keptOf(user) {
    return (await all("kept")).filter((k) => k.user === user).sort((a, b) => b.at - a.at);
  }

  /** Remove kept chapters (records) and the responses they hold. */
  async function forgetKept(records) {
    const cache = await caches.open(KEPT);
    for (const record of records) {
      await Promise.all(record.keys.map((key) => cache.delete(key)));
      await remove("kept", record.id);
    }
  }

  let order = 0;
  /** Queue a POST for later; a write with the same key replaces the one queued before it. */
  function queue(user, key, path, body) {
    return put("queue", { key: user + "\n" + key, user, n: Date.now() * 1000 + (order++ % 1000), path, body });
  }

  function unqueue(user, key) {
    return remove("queue", user + "\n" + key);
  }

  /**
   * Send the queued writes of the signed-in user, oldest first, from `root`. A write the server
   * answers (even with a refusal: a chapter gone, a clock running elsewhere) leaves the queue; no
   * answer or a server error stops the round, to try again later; 401 stops it too (signed out).
   * Resolves to the number sent.
   */
  let flushing = null;
  function flush(root) {
    if (!flushing) flushing = sendQueued(root).finally(() => (flushing = null));
    return flushing;
  }

  async function sendQueued(root) {
    const user = await currentUser();
    if (!user) return 0;
    const items = (await all("queue")).filter((q) => q.user === user).sort((a, b) => a.n - b.n);
    let sent = 0;
    for (const item of items) {
      let response;
      try {
        response = await fetch(root + item.path, { method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json" }, body: JSON.stringify(item.body) });
      } catch (e) {
        break;
      }
      if (response.status === 401 || response.status >= 500) break;
      await remove("queue", item.key);
      sent++;
    }
    return sent;
  }

  /** Everything of `user`: the kept responses, the pages as last fetched and the queued writes.
      The caches are one browser's, not one user's: every kept record goes with them. */
  async function forgetUser(user) {
    await caches.delete(KEPT);
    await caches.delete(PAGES);
    const d = await db();
    await new Promise((resolve, reject) => {
      const tx = d.transaction(["kept", "queue", "meta"], "readwrite");
      tx.objectStore("kept").clear();
      const queued = tx.objectStore("queue");
      queued.getAll().onsuccess = (e) => e.target.result.forEach((q) => {
        if (q.user === user) queued.delete(q.key);
      });
      tx.objectStore("meta").delete("user");
      tx.oncomplete = resolve;
      tx.onerror = () => reject(tx.error);
    });
  }

  /** "840 KB", "12.3 MB", "1.2 GB". For pages only: the worker, which has no catalog, never asks. */
  function size(bytes) {
    const unit = (format, n) => interpolate(format, { n }, true);
    if (bytes < 1e6) return unit(gettext("%(n)s KB"), Math.max(1, Math.round(bytes / 1e3)));
    if (bytes < 1e9) return unit(gettext("%(n)s MB"), (bytes / 1e6).toFixed(1));
    return unit(gettext("%(n)s GB"), (bytes / 1e9).toFixed(1));
  }

  scope.MCOffline = { KEPT, PAGES, SHELL, stableKey, all, put, remove, currentUser, setUser, keptId, keptOf,
    forgetKept, queue, unqueue, flush, forgetUser, size };
})(self);
