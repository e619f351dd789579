/* The read lists page (make one, import a ComicRack .cbl after a dry run) and a read list's page
   (reorder by drag or with the arrow keys on a chapter's handle, remove one, edit, delete), through
   /api/readlists. */
"use strict";

(function readlists() {
  const made = document.getElementById("readlist-new");
  if (made) {
    made.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const r = await api("api/readlists", { name: made.elements.name.value, shared: made.elements.shared.checked });
        location.href = ROOT + r.url;
      } catch (error) {
        toast(error.message, "error");
      }
    });
  }

  const importer = document.getElementById("readlist-import");
  if (importer) {
    const box = document.getElementById("cbl-plan");
    let text = null;
    const lines = (items, target) => h("ul", null, ...items.map((i) => h("li", null, i.what + " → " + (target ? i.target : i.reason))));
    async function send(apply) {
      try {
        const plan = await api("api/readlists/import", { cbl: text, apply });
        if (plan.readlist) { location.href = ROOT + plan.readlist.url; return; }
        const c = plan.counts;
        const go = h("button", { className: "primary", type: "button", disabled: !c.matched }, c.matched
          ? interpolate(ngettext("Import %(matched)s chapter(s)", "Import %(matched)s chapter(s)", c.matched), { matched: c.matched }, true)
          : gettext("Nothing to import"));
        go.addEventListener("click", () => send(true));
        box.replaceChildren(h("h2", null, plan.name), h("p", { className: "cbl-counts" },
          interpolate(gettext("%(books)s in the file: %(matched)s found here, %(not_found)s not found."), c, true)),
          c.matched ? h("h3", null, gettext("Found")) : "", c.matched ? lines(plan.matched, true) : "",
          c.not_found ? h("h3", null, gettext("Not found")) : "", c.not_found ? h("div", { className: "cbl-missing" }, lines(plan.not_found, false)) : "", go);
        box.hidden = false;
      } catch (error) {
        toast(error.message, "error");
      }
    }
    importer.addEventListener("submit", async (e) => {
      e.preventDefault();
      const file = importer.elements.cbl.files[0];
      if (!file) return;
      text = await file.text();
      send(false);
    });
  }

  const data = document.getElementById("page-data");
  if (!data) return;
  const start = JSON.parse(data.textContent);
  const path = "api/readlists/" + encodeURIComponent(start.id);
  const list = document.getElementById("items");
  const item = (li) => ({ m: li.dataset.m, c: li.dataset.c });

  function shownCount(r) {
    document.getElementById("readlist-count").textContent = interpolate(gettext("%(read)s of %(count)s read"), { read: r.read, count: r.count }, true);
    document.getElementById("items-empty").hidden = r.count > 0;
  }

  async function saveOrder(moved) {
    try {
      shownCount(await api(path, { items: [...list.children].map(item) }));
      if (moved) moved.querySelector(".handle").focus();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  if (start.editable) reorderable(list, saveOrder);

  list.addEventListener("click", async (e) => {
    const button = e.target.closest("button.remove");
    if (!button) return;
    const li = button.closest("li");
    button.disabled = true;
    try {
      shownCount(await api(path + "/remove", { items: [item(li)] }));
      li.remove();
      toast(gettext("Removed."));
    } catch (error) {
      toast(error.message, "error");
      button.disabled = false;
    }
  });

  const form = document.getElementById("readlist-edit");
  if (!form) return;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: form.elements.name.value, summary: form.elements.summary.value };
    if (form.elements.shared) body.shared = form.elements.shared.checked;
    try {
      await api(path, body);
      location.reload();
    } catch (error) {
      toast(error.message, "error");
    }
  });
  document.getElementById("readlist-delete").addEventListener("click", async () => {
    if (!confirm(gettext("Delete this read list? Its chapters stay in the library."))) return;
    try {
      await api(path + "/delete", {});
      location.href = ROOT + "readlists/";
    } catch (error) {
      toast(error.message, "error");
    }
  });
})();
