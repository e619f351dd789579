/* Settings → Notifications, push part: subscribes this browser to Web Push with the server's VAPID
 * key (reader/push_views.py), marks this device in the list, sends test pushes and removes devices.
 * The notifications themselves are shown by the service worker (sw-push.js). */
(function () {
  "use strict";
  const state = document.getElementById("push-state");
  const toggle = document.getElementById("push-on");
  const list = document.getElementById("push-devices");
  if (!state || !list) return;
  const supported = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
  let subscription = null; // this browser's, once known
  let thisId = null;

  /** The device id the server derives from an endpoint: the first 20 hex digits of its SHA-256. */
  async function deviceId(endpoint) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(endpoint));
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 20);
  }

  function keyBytes(base64url) {
    const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  function label() {
    const ua = navigator.userAgent;
    // The device's label is sent to the server and kept as it is, like a name.
    const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" // not shown: a label sent to the server
      : /Chrom(e|ium)\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "A browser"; // not shown: a label sent to the server
    const system = /Android/.test(ua) ? "Android" : /iPhone|iPad/.test(ua) ? "iOS" : /Mac OS X/.test(ua) ? "macOS" // not shown: a label sent to the server
      : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : ""; // not shown: a label sent to the server
    return system ? browser + " on " + system : browser;
  }

  function say(text) { state.replaceChildren(text); }

  async function registration() {
    return (await navigator.serviceWorker.getRegistration(ROOT)) || navigator.serviceWorker.register(ROOT + "sw.js", { scope: ROOT });
  }

  async function turnOn() {
    toggle.disabled = true;
    try {
      if (await Notification.requestPermission() !== "granted") {
        say(gettext("Notifications are blocked for this site: allow them in the browser's site settings first."));
        return;
      }
      const { publicKey } = await api("api/push");
      const reg = await registration();
      await navigator.serviceWorker.ready;
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
      await api("api/push/subscribe", { subscription: sub.toJSON(), label: label() });
      location.reload();
    } catch (error) {
      say(interpolate(gettext("Push notifications could not be turned on: %(error)s."), { error: error.message }, true));
    } finally {
      toggle.disabled = false;
    }
  }

  async function turnOff() {
    toggle.disabled = true;
    try {
      if (thisId && list.querySelector('[data-device="' + thisId + '"]')) await api("api/push/unsubscribe", { id: thisId });
      if (subscription) await subscription.unsubscribe();
      location.reload();
    } catch (error) {
      say(interpolate(gettext("Push notifications could not be turned off: %(error)s."), { error: error.message }, true));
      toggle.disabled = false;
    }
  }

  async function onDevice(event) {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const item = button.closest("[data-device]");
    const id = item.dataset.device;
    button.disabled = true;
    try {
      if (button.dataset.action === "test") {
        const answer = await api("api/push/test", { id });
        toast(interpolate(answer.delivered ? gettext("Test notification sent: %(message)s.") : gettext("The test notification was not sent: %(message)s."),
          { message: answer.message }, true),
          answer.delivered ? "success" : "error");
        if (!answer.delivered && /removed/.test(answer.message)) item.remove();
      } else {
        await api("api/push/unsubscribe", { id });
        if (id === thisId && subscription) await subscription.unsubscribe();
        item.remove();
      }
    } catch (error) {
      toast(error.message, "error");
    } finally {
      button.disabled = false;
    }
  }

  async function start() {
    list.addEventListener("click", onDevice);
    if (!supported) {
      say(gettext("This browser cannot receive push notifications."));
      return;
    }
    if (Notification.permission === "denied") say(gettext("Notifications are blocked for this site in the browser's settings."));
    const reg = await navigator.serviceWorker.getRegistration(ROOT);
    subscription = reg ? await reg.pushManager.getSubscription() : null;
    thisId = subscription ? await deviceId(subscription.endpoint) : null;
    const mine = thisId && list.querySelector('[data-device="' + thisId + '"]');
    if (mine) {
      mine.querySelector(".push-label").append(" " + gettext("(this device)"));
      toggle.replaceChildren(gettext("Turn off for this device"));
      toggle.onclick = turnOff;
    } else {
      toggle.replaceChildren(gettext("Turn on for this device"));
      toggle.onclick = turnOn;
    }
    toggle.hidden = false;
  }

  start().catch((error) => say(interpolate(gettext("Push notifications are not available here: %(error)s."), { error: error.message }, true)));
})();
