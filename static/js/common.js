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
 * Resolves to the parsed JSON; rejects with an Error whose .status and .message come from the server.
 */
async function api(path, body, options) {
  const init = { method: body === undefined ? "GET" : "POST", credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.headers["X-CSRFToken"] = document.body.dataset.csrfToken || "";
    init.body = JSON.stringify(body);
  }
  Object.assign(init, options || {});
  const response = await fetch(ROOT + path.replace(/^\//, ""), init);
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
