/* Settings → User → MangaDex: connect one's own MangaDex account, import read markers, and (admins)
   follow series from one's MangaDex follows. Everything goes through /api/mangadex/… (the reader),
   which asks the scraper daemon; the password is posted once and the form is cleared. */
"use strict";

(function () {
  const DATA = JSON.parse(document.getElementById("page-data").textContent);
  const $ = (id) => document.getElementById(id);
  const form = $("md-connect");
  const statusLine = $("md-status");

  async function refresh() {
    try {
      const { account } = await api("api/mangadex/account");
      show(account);
    } catch (error) {
      statusLine.textContent = error.status === 503
        ? gettext("The scraper is offline: MangaDex accounts cannot be used now.") : error.message;
    }
  }

  function show(account) {
    const reconnect = account.connected && account.state !== "connected";
    form.hidden = account.connected && !reconnect;
    $("md-connected").hidden = !account.connected || reconnect;
    if ($("md-follows-card")) $("md-follows-card").hidden = !account.connected || reconnect;
    if (!account.connected) {
      statusLine.textContent = account.error
        ? interpolate(gettext("Not connected: %(error)s"), { error: account.error }, true) : gettext("Not connected.");
    } else if (reconnect) {
      statusLine.replaceChildren(h("strong", { className: "error" }, gettext("Reconnect needed: ")),
        interpolate(gettext("%(error)s. Enter the password again to connect %(username)s."),
          { error: account.error || gettext("MangaDex no longer accepts the connection"), username: account.username }, true));
      form.elements.clientId.value = account.clientId || "";
      form.elements.username.value = account.username || "";
    } else {
      statusLine.textContent = interpolate(gettext("Connected as %(username)s since %(date)s."),
        { username: account.username, date: formatDate(account.since, true) }, true);
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.fromEntries(["clientId", "clientSecret", "username", "password"].map((n) => [n, form.elements[n].value]));
    form.elements.password.value = "";
    try {
      const { account } = await api("api/mangadex/account", body);
      form.elements.clientSecret.value = "";
      toast(gettext("MangaDex account connected"));
      show(account);
    } catch (error) {
      toast(error.message, "error");
    }
  });

  $("md-disconnect").addEventListener("click", async () => {
    if (!confirm(gettext("Disconnect your MangaDex account? Its token is deleted here."))) return;
    try {
      await api("api/mangadex/account/disconnect", {});
      toast(gettext("Disconnected"));
      refresh();
    } catch (error) {
      toast(error.message, "error");
    }
  });

  $("md-import").addEventListener("click", async () => {
    const out = $("md-imported");
    out.textContent = gettext("Importing…");
    try {
      const r = await api("api/mangadex/read-markers", {});
      const counts = { read: r.read, marked: r.marked, already: r.already, missing: r.notHere };
      out.textContent = interpolate(r.notHere
        ? gettext("%(read)s chapters read on MangaDex: %(marked)s marked read here, %(already)s already read, %(missing)s not in the library (yet): import again once they are downloaded.")
        : gettext("%(read)s chapters read on MangaDex: %(marked)s marked read here, %(already)s already read."), counts, true);
    } catch (error) {
      out.textContent = "";
      toast(error.message, "error");
      refresh();
    }
  });

  // Admins: the follows list, a checkbox per series, "Follow selected".
  const load = $("md-load");
  if (load) load.addEventListener("click", async () => {
    const box = $("md-follows");
    box.replaceChildren(h("p", { className: "muted" }, gettext("Asking MangaDex…")));
    try {
      const { follows } = await api("api/mangadex/follows");
      const rows = follows.map((f) => ({ f, check: h("input", { type: "checkbox", value: f.id, disabled: f.followed,
        "aria-label": interpolate(gettext("Follow %(title)s"), { title: f.title }, true) }) }));
      const follow = async () => {
        const chosen = rows.filter((r) => r.check.checked);
        if (!chosen.length) return toast(gettext("Tick the series to follow first."), "error");
        let done = 0;
        for (const { f, check } of chosen) {
          const lang = f.languages.includes("en") || !f.languages.length ? "en" : f.languages[0];
          try {
            await api("api/admin/scraper/series", { source: "mangadex", id: f.id, lang, auto: true });
            check.checked = false;
            check.disabled = true;
            check.closest("tr").querySelector(".md-state").textContent = gettext("Followed");
            done += 1;
          } catch (error) {
            toast(interpolate(gettext("%(title)s: %(error)s"), { title: f.title, error: error.message }, true), "error");
          }
        }
        if (done) {
          toast(interpolate(ngettext("Following %(n)s series; their chapters are being downloaded",
            "Following %(n)s series; their chapters are being downloaded", done), { n: done }, true));
        }
      };
      box.replaceChildren(follows.length ? h("table", { className: "sc-table" },
        h("thead", null, h("tr", null, ["", gettext("Title"), gettext("Year"), gettext("Status"), gettext("Languages"),
          gettext("Here")].map((t) => h("th", null, t)))),
        h("tbody", null, rows.map(({ f, check }) => h("tr", { "data-id": f.id },
          h("td", null, check), h("td", null, h("strong", null, f.title)), h("td", null, f.year ? String(f.year) : ""),
          h("td", null, f.status || ""), h("td", null, f.languages.join(", ")),
          h("td", { className: "md-state muted" }, f.followed ? gettext("Followed") : f.here ? gettext("Some chapters") : "")))))
        : h("p", { className: "muted" }, gettext("You follow nothing on MangaDex.")),
      follows.length ? h("button", { type: "button", className: "primary", onclick: follow }, gettext("Follow selected")) : null);
    } catch (error) {
      box.replaceChildren();
      toast(error.message, "error");
      refresh();
    }
  });

  if (DATA.admin !== undefined) refresh();
})();
