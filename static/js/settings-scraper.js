/* Admin Scraper screen: each tab loads its data from /api/admin/scraper/… (the reader's proxy to
   the daemon). A 503 means the daemon is offline: the page says so and offers to try again. */
"use strict";

(function () {
  const DATA = JSON.parse(document.getElementById("page-data").textContent);
  const panel = document.getElementById("sc-panel");
  const offline = document.getElementById("sc-offline");
  const BASE = "api/admin/scraper/";
  let timer = null;

  const call = (path, body) => api(BASE + path, body);
  const fill = (format, values) => interpolate(format, values, true);
  // The job and daemon states (scraper/queue.py, scraper/daemon.py) by name: the data keeps the key.
  const STATES = { active: gettext("active"), queued: gettext("queued"), running: gettext("running"), done: gettext("done"),
    failed: gettext("failed"), cancelled: gettext("cancelled"), idle: gettext("idle"), paused: gettext("paused"),
    stopping: gettext("stopping"), "waiting-library": gettext("waiting-library") };
  const stateName = (state) => STATES[state] || state;
  const onOff = (on) => (on ? gettext("on") : gettext("off"));
  const when = (ms) => (ms ? formatDate(ms, true) : "—");
  const table = (head, rows) => h("table", { className: "sc-table" },
    h("thead", null, h("tr", null, head.map((t) => h("th", null, t)))),
    h("tbody", null, rows.length ? rows : h("tr", null, h("td", { colspan: head.length, className: "muted" }, gettext("Nothing here.")))));

  function show(...nodes) {
    // A refresh keeps the focus and the caret in a list's search box.
    const active = document.activeElement;
    const keep = active && active.dataset ? active.dataset.keep : null;
    const caret = keep ? [active.selectionStart, active.selectionEnd] : null;
    panel.replaceChildren(...nodes);
    const again = keep && panel.querySelector(`[data-keep="${keep}"]`);
    if (again) {
      again.focus();
      again.setSelectionRange(...caret);
    }
  }

  const jobTitle = (j) => [j.kind, j.source, j.series].filter(Boolean).join(" ");
  const jobText = (j) => [j.kind, j.source, j.series, j.manga, j.title, j.error].filter(Boolean).join(" ");
  const retryJob = { key: "retry", label: gettext("Retry selected…"),
    ask: (n) => fill(ngettext("Retry %(n)s job?", "Retry %(n)s jobs?", n), { n }), yes: (n) => fill(gettext("Yes, retry %(n)s"), { n }),
    done: (n) => fill(ngettext("%(n)s job queued again", "%(n)s jobs queued again", n), { n }),
    applies: (j) => j.state === "failed" || j.state === "cancelled" || failedChapters(j) > 0, run: (j) => call(`jobs/${j.id}/retry`, {}) };
  const cancelJob = { key: "cancel", label: gettext("Cancel selected…"), danger: true,
    ask: (n) => fill(ngettext("Cancel %(n)s job?", "Cancel %(n)s jobs?", n), { n }), yes: (n) => fill(gettext("Yes, cancel %(n)s"), { n }),
    done: (n) => fill(ngettext("%(n)s job cancelled", "%(n)s jobs cancelled", n), { n }),
    applies: (j) => j.state === "queued" || j.state === "running", run: (j) => call(`jobs/${j.id}/cancel`, {}) };

  async function guarded(fn) {
    try {
      await fn();
      offline.hidden = true;
      return true;
    } catch (error) {
      if (error.status === 503) {
        offline.hidden = false;
        show(h("p", { className: "muted" }, gettext("Nothing to show while the scraper is offline.")));
        if (DATA.tab === "queue") timer = setTimeout(render, 5000);
      } else {
        toast(error.message, "error");
      }
      return false;
    }
  }

  async function act(path, body, message, rerender = true) {
    return guarded(async () => {
      await call(path, body || {});
      if (message) toast(message);
      if (rerender) await render();
    });
  }

  // Queue: live status, jobs with retry / cancel / reorder.

  function statusLine(status) {
    const parts = [h("strong", null, stateName(status.state)),
      ` · ${fill(gettext("revision %(revision)s · %(queued)s queued"), { revision: status.revision, queued: status.queued })}`];
    if (status.job) {
      const p = status.progress || {};
      parts.push(h("span", { className: "sc-now" }, ` · ${status.job.kind} ${status.job.source} ${status.job.series || ""}`,
        p.pages ? ` · ${fill(gettext("chapter %(number)s: page %(page)s of %(pages)s"), { number: p.number || "?", page: p.page, pages: p.pages })}` : ""));
      if (p.pages) parts.push(h("progress", { max: p.pages, value: p.page }));
    }
    const waiting = status.waiting;
    if (waiting) parts.push(h("span", { className: "muted" }, " · " + (waiting.until
      ? fill(gettext("waiting: %(reason)s until %(date)s"), { reason: waiting.reason, date: formatDate(waiting.until, true) })
      : fill(gettext("waiting: %(reason)s"), { reason: waiting.reason }))));
    if (status.libraryProblem) parts.push(h("div", { className: "error", id: "sc-library" }, fill(gettext(
      "Waiting for the library: %(problem)s (no job runs meanwhile; the scraper looks again every %(seconds)s s)"),
      { problem: status.libraryProblem, seconds: status.libraryRetrySeconds })));
    const toggle = status.paused
      ? h("button", { type: "button", className: "primary", onclick: () => act("resume", {}, gettext("Resumed")) }, pgettext("scraper", "Resume"))
      : h("button", { type: "button", onclick: () => act("pause", {}, gettext("Paused at a page boundary")) }, pgettext("scraper", "Pause"));
    return h("div", { className: "sc-status" }, h("div", null, parts), toggle);
  }

  function jobRow(job, index, count) {
    const actions = [];
    if (job.state === "queued") {
      if (index > 0) actions.push(h("button", { type: "button", title: gettext("Move to the top"), onclick: () => act(`jobs/${job.id}/move`, { to: "top" }) }, "⤒"));
      if (index > 0) actions.push(h("button", { type: "button", title: gettext("Move up"), onclick: () => act(`jobs/${job.id}/move`, { to: "up" }) }, "↑"));
      if (index < count - 1) actions.push(h("button", { type: "button", title: gettext("Move down"), onclick: () => act(`jobs/${job.id}/move`, { to: "down" }) }, "↓"));
    }
    if (job.state === "failed" || job.state === "cancelled") {
      actions.push(h("button", { type: "button", onclick: () => act(`jobs/${job.id}/retry`, {}, gettext("Queued again")) }, gettext("Retry")));
    }
    if (job.state === "queued" || job.state === "running") {
      actions.push(h("button", {
        type: "button", className: "danger",
        onclick: () => {
          if (confirm(fill(gettext("Cancel this %(kind)s job?"), { kind: job.kind }))) act(`jobs/${job.id}/cancel`, {}, gettext("Cancelled"));
        },
      }, gettext("Cancel")));
    }
    const done = job.scope.chapters ? `${job.done.length} / ${job.scope.chapters}` : "";
    // The error goes under the job, the widest column: in a column of its own it got a few
    // characters a line, and the table ran past its column at 1280 px, Cancel cut off.
    return h("tr", { className: `sc-${job.state}` },
      h("td", { className: "sc-job" }, h("span", null, `${job.kind} · ${job.source}`),
        job.series ? h("div", { className: "sc-wrap" }, job.series) : null,
        job.error ? h("div", { className: "sc-wrap error" }, job.error) : null),
      h("td", null, h("span", { className: `sc-state sc-state-${job.state}` }, stateName(job.state)),
        job.notBefore ? h("div", { className: "muted" }, fill(gettext("not before %(date)s"), { date: when(job.notBefore) })) : null),
      h("td", null, done), h("td", null, `${job.attempts}` + (job.stalls ? ` ${fill(gettext("(stalls %(n)s)"), { n: job.stalls })}` : "")),
      h("td", { className: "sc-actions" }, actions));
  }

  async function renderQueue() {
    clearTimeout(timer);
    const [status, list] = await Promise.all([call("status"), call("jobs")]);
    const queued = list.jobs.filter((j) => j.state === "queued");
    const draw = () => show(statusLine(status), operatorList({
      key: "queue", items: list.jobs, id: (j) => j.id, title: jobTitle, text: jobText,
      facets: [{ name: "state", label: gettext("State"), valueLabel: stateName,
        of: (j) => (j.state === "queued" || j.state === "running" ? "active" : j.state) },
      { name: "source", label: gettext("Source"), of: (j) => j.source }],
      start: { state: "active" }, head: [gettext("Job"), gettext("State"), gettext("Chapters"), gettext("Attempts"), ""],
      row: (job) => jobRow(job, queued.indexOf(job), queued.length), actions: [retryJob, cancelJob],
      redraw: draw, refresh: render,
    }));
    draw();
    // The list refreshes every 2 s, except while a confirmation is open (its list must not change).
    timer = setTimeout(function again() {
      if ((operatorLists.queue || {}).confirming) timer = setTimeout(again, 2000);
      else guarded(renderQueue);
    }, 2000);
  }

  // Series: subscriptions with language, auto-update, checks and errors; "update now" and remove.

  async function renderSeries() {
    const [{ series }, { settings }] = await Promise.all([call("series"), call("settings")]);
    seriesOptions = settings.options || {};
    const auto = (on) => ({ key: on ? "on" : "off",
      label: on ? gettext("Auto-update on for selected…") : gettext("Auto-update off for selected…"),
      ask: (n) => fill(on ? ngettext("Turn auto-update on for %(n)s series?", "Turn auto-update on for %(n)s series?", n)
        : ngettext("Turn auto-update off for %(n)s series?", "Turn auto-update off for %(n)s series?", n), { n }),
      yes: (n) => fill(on ? gettext("Yes, turn auto-update on for %(n)s") : gettext("Yes, turn auto-update off for %(n)s"), { n }),
      done: (n) => fill(on ? ngettext("Auto-update on for %(n)s series", "Auto-update on for %(n)s series", n)
        : ngettext("Auto-update off for %(n)s series", "Auto-update off for %(n)s series", n), { n }),
      applies: (s) => s.auto !== on, run: (s) => call(`series/${s.key}`, { auto: on }) });
    const remove = { key: "remove", label: gettext("Remove selected…"), danger: true,
      ask: (n) => fill(ngettext("Stop following %(n)s series?", "Stop following %(n)s series?", n), { n }),
      yes: (n) => fill(gettext("Yes, stop following %(n)s"), { n }),
      done: (n) => fill(ngettext("%(n)s series removed from the scraper; their chapters stay in the library",
        "%(n)s series removed from the scraper; their chapters stay in the library", n), { n }),
      applies: () => true, run: (s) => call(`series/${s.key}/remove`, {}) };
    const draw = () => show(operatorList({
      key: "series", items: series, id: (s) => s.key, title: (s) => `${s.manga} (${s.source})`, text: (s) => `${s.manga} ${s.id}`,
      facets: [{ name: "source", label: gettext("Source"), of: (s) => s.source },
        { name: "auto", label: gettext("Auto-update"), of: (s) => (s.auto ? "on" : "off"), valueLabel: (v) => onOff(v === "on") }],
      head: [gettext("Manga"), gettext("Source"), gettext("Language"), gettext("Auto-update"), gettext("Last check"),
        gettext("Next check"), gettext("Error"), ""],
      row: seriesRow, actions: [remove, auto(true), auto(false)], redraw: draw, refresh: render,
    }));
    draw();
  }

  let seriesOptions = {};

  function seriesRow(s) {
    const lang = h("input", { type: "text", value: s.lang || "", size: 6, maxLength: 16,
      "aria-label": fill(gettext("Language of %(manga)s"), { manga: s.manga }) });
    const saveLang = h("button", { type: "button",
      onclick: () => act(`series/${s.key}`, { lang: lang.value.trim() }, gettext("Language saved")) }, gettext("Save"));
    const remove = h("button", {
      type: "button", className: "danger",
      onclick: () => {
        if (confirm(fill(gettext("Stop following %(manga)s? Its chapters stay in the library."), { manga: s.manga }))) {
          act(`series/${s.key}/remove`, {}, gettext("Removed from the scraper"));
        }
      },
    }, gettext("Remove"));
    return h("tr", { "data-series": s.key },
      h("td", null, s.manga), h("td", null, s.source, h("div", { className: "muted sc-wrap" }, s.id),
        (seriesOptions[s.source] || {}).dataSaver ? h("div", { className: "muted sc-saver" }, gettext("data saver (smaller images)")) : null),
      h("td", null, s.source === "folder" ? "" : h("div", { className: "sc-row sc-lang" }, lang, saveLang)),
      h("td", null, h("label", { className: "sc-check" }, h("input", {
        type: "checkbox", checked: s.auto, "aria-label": fill(gettext("Auto-update %(title)s"), { title: s.manga }),
        onchange: (e) => act(`series/${s.key}`, { auto: e.target.checked },
          e.target.checked ? gettext("Auto-update on") : gettext("Auto-update off")),
      }), onOff(s.auto))),
      h("td", null, when(s.lastCheck)), h("td", null, s.auto ? when(s.nextCheck) : "—"),
      h("td", { className: "sc-wrap error" }, s.error || ""),
      h("td", { className: "sc-actions" },
        h("button", { type: "button", onclick: () => act("jobs", { kind: "update", source: s.source, series: s.id }, gettext("Update queued")) }, gettext("Update now")),
        remove));
  }

  // Sources & search: search a source and add a series (language, auto-update); the folder source takes a path.

  function coverCell(source, result) {
    const cell = h("td", { className: "sc-cover" });
    if (result.cover_url) {
      // The daemon fetches the thumbnail (one request at a time): the page loads images only from the reader.
      coverQueue = coverQueue.then(() => call(`cover?source=${encodeURIComponent(source)}&url=${encodeURIComponent(result.cover_url)}`)
        .then((data) => cell.replaceChildren(h("img", { src: data.image, alt: "", width: 64 })), () => {}));
    }
    return cell;
  }

  let coverQueue = Promise.resolve();

  /** A chapter checkbox's name: "Chapter 12 by Group", "Chapter oneshot". */
  function chapterLabel(c) {
    if (c.number) {
      return c.group ? fill(gettext("Chapter %(number)s by %(group)s"), { number: c.number, group: c.group })
        : fill(gettext("Chapter %(number)s"), { number: c.number });
    }
    return c.group ? fill(gettext("Chapter oneshot by %(group)s"), { group: c.group }) : gettext("Chapter oneshot");
  }

  function resultRow(source, r, subscribed) {
    const langs = r.languages && r.languages.length ? r.languages : [];
    const lang = langs.length
      ? h("select", { "aria-label": fill(gettext("Language for %(title)s"), { title: r.title }) }, langs.map((l) => h("option", { value: l, selected: l === "en" }, l)))
      : null;
    const auto = h("input", { type: "checkbox", checked: true,
      "aria-label": fill(gettext("Auto-update %(title)s"), { title: r.title }) });
    const done = () => h("span", { className: "muted" }, gettext("Subscribed"));
    const actions = h("td", { className: "sc-actions" });
    const picker = h("div", { className: "sc-pick", hidden: true });
    // Two explicit actions: follow the series (all its chapters, and new ones if auto), or
    // download only the chapters ticked below, which does not follow it.
    const add = async () => {
      if (await act("series", { source, id: r.id, ...(lang ? { lang: lang.value } : {}), auto: auto.checked },
        fill(gettext("Following %(title)s"), { title: r.title }), false)) {
        actions.replaceChildren(done());
        picker.hidden = true;
      }
    };
    const pick = () => guarded(async () => {
      picker.hidden = false;
      picker.replaceChildren(h("p", { className: "muted" }, gettext("Listing chapters…")));
      const chosen = lang ? lang.value : "";
      const { chapters } = await call(`chapters?source=${encodeURIComponent(source)}&series=${encodeURIComponent(r.id)}` +
        (chosen ? `&lang=${encodeURIComponent(chosen)}` : ""));
      const boxes = chapters.map((c) => ({ c, box: h("input", { type: "checkbox", value: c.id, disabled: Boolean(c.skip),
        "aria-label": chapterLabel(c) }) }));
      const queue = () => {
        const ids = boxes.filter((b) => b.box.checked).map((b) => b.c.id);
        if (!ids.length) return toast(gettext("Tick the chapters to download first."), "error");
        act("jobs", { kind: "chapters", source, series: r.id, chapters: ids, ...(chosen ? { lang: chosen } : {}) },
          fill(ngettext("%(n)s chapter of %(title)s queued; the series is not followed",
            "%(n)s chapters of %(title)s queued; the series is not followed", ids.length), { n: ids.length, title: r.title }), false);
      };
      picker.replaceChildren(
        chapters.length ? h("ul", { className: "sc-chapters" }, boxes.map(({ c, box }) => h("li", null, h("label", { className: "sc-check" }, box,
          [c.volume ? fill(gettext("Vol. %(volume)s"), { volume: c.volume }) : "",
            c.number ? fill(gettext("Ch. %(number)s"), { number: c.number }) : gettext("Oneshot"),
            c.title, c.group ? `[${c.group}]` : ""].filter(Boolean).join(" ")),
          c.skip ? h("span", { className: "muted" }, ` (${c.skip})`) : null)))
          : h("p", { className: "muted" }, gettext("No chapters in this language.")),
        h("button", { type: "button", className: "primary", onclick: queue, disabled: !chapters.length }, gettext("Download selected chapters")));
    });
    if (subscribed) actions.append(done());
    else actions.append(...[lang, h("label", { className: "sc-check" }, auto, gettext("auto")),
      h("button", { type: "button", className: "primary", onclick: add }, gettext("Follow series")),
      h("button", { type: "button", onclick: pick }, gettext("Choose chapters…"))].filter(Boolean));
    return h("tr", { "data-id": r.id },
      coverCell(source, r),
      h("td", null, h("strong", null, r.title), h("div", { className: "muted sc-wrap" }, r.id), picker),
      h("td", null, r.year ? String(r.year) : ""), h("td", null, r.status || ""),
      h("td", null, langs.join(", ")), actions);
  }

  async function renderSources() {
    // The daemon imports the folders, so its SCRAPER_IMPORT_ROOTS are the ones that count.
    const { sources, importRoots, libraryProblem } = await call("sources");
    const select = h("select", { name: "source", "aria-label": gettext("Source") },
      sources.map((s) => h("option", { value: s.key, selected: s.key === "mangadex" }, s.name)));
    const query = h("input", { type: "search", name: "q", placeholder: gettext("Title"), "aria-label": gettext("Search") });
    const results = h("div", { className: "sc-results" });
    const search = async (event) => {
      event.preventDefault();
      results.replaceChildren(h("p", { className: "muted" }, gettext("Searching…")));
      const searched = await guarded(async () => {
        const source = select.value;
        const [data, { series }, { jobs }] = await Promise.all([
          call(`search?source=${encodeURIComponent(source)}&q=${encodeURIComponent(query.value)}`), call("series"), call("jobs")]);
        // Subscribed: a followed series of this source (auto-update on), or one whose "add" job has
        // not finished yet. A series only some chapters were downloaded of can still be followed.
        const adding = jobs.filter((j) => j.kind === "add" && j.source === source && ["queued", "running"].includes(j.state));
        const subscribed = new Set([...series.filter((s) => s.source === source && s.auto), ...adding.map((j) => ({ id: j.series }))].map((s) => s.id));
        results.replaceChildren(table([gettext("Cover"), gettext("Title"), gettext("Year"), gettext("Status"), gettext("Languages"), ""],
          data.results.map((r) => resultRow(source, r, subscribed.has(r.id)))));
      });
      // A failed search must not leave "Searching…" up (the toast says why; offline replaces the panel).
      if (!searched) results.replaceChildren(h("p", { className: "error" }, gettext("The search failed; try again.")));
    };
    const path = h("input", { type: "text", name: "path", placeholder: "/srv/import/Some Manga", "aria-label": gettext("Folder path") });
    const folder = sources.some((s) => s.key === "folder") ? h("form", { className: "card sc-form", onsubmit: (e) => {
      e.preventDefault();
      act("series", { source: "folder", id: path.value.replace(/^\s+/, "") }, gettext("Import queued"), false);
    } }, h("h2", null, gettext("Import a folder on the server")),
      h("p", { className: "muted" }, importRoots.length ? fill(gettext("Allowed under: %(roots)s"), { roots: importRoots.join(", ") })
        : gettext("Folder imports are off: set SCRAPER_IMPORT_ROOTS for the scraper (runscraper) and restart it.")),
      libraryProblem ? h("p", { className: "error", id: "sc-import-blocked" },
        fill(gettext("Folder imports are off: %(problem)s (an import writes its chapters into the library)."), { problem: libraryProblem })) : null,
      h("label", null, gettext("Path (a folder of images, of chapter folders, or of CBZ/ZIP files)"), path),
      h("button", { className: "primary", disabled: !importRoots.length || Boolean(libraryProblem) }, gettext("Import"))) : null;
    // The link sits inside the sentence: its place is the translation's %(link)s.
    const [beforeLink, afterLink] = gettext("To follow the series your MangaDex account follows, connect it on %(link)s.").split("%(link)s");
    const account = sources.some((s) => s.key === "mangadex") ? h("p", { className: "muted", id: "sc-md-account" },
      beforeLink, h("a", { href: ROOT + "settings/user/mangadex/" }, gettext("Settings → MangaDex")), afterLink) : null;
    show(h("form", { className: "card sc-form", onsubmit: search }, h("h2", null, gettext("Search a source")),
      h("div", { className: "sc-row" }, select, query, h("button", { className: "primary" }, gettext("Search"))), account), results, folder);
  }

  // Schedule & pacing.

  async function renderSchedule() {
    const [{ settings }, { sources }] = await Promise.all([call("settings"), call("sources")]);
    const enabled = h("input", { type: "checkbox", name: "enabled", checked: settings.updates.enabled });
    const at = h("input", { type: "time", name: "at", value: settings.updates.at, required: true });
    const paces = sources.filter((s) => s.transport === "http").map((s) => ({
      key: s.key, input: h("input", { type: "number", min: s.pace, max: 3600, step: 0.1, value: s.interval }), source: s,
    }));
    // A source's own switches (MangaDex: data saver), one checkbox each.
    const switches = sources.flatMap((s) => Object.entries(s.options || {}).map(([name, label]) => ({
      key: s.key, name, label, input: h("input", { type: "checkbox", name: `${s.key}.${name}`,
        checked: Boolean(((settings.options || {})[s.key] || {})[name]) }) })));
    const save = (event) => {
      event.preventDefault();
      const pace = Object.fromEntries(paces.map((p) => [p.key, Number(p.input.value)]));
      const options = {};
      switches.forEach((o) => { (options[o.key] = options[o.key] || {})[o.name] = o.input.checked; });
      act("settings", { updates: { enabled: enabled.checked, at: at.value }, pace, options }, gettext("Saved"));
    };
    show(h("form", { className: "card sc-form", onsubmit: save },
      h("h2", null, gettext("Nightly updates")),
      h("label", { className: "sc-check" }, enabled, gettext("Check subscribed series with auto-update every night")),
      h("label", null, gettext("At (server time)"), at),
      h("p", { className: "muted" }, fill(gettext("Last run: %(date)s"), { date: when(settings.updates.lastRun) })),
      h("h2", null, gettext("Pacing (seconds between requests)")),
      paces.length ? paces.map((p) => h("label", null,
        fill(gettext("%(name)s (at least %(pace)s s)"), { name: p.source.name, pace: p.source.pace }), p.input))
        : h("p", { className: "muted" }, gettext("No network sources are installed.")),
      switches.length ? [h("h2", null, gettext("Source options")),
        switches.map((o) => h("label", { className: "sc-check" }, o.input, o.label))] : null,
      h("div", { className: "sc-row" }, h("button", { className: "primary" }, gettext("Save")),
        h("button", { type: "button", onclick: () => act("jobs", { kind: "discover" }, gettext("Update run queued")) }, gettext("Run updates now")))));
  }

  // History: published chapters, failures, and what jobs skipped (warnings).

  /** Chapters a done job left failed on their own (queue.json's `failed`): "Retry" tries them again. */
  function failedChapters(job) {
    return job.state === "done" && job.failed ? Object.keys(job.failed).length : 0;
  }

  async function renderHistory() {
    const { published, failed, warnings = [] } = await call("history");
    const draw = () => show(h("h2", null, gettext("Failures")), operatorList({
      key: "history", items: failed, id: (j) => j.id, title: jobTitle, text: jobText,
      facets: [{ name: "state", label: gettext("State"), of: (j) => j.state, valueLabel: stateName },
        { name: "source", label: gettext("Source"), of: (j) => j.source }],
      head: [gettext("Kind"), gettext("Source"), gettext("Series"), gettext("State"), gettext("Error"), gettext("When"), ""],
      row: (j) => h("tr", null,
        h("td", null, j.kind), h("td", null, j.source), h("td", { className: "sc-wrap" }, j.series || ""), h("td", null, stateName(j.state)),
        h("td", { className: "sc-wrap error" }, j.error || ""), h("td", null, when(j.updated)),
        h("td", null, j.state === "failed" || failedChapters(j) > 0 ? h("button", { type: "button", onclick: () => act(`jobs/${j.id}/retry`, {}, gettext("Queued again")) },
          j.state === "failed" ? gettext("Retry")
            : fill(ngettext("Retry %(n)s failed chapter", "Retry %(n)s failed chapters", failedChapters(j)), { n: failedChapters(j) })) : null)),
      actions: [retryJob], redraw: draw, refresh: render,
    }), rest);
    const rest = h("div", null, h("h2", null, gettext("Published")),
      table([gettext("Revision"), gettext("Manga"), gettext("Chapter folder"), gettext("When")], published.map((p) => h("tr", null,
      h("td", null, String(p.rev)), h("td", null, p.manga), h("td", { className: "sc-wrap" }, p.chapter || ""), h("td", null, when(p.t))))),
    h("h2", null, gettext("Warnings")),
    table([gettext("Kind"), gettext("Source"), gettext("Series"), gettext("Skipped"), gettext("When")], warnings.map((j) => h("tr", null,
      h("td", null, j.kind), h("td", null, j.source), h("td", { className: "sc-wrap" }, j.series || ""),
      h("td", { className: "sc-wrap" }, j.warnings.map((w) => h("div", null, w))), h("td", null, when(j.updated))))));
    draw();
  }

  const TABS = { queue: renderQueue, series: renderSeries, sources: renderSources, schedule: renderSchedule, history: renderHistory };

  function render() {
    clearTimeout(timer);
    return guarded(TABS[DATA.tab]);
  }

  document.getElementById("sc-retry").addEventListener("click", render);
  render();
})();
