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
      h("h2", null, "The secret " + name + " presents to this server"),
      h("p", null, "Shown only now: give it to the admin of " + name + ", who enters it as the secret their server presents."),
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
    const names = h("input", { value: Array.isArray(peer.share) ? peer.share.join(", ") : "", placeholder: "Manga folder names, comma-separated", hidden: value !== "list" });
    const select = h("select", { "aria-label": "What " + peer.name + " sees", onchange: () => { names.hidden = select.value !== "list"; } },
      [["none", "Nothing"], ["all", "All manga"], ["list", "Chosen manga"]].map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
    const save = h("button", { type: "button", onclick: () => {
      const share = select.value === "list" ? names.value.split(",").map((s) => s.trim()).filter(Boolean) : select.value;
      act(api(path(peer.name), { share }), "Sharing saved");
    } }, "Save sharing");
    return h("div", { className: "actions-row" }, "Shares: ", select, names, save);
  }

  function row(peer) {
    const result = h("p", { className: "muted", "aria-live": "polite" });
    const test = async () => {
      result.textContent = "Testing…";
      try {
        const answer = await api(path(peer.name, "/test"), {});
        result.textContent = answer.message;
        result.className = answer.ok ? "ok" : "error";
      } catch (error) { result.textContent = error.message; result.className = "error"; }
    };
    const url = h("input", { value: peer.url, "aria-label": "URL of " + peer.name });
    const present = h("input", { placeholder: "New secret to present (empty: keep it)", "aria-label": "New secret " + peer.name + " gets from us", autocomplete: "off" });
    const save = () => {
      const body = { url: url.value };
      if (present.value) body.present = present.value;
      act(api(path(peer.name), body), "Saved");
    };
    return h("article", { className: "card peer" },
      h("h3", null, peer.name, peer.enabled ? "" : " (disabled)"),
      h("div", { className: "actions-row" }, url, present, h("button", { type: "button", onclick: save }, "Save")),
      shareEditor(peer),
      h("div", { className: "actions-row" },
        h("button", { type: "button", onclick: test }, "Test connection"),
        h("button", { type: "button", onclick: () => showCatalog(peer.name) }, "Browse catalog"),
        h("button", { type: "button", onclick: () => act(api(path(peer.name), { enabled: !peer.enabled }), peer.enabled ? "Disabled" : "Enabled") },
          peer.enabled ? "Disable" : "Enable"),
        h("button", { type: "button", onclick: async () => {
          const answer = await act(api(path(peer.name), { newAccept: true }), "New secret made; the old one no longer works");
          if (answer && answer.accept) showSecret(peer.name, answer.accept);
        } }, "New accepted secret"),
        h("button", { type: "button", className: "danger", onclick: () => {
          if (confirm("Delete " + peer.name + "? Its secret stops working at once.")) act(api(path(peer.name), { delete: true }), "Deleted");
        } }, "Delete")),
      result);
  }

  async function render() {
    const data = await api("api/admin/peers");
    list.replaceChildren(...(data.peers.length ? data.peers.map(row) : [h("p", { className: "muted" }, "No peers yet.")]));
  }

  const LABELS = { missing: "missing here", newer: "newer there", same: "same", different: "different there" };

  async function showCatalog(name) {
    catalogBox.replaceChildren(h("p", { className: "muted" }, "Loading the catalog of " + name + "…"));
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
          versions.push(h("li", null, h("label", null, box, " " + v.path + " · " + v.pageCount + " pages · " + LABELS[v.state])));
        }));
        const label = group(b.extra ? "Extras " + b.key : "Book " + b.key + (b.title ? " " + b.title : ""), bookBoxes);
        mangaBoxes.push(...bookBoxes);
        return h("li", null, label, h("ul", null, versions));
      });
      return h("details", { className: "card" }, h("summary", null, (m.title || m.name) + " · " + LABELS[m.state]),
        group("The whole manga", mangaBoxes), h("ul", null, books));
    });
    const queue = async () => {
      const byManga = {};
      boxes.filter((b) => b.box.checked).forEach((b) => { (byManga[b.manga] = byManga[b.manga] || []).push(name + "/" + b.manga + "/" + b.path); });
      if (!Object.keys(byManga).length) {
        toast("Nothing selected", "error");
        return;
      }
      try {
        for (const [m, chapters] of Object.entries(byManga)) {
          await api("api/admin/scraper/jobs", { kind: "chapters", source: "peer", series: name + "/" + m, chapters });
        }
        toast("Transfer queued: see Settings → Admin → Scraper");
      } catch (error) { toast(error.status === 503 ? "The scraper is offline: start runscraper" : error.message, "error"); }
    };
    catalogBox.replaceChildren(h("h2", null, "Catalog of " + name), ...(manga.length ? manga : [h("p", { className: "muted" }, name + " shares nothing with this server.")]),
      h("button", { type: "button", className: "primary", onclick: queue }, "Copy the selected versions"));
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(form).entries());
    const answer = await act(api("api/admin/peers", body), "Peer added");
    if (answer) { showSecret(answer.peer.name, answer.accept); form.reset(); }
  });
  render().catch((error) => toast(error.message, "error"));
})();
