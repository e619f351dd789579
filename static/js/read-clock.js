/* The Active Reading Clock (docs/reader.md, "Reading clock"), loaded only for users who turned it on.
 *
 * Active time counts only while the reader is visible and focused, a page exposed at least 35 %
 * is decoded, this tab holds the server's 15-second lease, and accepted input (a key, a pointer
 * press, the wheel, a touch) came within the last 50 s. Blur or hiding pauses at once and needs
 * fresh input to resume; every interval is clipped to the input deadline, so a late timer never
 * adds more. A page is verified after 200 ms of cumulative ≥ 35 % exposure while the clock runs,
 * evaluated on every sample and when the page leaves the viewport; a bucket of 5 pages a second
 * refuses implausible coverage without touching the time. Tabs hand over through a
 * BroadcastChannel; pulses go at most every 10 s and on pause or exit (keepalive).
 * Geometry comes from window.mcReader; read-layout.js fires "mc:pages" after each placement.
 * window.mcClock is a small read-only view for tests.
 */
(function () {
  "use strict";
  const R = window.mcReader;
  const root = document.getElementById("reader");
  const data = JSON.parse(document.getElementById("chapter-data").textContent);
  if (!R || !data.settings.readingClock) return;

  const INPUT_WINDOW = 50000;
  const EXPOSED = 0.35;
  const VERIFY_MS = 200;
  const RATE = 5; // verified pages per second: bucket size and refill
  const PULSE_EVERY = 10000;
  const RETRY_MS = 10000;
  const TICK_MS = 100;
  const LEASE_MARGIN = 2000; // renew well before the server lets the lease go
  const LABELS = { running: gettext("reading"), loading: gettext("waiting for the page"),
    paused: gettext("paused: press a key or tap to go on"), idle: gettext("idle: press a key or tap to go on"),
    starting: gettext("starting"), elsewhere: gettext("paused: reading on another device"),
    offline: gettext("paused: the server is not answering"), off: gettext("off") };
  // The input kinds as the panel names them (the server's predominantInput is one of these keys).
  const INPUTS = { mouse: gettext("mouse"), touch: gettext("touch"), keyboard: gettext("keyboard") };

  const session = randomId();
  const device = deviceId();
  const channel = "BroadcastChannel" in window ? new BroadcastChannel("mc-reading-clock") : null;

  let summary = data.clock || {};
  let seen = new Set(); // verified pages of the current pass (the server's and ours)
  let state = "paused";
  let [lastTick, tokenAt] = [performance.now(), performance.now()];
  let [lastInput, inputKind, needInput] = [-Infinity, "mouse", true];
  let [leaseUntil, blockedUntil, blockedAs] = [0, 0, "offline"];
  let [inflight, lastPulse, seq] = [false, 0, 0];
  let queued = null; // a pulse asked for while another is on its way: "pulse" | "release"
  let pend = fresh(); // measured, not yet sent
  let sending = fresh(); // on its way
  const exposure = new Map(); // page → cumulative ms of meaningful exposure
  let exposed = new Set(); // pages at least 35 % exposed at the last sample
  let [tokens, rejected] = [RATE, 0];
  let ours = false; // the server's current pass is this visit's (it has recorded something of ours)

  function fresh() {
    return { active: 0, loading: 0, input: { mouse: 0, touch: 0, keyboard: 0 }, pages: new Set() };
  }

  function randomId() {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  /** One id per browser, so tabs take the lease over from each other without a 409. */
  function deviceId() {
    try {
      let id = localStorage.getItem("mc.clock.device");
      if (!id) localStorage.setItem("mc.clock.device", (id = randomId()));
      return id;
    } catch (e) {
      return session;
    }
  }

  /** The current pass as the server knows it, if this visit continues it (a finished one starts anew). */
  function pass() {
    const p = summary.pass;
    return p && p.version === data.version && (ours || !p.complete) ? p : null;
  }

  function resync() {
    seen = new Set();
    ((pass() || {}).seen || []).forEach(([a, b]) => { for (let i = a; i <= b; i++) seen.add(i); });
    sending.pages.forEach((i) => seen.add(i));
    pend.pages.forEach((i) => seen.add(i));
  }

  // ---- measuring ---------------------------------------------------------------------------------

  /** page → exposure: the share of the page on screen, or of the screen for a page taller than it. */
  function sample() {
    const shares = new Map();
    const vp = R.viewport;
    const sc = R.scroll;
    if (!vp.w || !vp.h) return shares;
    R.boxes.forEach((b) => {
      const w = Math.min(b.x + b.w, sc.x + vp.w) - Math.max(b.x, sc.x);
      const h = Math.min(b.y + b.h, sc.y + vp.h) - Math.max(b.y, sc.y);
      if (w > 0 && h > 0 && b.w > 0 && b.h > 0) shares.set(b.i, Math.max(w * h / (b.w * b.h), w * h / (vp.w * vp.h)));
    });
    return shares;
  }

  function decoded(i) {
    if (R.decoded.indexOf(i) >= 0) return true;
    const img = root.querySelector('.rd-page[data-i="' + i + '"] img');
    return !!img && img.complete && img.naturalWidth > 0;
  }

  /** Verify a page that has had its 200 ms, if the bucket allows; one that leaves without a token is refused. */
  function evaluate(i, leaving, now) {
    if (seen.has(i) || (exposure.get(i) || 0) < VERIFY_MS) return;
    [tokens, tokenAt] = [Math.min(RATE, tokens + (now - tokenAt) * RATE / 1000), now];
    if (tokens >= 1) {
      tokens -= 1;
      seen.add(i);
      pend.pages.add(i);
    } else if (leaving) {
      rejected++; // left before the bucket allowed it: too fast to have been read
      exposure.delete(i);
    }
  }

  /** Account for the interval since the last tick in the state it had, then decide the next state. */
  function tick() {
    const now = performance.now();
    const ms = Math.max(0, Math.min(now, lastInput + INPUT_WINDOW) - lastTick);
    lastTick = now;
    if (state === "running") {
      pend.active += ms;
      pend.input[inputKind] += ms;
    } else if (state === "loading") {
      pend.loading += ms;
    }
    const shares = sample();
    exposed.forEach((i) => {
      if (state === "running") exposure.set(i, (exposure.get(i) || 0) + ms);
      evaluate(i, (shares.get(i) || 0) < EXPOSED, now);
    });
    exposed = new Set();
    shares.forEach((share, i) => { if (share >= EXPOSED) exposed.add(i); });
    decide(now);
  }

  function decide(now) {
    let next;
    if (state === "off") return;
    if (document.visibilityState !== "visible" || !document.hasFocus() || needInput) next = "paused";
    else if (now - lastInput >= INPUT_WINDOW) next = "idle";
    else if (now < blockedUntil) next = blockedAs;
    else if (now >= leaseUntil) next = "starting";
    else if (!Array.from(exposed).some(decoded)) next = "loading";
    else next = "running";
    const was = state;
    state = next;
    const counting = (s) => s === "running" || s === "loading";
    if (next === "starting" && !inflight) send(false);
    if (next === "running" && was !== "running" && channel) channel.postMessage({ running: session });
    if (counting(was) && (next === "paused" || next === "idle")) send(true);
    else if (counting(next) && now - lastPulse >= PULSE_EVERY) send(false);
    render();
  }

  // ---- input and attention ----------------------------------------------------------------------------

  function input(kind) {
    tick(); // close the interval under the old deadline first
    [lastInput, inputKind, needInput] = [performance.now(), kind, false];
    tick();
  }

  function pause() {
    tick(); // the interval up to now still counts
    needInput = true;
    tick();
  }

  // ---- pulses --------------------------------------------------------------------------------------

  function ranges(pages) {
    const out = [];
    Array.from(pages).sort((a, b) => a - b).forEach((i) => {
      const last = out[out.length - 1];
      if (last && i === last[1] + 1) last[1] = i;
      else out.push([i, i]);
    });
    return out;
  }

  function body(batch, release) {
    const input = {};
    for (const k in batch.input) input[k] = Math.round(batch.input[k]);
    return {
      m: data.manga.name, c: data.chapter.id, v: data.version, session, device, seq: ++seq,
      activeMs: Math.round(batch.active), loadingMs: Math.round(batch.loading), input,
      pages: ranges(batch.pages), release,
    };
  }

  function send(release, leaving) {
    if (state === "off") return;
    if (inflight && !leaving) {
      queued = release || queued === "release" ? "release" : "pulse";
      return;
    }
    const batch = pend;
    [pend, lastPulse] = [fresh(), performance.now()];
    if (leaving) {
      const last = body(batch, true);
      // Queued offline (offline.js) and sent on return; the server drops a repeat by session and seq.
      const offline = window.MCOffline && window.MCOffline.later ? window.MCOffline : null;
      const later = () => offline && offline.later("pulse\n" + session + "\n" + last.seq, "api/reading/pulse", last).catch(() => null);
      if (offline && offline.offline()) later();
      else api("api/reading/pulse", last, { keepalive: true, noRedirect: true }).catch((error) => error.status === 0 && later());
      return;
    }
    [inflight, sending] = [true, batch];
    api("api/reading/pulse", body(batch, release), { noRedirect: true }).then((answer) => {
      summary = answer.clock || summary;
      ours = ours || answer.accepted.activeMs > 0 || batch.pages.size > 0;
      leaseUntil = answer.lease.held ? performance.now() + answer.lease.ms - LEASE_MARGIN : 0;
    }, (error) => {
      leaseUntil = 0;
      if ([400, 401, 403, 404].indexOf(error.status) >= 0) {
        state = "off"; // turned off elsewhere, signed out, or the chapter is gone
      } else if (error.status === 409) {
        block("elsewhere"); // measured without the lease: not credible, dropped
      } else {
        block("offline");
        merge(pend, batch); // try again with the next pulse
      }
    }).then(() => {
      [inflight, sending] = [false, fresh()];
      resync();
      const again = queued;
      queued = null;
      if (again) send(again === "release");
      tick();
    });
  }

  function block(as) {
    [blockedAs, blockedUntil] = [as, performance.now() + RETRY_MS];
  }

  function merge(into, batch) {
    [into.active, into.loading] = [into.active + batch.active, into.loading + batch.loading];
    for (const k in batch.input) into.input[k] += batch.input[k];
    batch.pages.forEach((i) => into.pages.add(i));
  }

  // ---- the chip and its panel ----------------------------------------------------------------------

  function clock(ms) {
    const s = Math.floor(ms / 1000);
    const m = Math.floor(s / 60);
    const two = (n) => String(n).padStart(2, "0");
    return m >= 60 ? Math.floor(m / 60) + ":" + two(m % 60) + ":" + two(s % 60) : m + ":" + two(s % 60);
  }

  // Each batch rounded as its pulse sends it, so the total does not move when a pulse lands.
  const localActive = () => Math.round(sending.active) + Math.round(pend.active);
  const totals = () => ({
    total: (summary.totalActiveMs || 0) + localActive(),
    pass: ((pass() || {}).activeMs || 0) + localActive(),
    loading: (summary.loadingMs || 0) + Math.round(sending.loading) + Math.round(pend.loading),
  });

  const time = h("span", { className: "rd-clock-time" });
  const chip = h("button", { type: "button", className: "rd-clock", "aria-expanded": "false",
    title: gettext("Reading clock"), onclick: () => togglePanel() }, time);
  const rows = {};
  const ROWS = [["state", gettext("State")], ["pass", gettext("This pass")], ["verified", gettext("Verified pages")],
    ["mostly", gettext("Mostly")], ["loading", gettext("Loading wait")], ["total", gettext("Chapter total")]];
  const panel = h("div", { className: "rd-clock-panel", hidden: true, role: "dialog", "aria-label": gettext("Reading clock") },
    h("dl", null, ROWS.map(([key, label]) => [h("dt", null, label), (rows[key] = h("dd"))])));
  const row = root.querySelector(".rd-bottom .rd-row"); // beside the slider, which can give room on phones
  if (row) row.appendChild(chip);
  root.appendChild(panel);

  function togglePanel() {
    panel.hidden = !panel.hidden;
    chip.setAttribute("aria-expanded", String(!panel.hidden));
    render();
  }

  function render() {
    const t = totals();
    time.textContent = clock(t.total);
    chip.dataset.state = state;
    chip.setAttribute("aria-label", interpolate(gettext("Reading clock %(time)s, %(state)s"),
      { time: clock(t.total), state: LABELS[state] }, true));
    if (panel.hidden) return;
    rows.state.textContent = LABELS[state];
    rows.pass.textContent = clock(t.pass);
    rows.verified.textContent = interpolate(gettext("%(n)s of %(total)s"), { n: seen.size, total: data.pages.length }, true);
    const mostly = summary.predominantInput || (lastInput > 0 ? inputKind : "–");
    rows.mostly.textContent = INPUTS[mostly] || mostly;
    rows.loading.textContent = clock(t.loading);
    const done = summary.completedPasses;
    const passes = done ? " · " + interpolate(ngettext("%(n)s complete", "%(n)s complete", done), { n: done }, true) : "";
    rows.total.textContent = clock(t.total) + passes;
  }

  // ---- wiring -----------------------------------------------------------------------------------------

  const pointerKind = (e) => (e.pointerType === "touch" ? "touch" : "mouse");
  window.addEventListener("keydown", () => input("keyboard"), true);
  window.addEventListener("pointerdown", (e) => input(pointerKind(e)), true);
  window.addEventListener("wheel", () => input("mouse"), { capture: true, passive: true });
  window.addEventListener("touchstart", () => input("touch"), { capture: true, passive: true });
  window.addEventListener("blur", pause);
  document.addEventListener("visibilitychange", () => document.visibilityState !== "visible" && pause());
  window.addEventListener("pagehide", () => {
    tick();
    needInput = true;
    const held = leaseUntil > 0 || pend.active > 0 || pend.loading > 0 || pend.pages.size > 0;
    if (state !== "off" && held) send(true, true);
    if (state !== "off") state = "paused";
  });
  root.addEventListener("mc:pages", tick);
  root.querySelector(".rd-scroller").addEventListener("scroll", tick, { passive: true });
  if (channel) channel.onmessage = (e) => e.data && e.data.running !== session && pause();
  setInterval(tick, TICK_MS);
  resync();
  tick();

  window.mcClock = Object.freeze({
    get state() { return state; },
    get activeMs() { return totals().total; },
    get passMs() { return totals().pass; },
    get verified() { return Array.from(seen).sort((a, b) => a - b); },
    get rejected() { return rejected; },
    get session() { return session; },
  });
})();
