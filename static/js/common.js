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
    const error = new Error(gettext("the server cannot be reached"));
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

/* The page's translations come from the catalog script before this one (mangacircus/jsi18n.py);
   should it not load, the page still works, in English. */
if (typeof gettext !== "function") {
  globalThis.gettext = (text) => text;
  globalThis.ngettext = (one, many, n) => (n === 1 ? one : many);
  globalThis.pgettext = (context, text) => text;
  globalThis.interpolate = (format, values, named) => (named
    ? format.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]))
    : format.replace(/%s/g, () => String(values.shift())));
}

/** The page's language, as <html lang> names it ("en", "ja", "pt-br"). */
const LANGUAGE = document.documentElement.lang || "en";

/** A date as every page prints it, in the server's time zone (TZ, on <body data-tz>): in English
    "2026-11-30", or "2026-11-30 14:37" `withTime`, as the server-rendered pages print them; in the
    other languages the language's own numeric date (2026/11/30, 30.11.2026, 30/11/2026). */
function formatDate(ms, withTime) {
  const english = LANGUAGE === "en";
  const options = english
    ? { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }
    : { year: "numeric", month: "2-digit", day: "2-digit", ...(withTime ? { hour: "2-digit", minute: "2-digit" } : {}) };
  const locale = english ? "en-GB" : LANGUAGE;
  let format;
  try {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: document.body.dataset.tz || undefined });
  } catch (error) { // a zone this browser does not know: its own
    format = new Intl.DateTimeFormat(locale, options);
  }
  if (!english) return format.format(new Date(ms));
  const part = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day}` + (withTime ? ` ${part.hour}:${part.minute}` : "");
}

/** A number as the page's language writes it (1,234 · 1 234 · 1.234). */
function formatNumber(n) {
  return new Intl.NumberFormat(LANGUAGE).format(n);
}

/** `n` `unit`s from now (negative: ago) in the page's language, as Intl says it. */
function relative(n, unit, style) {
  return new Intl.RelativeTimeFormat(LANGUAGE, { numeric: "always", style: style || "long" }).format(n, unit);
}

/** A wait as a person says it: "in 40 seconds", "in 15 minutes", "in 5 hours", "in 3 days"; rounded
    up. The server's wording is the same, with the same messages (mangacircus/wording.py). */
function inWords(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const minutes = Math.ceil(s / 60), hours = Math.ceil(s / 3600), days = Math.ceil(s / 86400);
  if (s < 60) return interpolate(ngettext("in %(n)s second", "in %(n)s seconds", s), { n: s }, true);
  if (s < 7200) return interpolate(ngettext("in %(n)s minute", "in %(n)s minutes", minutes), { n: minutes }, true);
  if (s < 172800) return interpolate(ngettext("in %(n)s hour", "in %(n)s hours", hours), { n: hours }, true);
  return interpolate(ngettext("in %(n)s day", "in %(n)s days", days), { n: days }, true);
}

/** "5 min ago", "3 h ago", "2 d ago", else the date; in the other languages Intl's short wording. */
function timeAgo(ms) {
  const minutes = Math.round((Date.now() - ms) / 60000);
  if (minutes < 1) return gettext("just now");
  const ago = (n, unit, short) => (LANGUAGE === "en" ? `${n} ${short} ago` : relative(-n, unit, "short"));
  if (minutes < 60) return ago(minutes, "minute", "min");
  if (minutes < 48 * 60) return ago(Math.round(minutes / 60), "hour", "h");
  if (minutes < 14 * 24 * 60) return ago(Math.round(minutes / 1440), "day", "d");
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
    link.setAttribute("aria-label", interpolate(gettext("Notifications, %(unread_notes)s unread"), { unread_notes: unread }, true));
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
      h("div", { className: "bell-head" }, h("strong", null, gettext("Notifications")),
        data.unread ? h("button", { type: "button", className: "link mark-all", onclick: markAll }, gettext("Mark all read")) : null),
      notes.length ? h("ul", { className: "notes" }, notes.map(item))
        : h("p", { className: "muted" }, gettext("Nothing yet. Follow a manga and new chapters will show up here.")),
      h("a", { className: "all", href: ROOT + "notifications/" }, gettext("All notifications")));
  }

  async function refresh() {
    try { render(await api("api/notifications")); } catch (e) { if (panel) panel.replaceChildren(h("p", { className: "error" }, e.message)); }
  }

  link.addEventListener("click", (e) => {
    e.preventDefault();
    if (panel) { close(); return; }
    panel = box.appendChild(h("div", { className: "bell-panel", role: "dialog", "aria-label": gettext("Notifications") },
      h("p", { className: "muted" }, gettext("Loading…"))));
    link.setAttribute("aria-expanded", "true");
    refresh();
  });
  document.addEventListener("click", (e) => { if (panel && !box.contains(e.target)) close(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && panel) { close(); link.focus(); } });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") api("api/notifications", undefined, { noRedirect: true }).then(render).catch(() => null);
  });
})();
