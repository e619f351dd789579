/* Admin Import screen: the dry run of a file on the server, then the import itself, whose new
   accounts' one-time passwords are shown once. */
"use strict";

(function () {
  const form = document.getElementById("import-form");
  const box = document.getElementById("import-plan");
  const LISTS = [["matched", gettext("Matched")], ["created", gettext("Created")], ["not_found", gettext("Not found")],
    ["not_imported", gettext("Not imported")]];

  function request(apply) {
    const body = { source: form.elements.source.value, path: form.elements.path.value.trim(), apply: apply };
    if (form.elements.into.value.trim()) body.into = form.elements.into.value.trim();
    return body;
  }

  function lists(plan) {
    const c = plan.counts;
    const counts = gettext("%(matched)s matched, %(created)s created, %(unchanged)s already so here, %(not_found)s not found, %(not_imported)s not imported.");
    const out = [h("p", { className: "import-counts" }, interpolate(counts, c, true))];
    for (const [key, heading] of LISTS) {
      if (!plan[key].length) continue;
      const more = c[key] - plan[key].length;
      out.push(h("h3", null, heading + " (" + c[key] + ")"),
        h("ul", { className: "import-list import-" + key }, plan[key].map((item) =>
          h("li", null, item.what, item.target ? " → " + item.target : null, h("span", { className: "muted" }, ": " + item.reason)))),
        more > 0 ? h("p", { className: "muted" }, interpolate(gettext("… and %(more)s more"), { more }, true)) : null);
    }
    return out;
  }

  function showPlan(plan, body) {
    const button = h("button", { type: "button", className: "primary", disabled: !plan.changes, onclick: () => run(body) },
      plan.changes
        ? interpolate(ngettext("Import %(changes)s change(s)", "Import %(changes)s change(s)", plan.changes), { changes: plan.changes }, true)
        : gettext("Nothing to import"));
    box.replaceChildren(h("div", { className: "card" }, h("h2", null, gettext("Dry run: nothing was changed")), ...lists(plan),
      plan.changes ? h("p", { className: "muted" }, gettext("Import takes a backup first.")) : h("p", null, gettext("Everything is already here.")),
      button));
  }

  function showResult(result) {
    const accounts = result.accounts.map((a) => h("li", null,
      interpolate(gettext("%(name)s (from %(label)s):"), { name: a.name, label: a.label }, true) + " ", h("code", { className: "secret" }, a.password)));
    box.replaceChildren(h("div", { className: "card" }, h("h2", null, result.backup ? gettext("Imported") : gettext("Nothing was changed")),
      result.backup ? h("p", null, interpolate(gettext("Backed up first to %(backup)s. %(accounts)s new account(s), %(written)s position(s), %(overrides)s metadata override(s), %(collections)s collection(s), %(readlists)s read list(s), %(ratings)s rating(s), %(wants)s want-to-read."),
        Object.assign({}, result, { accounts: result.accounts.length }), true)) : null,
      accounts.length ? h("p", null, gettext("One-time passwords, shown only now: give each to its user.")) : null,
      accounts.length ? h("ul", { className: "import-accounts" }, accounts) : null, ...lists(result.plan)));
  }

  async function run(body) {
    try {
      showResult(await api("api/admin/import", Object.assign({}, body, { apply: true })));
      toast(gettext("Import done"));
    } catch (error) {
      toast(error.message, "error");
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = request(false);
    box.replaceChildren(h("p", { className: "muted" }, interpolate(gettext("Reading %(path)s…"), { path: body.path }, true)));
    try {
      showPlan(await api("api/admin/import", body), body);
    } catch (error) {
      box.replaceChildren(h("p", { className: "error", role: "alert" }, error.message));
    }
  });
})();
