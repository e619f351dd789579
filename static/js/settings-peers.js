/* Admin Peers screen: the peers (edit, disable, share, test, delete) from /api/admin/peers, and a
   peer's catalog next to this library, whose selected versions go to the scraper as a transfer. */
"use strict";

(function () {
  const list = document.getElementById("peer-list");
  const secretBox = document.getElementById("peer-secret");
  const catalogBox = document.getElementById("peer-catalog");
  const form = document.getElementById("peer-add");
  const path = (name, tail) => "api/admin/peers/" + encodeURIComponent(name) + (tail || "");

  function showSecret(name, secret) {
    secretBox.hidden = false;
    secretBox.replaceChildren(
      h("h2", null, interpolate(gettext("The secret %(name)s presents to this server"), { name }, true)),
      h("p", null, interpolate(gettext("Shown only now: give it to the admin of %(name)s, who enters it as the secret their server presents."), { name }, true)),
      h("pre", { className: "secret" }, secret));
  }

  async function act(promise, message) {
    try {
      const answer = await promise;
      if (message) toast(message);
      await render();
      return answer;
    } catch (error) {
      toast(error.message, "error");
      return null;
    }
  }

  function shareEditor(peer) {
    const value = Array.isArray(peer.share) ? "list" : peer.share;
    const names = h("input", { value: Array.isArray(peer.share) ? peer.share.join(", ") : "", placeholder: gettext("Manga folder names, comma-separated"), hidden: value !== "list" });
    const select = h("select", { "aria-label": interpolate(gettext("What %(name)s sees"), { name: peer.name }, true), onchange: () => { names.hidden = select.value !== "list"; } },
      [["none", gettext("Nothing")], ["all", gettext("All manga")], ["list", gettext("Chosen manga")]].map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
    const save = h("button", { type: "button", onclick: () => {
      const share = select.value === "list" ? names.value.split(",").map((s) => s.trim()).filter(Boolean) : select.value;
      act(api(path(peer.name), { share }), gettext("Sharing saved"));
    } }, gettext("Save sharing"));
    return h("div", { className: "actions-row" }, gettext("Shares:") + " ", select, names, save);
  }

  function row(peer) {
    const result = h("p", { className: "muted", "aria-live": "polite" });
    const test = async () => {
      result.textContent = gettext("Testing…");
      try {
        const answer = await api(path(peer.name, "/test"), {});
        result.textContent = answer.message;
        result.className = answer.ok ? "ok" : "error";
      } catch (error) { result.textContent = error.message; result.className = "error"; }
    };
    const url = h("input", { value: peer.url, "aria-label": interpolate(gettext("URL of %(name)s"), { name: peer.name }, true) });
    const present = h("input", { placeholder: gettext("New secret to present (empty: keep it)"),
      "aria-label": interpolate(gettext("New secret %(name)s gets from us"), { name: peer.name }, true), autocomplete: "off" });
    const save = () => {
      const body = { url: url.value };
      if (present.value) body.present = present.value;
      act(api(path(peer.name), body), gettext("Saved"));
    };
    return h("article", { className: "card peer" },
      h("h3", null, peer.name, peer.enabled ? "" : " " + gettext("(disabled)")),
      h("div", { className: "actions-row" }, url, present, h("button", { type: "button", onclick: save }, gettext("Save"))),
      shareEditor(peer),
      h("div", { className: "actions-row" },
        h("button", { type: "button", onclick: test }, gettext("Test connection")),
        h("button", { type: "button", onclick: () => showCatalog(peer.name) }, gettext("Browse catalog")),
        h("button", { type: "button", onclick: () => act(api(path(peer.name), { enabled: !peer.enabled }), peer.enabled ? gettext("Disabled") : gettext("Enabled")) },
          peer.enabled ? gettext("Disable") : gettext("Enable")),
        h("button", { type: "button", onclick: async () => {
          const answer = await act(api(path(peer.name), { newAccept: true }), gettext("New secret made; the old one no longer works"));
          if (answer && answer.accept) showSecret(peer.name, answer.accept);
        } }, gettext("New accepted secret")),
        h("button", { type: "button", className: "danger", onclick: () => {
          if (confirm(interpolate(gettext("Delete %(name)s? Its secret stops working at once."), { name: peer.name }, true))) {
            act(api(path(peer.name), { delete: true }), gettext("Deleted"));
          }
        } }, gettext("Delete"))),
      result);
  }

  async function render() {
    const data = await api("api/admin/peers");
    list.replaceChildren(...(data.peers.length ? data.peers.map(row) : [h("p", { className: "muted" }, gettext("No peers yet."))]));
  }

  const LABELS = { missing: gettext("missing here"), newer: gettext("newer there"), same: gettext("same"), different: gettext("different there") };

  async function showCatalog(name) {
    catalogBox.replaceChildren(h("p", { className: "muted" }, interpolate(gettext("Loading the catalog of %(name)s…"), { name }, true)));
    let data;
    try { data = await api(path(name, "/catalog")); } catch (error) {
      catalogBox.replaceChildren(h("p", { className: "error" }, error.message));
      return;
    }
    const boxes = [];
    // A box for the manga and one per book tick or clear all the versions under them.
    const group = (label, members) => {
      const all = h("input", { type: "checkbox", checked: members.every((b) => b.checked),
        onchange: () => members.forEach((b) => { b.checked = all.checked; }) });
      members.push(all);  // so a manga's box also sets its books' boxes
      return h("label", null, all, " " + label);
    };
    const manga = data.manga.map((m) => {
      const mangaBoxes = [];
      const books = m.books.map((b) => {
        const bookBoxes = [];
        const versions = [];
        b.chapters.forEach((c) => c.versions.forEach((v) => {
          const box = h("input", { type: "checkbox", checked: v.state !== "same" });
          boxes.push({ box, manga: m.name, path: v.path });
          bookBoxes.push(box);
          versions.push(h("li", null, h("label", null, box, " " + interpolate(ngettext("%(path)s · %(pages)s pages · %(state)s", "%(path)s · %(pages)s pages · %(state)s", v.pageCount),
            { path: v.path, pages: v.pageCount, state: LABELS[v.state] }, true))));
        }));
        const label = group(b.extra ? interpolate(gettext("Extras %(key)s"), { key: b.key }, true)
          : interpolate(gettext("Book %(key)s"), { key: b.key }, true) + (b.title ? " " + b.title : ""), bookBoxes);
        mangaBoxes.push(...bookBoxes);
        return h("li", null, label, h("ul", null, versions));
      });
      return h("details", { className: "card" }, h("summary", null, (m.title || m.name) + " · " + LABELS[m.state]),
        group(gettext("The whole manga"), mangaBoxes), h("ul", null, books));
    });
    const queue = async () => {
      const byManga = {};
      boxes.filter((b) => b.box.checked).forEach((b) => { (byManga[b.manga] = byManga[b.manga] || []).push(name + "/" + b.manga + "/" + b.path); });
      if (!Object.keys(byManga).length) {
        toast(gettext("Nothing selected"), "error");
        return;
      }
      try {
        for (const [m, chapters] of Object.entries(byManga)) {
          await api("api/admin/scraper/jobs", { kind: "chapters", source: "peer", series: name + "/" + m, chapters });
        }
        toast(gettext("Transfer queued: see Settings → Admin → Scraper"));
      } catch (error) { toast(error.status === 503 ? gettext("The scraper is offline: start runscraper") : error.message, "error"); }
    };
    catalogBox.replaceChildren(h("h2", null, interpolate(gettext("Catalog of %(name)s"), { name }, true)), ...(manga.length ? manga : [h("p", { className: "muted" }, interpolate(gettext("%(name)s shares nothing with this server."), { name }, true))]),
      h("button", { type: "button", className: "primary", onclick: queue }, gettext("Copy the selected versions")));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(form).entries());
    const answer = await act(api("api/admin/peers", body), gettext("Peer added"));
    if (answer) { showSecret(answer.peer.name, answer.accept); form.reset(); }
  });
  render().catch((error) => toast(error.message, "error"));
})();
