/* Offline reading on every page (docs/offline.md): registers the service worker, remembers who is
 * signed in, sends the writes queued offline (on load and when the connection returns; the worker
 * does it on Background Sync), drops kept chapters that the server no longer shows this user,
 * forgets everything kept at sign-out, and says when the browser is offline.
 */
(function () {
  "use strict";
  const O = window.MCOffline;
  if (!O || !("serviceWorker" in navigator) || !window.caches || !window.indexedDB) return;
  const user = document.body.dataset.user || "";
  const CHECK_EVERY = 5 * 60 * 1000; // asking for every kept chapter on every page would be a burst
  const CHECKED = "mc.offline.checked";
  const RETRY_MS = 5000; // while writes wait in the queue: a request that fails at once when offline
  const copy = "offlineCopy" in document.body.dataset; // served by the worker without the network

  navigator.serviceWorker.register(ROOT + "sw.js", { scope: ROOT }).catch(() => null);

  /** Queue a POST made while offline (the key replaces an older one), to be sent on return:
      by a timer here and by the worker's Background Sync, or `quietly`, at the next page load. */
  O.later = async (key, path, body, quietly) => {
    if (!user) return;
    await O.queue(user, key, path, body);
    if (quietly) return; // the caller tries again itself; the queue covers a page left before that
    keepTrying();
    const registration = await navigator.serviceWorker.ready;
    if (registration.sync) registration.sync.register("mc-queue").catch(() => null);
  };
  O.sent = (key) => (user ? O.unqueue(user, key).catch(() => null) : Promise.resolve());
  O.user = user;
  /** Whether a write should go to the queue rather than to the server. */
  O.offline = () => copy || !navigator.onLine;

  const waiting = async () => (await O.all("queue")).some((q) => q.user === user);

  /** Send the queue every few seconds while it holds something: "online" does not always come. */
  let retry = 0;
  function keepTrying() {
    if (retry) return;
    retry = setTimeout(async () => {
      retry = 0;
      await O.flush(ROOT).catch(() => 0);
      if (await waiting().catch(() => false)) keepTrying();
    }, RETRY_MS);
  }

  /** Ask the server for each kept chapter: one it answers 404 for (a restriction, a chapter gone)
      is removed; one it answers gets its payload refreshed. */
  async function revalidate(force) {
    const last = Number(localStorage.getItem(CHECKED)) || 0;
    if (!force && Date.now() - last < CHECK_EVERY) return;
    localStorage.setItem(CHECKED, String(Date.now()));
    const cache = await caches.open(O.KEPT);
    for (const record of await O.keptOf(user)) {
      const url = ROOT + "api/chapter?" + new URLSearchParams({ m: record.m, c: record.c, peek: "1" });
      let response;
      try {
        response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
      } catch (e) {
        return;
      }
      if (response.status === 404) {
        await O.forgetKept([record]);
        document.dispatchEvent(new CustomEvent("mc:kept"));
      } else if (response.status === 401) {
        return;
      } else if (response.ok) {
        await cache.put(O.stableKey(url), response);
      }
    }
  }

  async function sync(force) {
    if (!user) return;
    await O.flush(ROOT).catch(() => 0);
    if (await waiting().catch(() => false)) keepTrying();
    else await revalidate(force).catch(() => null);
  }

  async function start() {
    if (!user) return;
    const before = await O.currentUser();
    if (before && before !== user) await O.forgetUser(before); // another reader signed in on this browser
    if (before !== user) await O.setUser(user);
    const others = (await O.all("kept")).filter((k) => k.user !== user);
    if (others.length) await O.forgetKept(others);
    await sync(false);
  }

  function showOffline() {
    let banner = document.querySelector(".offline-banner");
    if (!O.offline()) {
      if (banner) banner.remove();
      return;
    }
    if (banner || document.body.classList.contains("reader-body")) return;
    banner = h("p", { className: "offline-banner", role: "status" },
      gettext("You are offline: this is the copy of the page from your last visit. Kept chapters can be read, and your place is sent when the connection returns.") + " ",
      h("a", { href: ROOT + "settings/user/offline/" }, gettext("Kept chapters")));
    const main = document.querySelector("main");
    if (main) main.insertBefore(banner, main.firstChild);
  }

  const logout = document.querySelector('form[action="' + ROOT + 'logout/"]');
  if (logout) {
    logout.addEventListener("submit", (event) => {
      if (logout.dataset.forgotten) return;
      event.preventDefault();
      const go = () => {
        logout.dataset.forgotten = "1";
        logout.submit();
      };
      Promise.race([O.forgetUser(user), new Promise((resolve) => setTimeout(resolve, 3000))]).then(go, go);
    });
  }

  window.addEventListener("online", () => {
    showOffline();
    sync(true);
  });
  window.addEventListener("offline", showOffline);
  showOffline();
  O.ready = start().catch(() => null);
})();
