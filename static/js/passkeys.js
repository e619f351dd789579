/* Passkeys: "Add a passkey" in Settings → Profile, "Sign in with a passkey" on the sign-in page and
   "Use a passkey" at its code step. The server's options (accounts/passkey_api.py) carry binary
   fields as base64url; navigator.credentials wants ArrayBuffers, and answers with them. */
"use strict";

(function () {
  /** base64url text → ArrayBuffer. */
  function toBuffer(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  /** ArrayBuffer → base64url text, without padding. */
  function toText(buffer) {
    let binary = "";
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function withBuffers(list) {
    return (list || []).map((item) => Object.assign({}, item, { id: toBuffer(item.id) }));
  }

  function creationOptions(options) {
    return Object.assign({}, options, {
      challenge: toBuffer(options.challenge),
      user: Object.assign({}, options.user, { id: toBuffer(options.user.id) }),
      excludeCredentials: withBuffers(options.excludeCredentials),
    });
  }

  function requestOptions(options) {
    return Object.assign({}, options, {
      challenge: toBuffer(options.challenge),
      allowCredentials: withBuffers(options.allowCredentials),
    });
  }

  /** A PublicKeyCredential as the JSON py_webauthn reads. */
  function credentialJSON(credential) {
    const response = {};
    for (const key of ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]) {
      if (credential.response[key]) response[key] = toText(credential.response[key]);
    }
    if (credential.response.getTransports) response.transports = credential.response.getTransports();
    return {
      id: credential.id, rawId: toText(credential.rawId), type: credential.type, response: response,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: credential.getClientExtensionResults ? credential.getClientExtensionResults() : {},
    };
  }

  /** The block's error line, made when first needed (an empty one would still match `.error`). */
  function errorBox(block) {
    return block.querySelector(".error") || block.appendChild(h("p", { className: "error", role: "alert" }));
  }

  function hideError(block) {
    const box = block.querySelector(".error");
    if (box) box.remove();
  }

  function showError(box, error) {
    const message = error && error.name === "NotAllowedError"
      ? gettext("the passkey was not used (cancelled, or none of yours is on this device)")
      : (error && error.message) || String(error);
    box.textContent = message.charAt(0).toUpperCase() + message.slice(1);
  }

  function unsupported(block) {
    if (window.PublicKeyCredential) return false;
    showError(errorBox(block), new Error(gettext("this browser cannot use passkeys here (they need HTTPS, or localhost)")));
    return true;
  }

  async function register(form) {
    hideError(form);
    if (unsupported(form)) return;
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const begun = await api("api/passkeys/register/begin", {});
      const credential = await navigator.credentials.create({ publicKey: creationOptions(begun.options) });
      await api("api/passkeys/register/finish", {
        name: form.querySelector("input[name=passkey-name]").value, credential: credentialJSON(credential),
      });
      location.reload(); // the list, and the server's message, come with the page
    } catch (error) {
      showError(errorBox(form), error);
    } finally {
      button.disabled = false;
    }
  }

  async function signIn(block) {
    hideError(block);
    if (unsupported(block)) return;
    const ticket = block.dataset.ticket;
    const button = block.querySelector("button");
    button.disabled = true;
    try {
      const begun = await api("api/passkeys/login/begin", ticket ? { ticket: ticket } : {}, { noRedirect: true });
      const credential = await navigator.credentials.get({ publicKey: requestOptions(begun.options) });
      const body = { credential: credentialJSON(credential), next: block.dataset.next || "" };
      if (ticket) body.ticket = ticket;
      const done = await api("api/passkeys/login/finish", body, { noRedirect: true });
      location.assign(done.next);
    } catch (error) {
      showError(errorBox(block), error);
      button.disabled = false;
    }
  }

  const form = document.querySelector("[data-passkey-register]");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      register(form);
    });
  }
  const block = document.querySelector("[data-passkey-sign-in]");
  if (block) block.querySelector("button").addEventListener("click", () => signIn(block));
})();
