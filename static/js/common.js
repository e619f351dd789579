/* Shared browser helpers: h() builds DOM with data as text, api() talks JSON to the server. */
"use strict";

/**
 * Build an element. Strings become text nodes (never markup), arrays flatten, on* props become
 * listeners, `style` takes an object, everything else goes through setAttribute.
 * @param {string} tag
 * @param {Object} [props]
 * @param {...(Node|string|number|Array|null|false)} children
 */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else if (key === "className") el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  const add = (child) => {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) child.forEach(add);
    else el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  };
  children.forEach(add);
  return el;
}

/** The app's root path (works under a sub-path), always ending in "/". */
const ROOT = document.body.dataset.root || "/";

/**
 * Call the JSON API. GET without a body, POST with one. A 401 sends the user to the login page.
 * Resolves to the parsed JSON; rejects with an Error whose .status and .message come from the server
 * (status 0, "the server cannot be reached", when no answer came).
 */
async function api(path, body, options) {
  const init = { method: body === undefined ? "GET" : "POST", credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.headers["X-CSRFToken"] = document.body.dataset.csrfToken || "";
    init.body = JSON.stringify(body);
  }
  Object.assign(init, options || {});
  let response;
  try {
    response = await fetch(ROOT + path.replace(/^\//, ""), init);
  } catch (cause) { // the browser's "Failed to fetch": no answer at all
    const error = new Error("the server cannot be reached");
    error.status = 0;
    throw error;
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (response.status === 401 && !(options && options.noRedirect)) {
    location.href = ROOT + "login/?next=" + encodeURIComponent(location.pathname + location.search);
  }
  if (!response.ok) {
    const error = new Error((data && data.error) || response.statusText);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** Show a short message at the bottom of the screen. */
function toast(message, kind) {
  let box = document.querySelector(".toasts");
  if (!box) box = document.body.appendChild(h("div", { className: "toasts", role: "status" }));
  const item = box.appendChild(h("div", { className: "toast " + (kind || "") }, message));
  setTimeout(() => item.remove(), 4000);
}

/** The one date format of every page: "2026-11-30", or "2026-11-30 14:37" `withTime`, in the
    server's time zone (TZ, on <body data-tz>), as the server-rendered pages print them. */
function formatDate(ms, withTime) {
  const options = { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  let format;
  try {
    format = new Intl.DateTimeFormat("en-GB", { ...options, timeZone: document.body.dataset.tz || undefined });
  } catch (error) { // a zone this browser does not know: its own
    format = new Intl.DateTimeFormat("en-GB", options);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day}` + (withTime ? ` ${part.hour}:${part.minute}` : "");
}

/** A wait as a person says it: "in 40 seconds", "in 15 minutes", "in 5 hours", "in 3 days"; rounded
    up. The server's wording is the same (mangacircus/wording.py). */
function inWords(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const count = (n, unit) => `in ${n} ${unit}${n === 1 ? "" : "s"}`;
  if (s < 60) return count(s, "second");
  if (s < 7200) return count(Math.ceil(s / 60), "minute");
  if (s < 172800) return count(Math.ceil(s / 3600), "hour");
  return count(Math.ceil(s / 86400), "day");
}

/** "5 min ago", "3 h ago", "2 d ago", else the date. */
function timeAgo(ms) {
  const minutes = Math.round((Date.now() - ms) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return minutes + " min ago";
  if (minutes < 48 * 60) return Math.round(minutes / 60) + " h ago";
  if (minutes < 14 * 24 * 60) return Math.round(minutes / 1440) + " d ago";
  return formatDate(ms);
}

/* The notification bell in the top bar: its link opens the full list without JavaScript; with it,
   a dropdown of GET /api/notifications, where opening an item or "Mark all read" marks them read. */
(function bell() {
  const link = document.querySelector(".bell");
  if (!link) return;
  const box = link.parentElement;
  let panel = null;

  function setCount(unread) {
    const badge = link.querySelector(".badge");
    badge.textContent = unread > 99 ? "99+" : String(unread);
    badge.hidden = !unread;
    link.dataset.unread = unread;
    link.setAttribute("aria-label", "Notifications, " + unread + " unread");
  }

  function close() {
    if (!panel) return;
    panel.remove();
    panel = null;
    link.setAttribute("aria-expanded", "false");
  }

  async function open(note) {
    if (!note.read) await api("api/notifications/read", { id: note.id }).catch(() => null);
    location.href = ROOT + note.url;
  }

  async function markAll() {
    const result = await api("api/notifications/read", { all: true });
    setCount(result.unread);
    refresh();
  }

  function item(note) {
    const text = note.url
      ? h("a", { href: ROOT + note.url, onclick: (e) => { e.preventDefault(); open(note); } }, note.text)
      : h("span", null, note.text);
    return h("li", { className: note.read ? "note" : "note unread" }, text, h("span", { className: "when" }, timeAgo(note.t)));
  }

  function render(data) {
    setCount(data.unread);
    if (!panel) return;
    const notes = data.notifications.slice(0, 30);
    panel.replaceChildren(
      h("div", { className: "bell-head" }, h("strong", null, "Notifications"),
        data.unread ? h("button", { type: "button", className: "link mark-all", onclick: markAll }, "Mark all read") : null),
      notes.length ? h("ul", { className: "notes" }, notes.map(item))
        : h("p", { className: "muted" }, "Nothing yet. Follow a manga and new chapters will show up here."),
      h("a", { className: "all", href: ROOT + "notifications/" }, "All notifications"));
  }

  async function refresh() {
    try { render(await api("api/notifications")); } catch (e) { if (panel) panel.replaceChildren(h("p", { className: "error" }, e.message)); }
  }

  link.addEventListener("click", (e) => {
    e.preventDefault();
    if (panel) { close(); return; }
    panel = box.appendChild(h("div", { className: "bell-panel", role: "dialog", "aria-label": "Notifications" },
      h("p", { className: "muted" }, "Loading…")));
    link.setAttribute("aria-expanded", "true");
    refresh();
  });
  document.addEventListener("click", (e) => { if (panel && !box.contains(e.target)) close(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && panel) { close(); link.focus(); } });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") api("api/notifications", undefined, { noRedirect: true }).then(render).catch(() => null);
  });
})();
