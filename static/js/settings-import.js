/* Admin Import screen: the dry run of a file on the server, then the import itself, whose new
   accounts' one-time passwords are shown once. */
"use strict";

(function () {
  const form = document.getElementById("import-form");
  const box = document.getElementById("import-plan");
  const LISTS = [["matched", "Matched"], ["created", "Created"], ["not_found", "Not found"], ["not_imported", "Not imported"]];

  function request(apply) {
    const body = { source: form.elements.source.value, path: form.elements.path.value.trim(), apply: apply };
    if (form.elements.into.value.trim()) body.into = form.elements.into.value.trim();
    return body;
  }

  function lists(plan) {
    const c = plan.counts;
    const out = [h("p", { className: "import-counts" }, c.matched + " matched, " + c.created + " created, " +
      c.unchanged + " already so here, " + c.not_found + " not found, " + c.not_imported + " not imported.")];
    for (const [key, heading] of LISTS) {
      if (!plan[key].length) continue;
      const more = c[key] - plan[key].length;
      out.push(h("h3", null, heading + " (" + c[key] + ")"),
        h("ul", { className: "import-list import-" + key }, plan[key].map((item) =>
          h("li", null, item.what, item.target ? " → " + item.target : null, h("span", { className: "muted" }, ": " + item.reason)))),
        more > 0 ? h("p", { className: "muted" }, "… and " + more + " more") : null);
    }
    return out;
  }

  function showPlan(plan, body) {
    const button = h("button", { type: "button", className: "primary", disabled: !plan.changes, onclick: () => run(body) },
      plan.changes ? "Import " + plan.changes + " change(s)" : "Nothing to import");
    box.replaceChildren(h("div", { className: "card" }, h("h2", null, "Dry run: nothing was changed"), ...lists(plan),
      plan.changes ? h("p", { className: "muted" }, "Import takes a backup first.") : h("p", null, "Everything is already here."),
      button));
  }

  function showResult(result) {
    const accounts = result.accounts.map((a) => h("li", null, a.name + " (from " + a.label + "): ", h("code", { className: "secret" }, a.password)));
    box.replaceChildren(h("div", { className: "card" }, h("h2", null, result.backup ? "Imported" : "Nothing was changed"),
      result.backup ? h("p", null, "Backed up first to " + result.backup + ". " + result.accounts.length +
        " new account(s), " + result.written + " position(s), " + result.overrides + " metadata override(s), " +
        result.collections + " collection(s), " + result.readlists + " read list(s), " + result.ratings + " rating(s), " + result.wants + " want-to-read.") : null,
      accounts.length ? h("p", null, "One-time passwords, shown only now: give each to its user.") : null,
      accounts.length ? h("ul", { className: "import-accounts" }, accounts) : null, ...lists(result.plan)));
  }

  async function run(body) {
    try {
      showResult(await api("api/admin/import", Object.assign({}, body, { apply: true })));
      toast("Import done");
    } catch (error) {
      toast(error.message, "error");
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = request(false);
    box.replaceChildren(h("p", { className: "muted" }, "Reading " + body.path + "…"));
    try {
      showPlan(await api("api/admin/import", body), body);
    } catch (error) {
      box.replaceChildren(h("p", { className: "error", role: "alert" }, error.message));
    }
  });
})();
