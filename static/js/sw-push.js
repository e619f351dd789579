/* Web Push (docs/offline.md, "Web Push"), imported by sw.js: a push from reader/webpush.py, JSON
 * {title, body, url, tag} decrypted by the browser, becomes a notification, and a click on it opens
 * `url`, relative to the app's root (the worker's scope), in a window of the app when one is open. */
"use strict";

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch (e) {
    message = {};
  }
  event.waitUntil(self.registration.showNotification(message.title || "MangaCircus", {
    body: message.body || "",
    tag: message.tag || undefined,
    icon: (self.MC_WORKER.shell || []).find((url) => /\/icon-192[.\w]*\.png$/.test(url)),
    data: { url: message.url || "" },
  }));
});

/** Where a notification leads: its URL under the app's root, never outside it. */
function pushTarget(notification) {
  const scope = self.registration.scope;
  const url = new URL((notification.data && notification.data.url) || "", scope).href;
  return url.startsWith(scope) ? url : scope;
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = pushTarget(event.notification);
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const open = windows.find((client) => client.url === url);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
