/* The Scraper screen's lists (Queue, Series, History's failures) as operator lists, like the server-
   rendered Users, Incidents and Backups: search and filters with counts at the side, ticked rows,
   bulk actions that list what they will change and ask first, then a message saying what was done.
   The state of each list (search, filters, ticks, an open confirmation) survives the Queue's refresh. */
"use strict";

const operatorLists = {};

/** A list element. spec: {key, items, id(item), title(item), text(item) to search, facets: [{name,
    label, of(item) -> value, valueLabel(value) -> shown name}], start: {facet: value}, head: [column
    names], row(item) -> <tr>, actions: [{key, label, ask(n), yes(n), done(n), danger, applies(item),
    run(item) -> Promise}], redraw()}. Every text is the caller's, already translated: the question
    and the messages are whole sentences with their count (ngettext). */
function operatorList(spec) {
  const st = operatorLists[spec.key] || (operatorLists[spec.key] = {
    q: "", filters: Object.assign({}, spec.start), selected: new Set(), confirming: null,
  });
  const matches = (item, skip) => (!st.q || spec.text(item).toLowerCase().includes(st.q.toLowerCase())) &&
    spec.facets.every((f) => f.name === skip || !st.filters[f.name] || f.of(item) === st.filters[f.name]);
  const shown = spec.items.filter((item) => matches(item));
  const shownIds = new Set(shown.map(spec.id));
  st.selected.forEach((id) => { if (!shownIds.has(id)) st.selected.delete(id); });
  const selected = shown.filter((item) => st.selected.has(spec.id(item)));

  const side = h("aside", { className: "ops-side" }, h("div", { className: "card sc-facets" },
    h("h2", null, gettext("Filter")),
    h("label", null, gettext("Search"), h("input", {
      type: "search", value: st.q, "data-keep": `${spec.key}-q`, "aria-label": gettext("Search titles"),
      oninput: (e) => { st.q = e.target.value; spec.redraw(); },
    })),
    spec.facets.map((f) => {
      const counts = {};
      spec.items.filter((item) => matches(item, f.name)).forEach((item) => { counts[f.of(item)] = (counts[f.of(item)] || 0) + 1; });
      const all = Object.values(counts).reduce((a, b) => a + b, 0);
      const values = Object.keys(counts).sort();
      if (st.filters[f.name] && !values.includes(st.filters[f.name])) values.push(st.filters[f.name]);
      const choice = (value, label, n) => h("li", null, h("button", {
        type: "button", className: (st.filters[f.name] || "") === value ? "link active" : "link",
        "aria-pressed": String((st.filters[f.name] || "") === value),
        onclick: () => { st.filters[f.name] = value; spec.redraw(); },
      }, `${label} (${n})`));
      const named = (v) => (f.valueLabel ? f.valueLabel(v) : v);
      return [h("h3", null, f.label), h("ul", { className: "sc-filters", "aria-label": f.label },
        choice("", gettext("all"), all), values.map((v) => choice(v, named(v), counts[v] || 0)))];
    })));

  const confirming = spec.actions.find((a) => a.key === st.confirming);
  let top;
  if (confirming) {
    const targets = selected.filter(confirming.applies);
    const n = targets.length;
    const runIt = async () => {
      st.confirming = null;
      let done = 0;
      const failed = [];
      for (const item of targets) {
        try {
          await confirming.run(item);
          done += 1;
        } catch (error) {
          if (error.status === 503) throw error;
          failed.push(interpolate(gettext("%(title)s: %(error)s"), { title: spec.title(item), error: error.message }, true));
        }
      }
      st.selected.clear();
      if (done) toast(confirming.done(done));
      failed.forEach((why) => toast(why, "error"));
      await spec.refresh();
    };
    top = h("div", { className: "card sc-confirm", role: "group", "aria-label": gettext("Confirm") },
      h("h2", null, confirming.ask(n)),
      h("ul", null, targets.map((item) => h("li", null, spec.title(item)))),
      selected.length > n ? h("p", { className: "muted" }, interpolate(ngettext(
        "%(n)s of the selected cannot be changed this way and are left out.",
        "%(n)s of the selected cannot be changed this way and are left out.", selected.length - n), { n: selected.length - n }, true)) : null,
      h("p", { className: "actions-row" },
        h("button", { type: "button", className: confirming.danger ? "danger" : "primary", disabled: !n,
          onclick: () => guardedRun(runIt) }, confirming.yes(n)),
        h("button", { type: "button", onclick: () => { st.confirming = null; spec.redraw(); } }, gettext("No, go back"))));
  } else {
    top = h("p", { className: "actions-row sc-bulk" }, spec.actions.map((a) => h("button", {
      type: "button", className: a.danger ? "danger" : null, disabled: !selected.some(a.applies),
      onclick: () => { st.confirming = a.key; spec.redraw(); },
    }, a.label)));
  }

  // Each box sits in a label a finger's size (.hit in app.css).
  const tick = (item) => h("td", null, h("label", { className: "hit" }, h("input", {
    type: "checkbox", checked: st.selected.has(spec.id(item)),
    "aria-label": interpolate(gettext("Select %(title)s"), { title: spec.title(item) }, true),
    onchange: (e) => { if (e.target.checked) st.selected.add(spec.id(item)); else st.selected.delete(spec.id(item)); spec.redraw(); },
  })));
  const tickAll = h("label", { className: "hit" }, h("input", {
    type: "checkbox", checked: shown.length > 0 && selected.length === shown.length, "aria-label": gettext("Select all shown"),
    onchange: (e) => { shown.forEach((item) => (e.target.checked ? st.selected.add(spec.id(item)) : st.selected.delete(spec.id(item)))); spec.redraw(); },
  }));
  const rows = shown.map((item) => { const tr = spec.row(item); tr.prepend(tick(item)); return tr; });
  const table = h("table", { className: "sc-table" },
    h("thead", null, h("tr", null, h("th", null, tickAll), spec.head.map((t) => h("th", null, t)))),
    h("tbody", null, rows.length ? rows : h("tr", null, h("td", { colspan: spec.head.length + 1, className: "muted" }, gettext("Nothing matches.")))));
  const tally = { shown: shown.length, all: spec.items.length, selected: selected.length };
  const count = h("p", { className: "count" }, interpolate(selected.length
    ? gettext("%(shown)s shown · %(all)s in all · %(selected)s selected") : gettext("%(shown)s shown · %(all)s in all"), tally, true));
  return h("div", { className: "ops" }, h("div", { className: "ops-main" }, top, count, table), side);

  function guardedRun(fn) {
    return fn().catch((error) => { if (error.status === 503) spec.refresh(); else toast(error.message, "error"); });
  }
}
