"""The household mix of bench/openloop.py against a real `serve`: per-route p99 at 200 requests/s,
the rate where p99 passes 100 ms, and the same mix while full scans run back to back."""
import threading
from urllib.parse import quote

from .openloop import routes_for, run
from .report import Row, target
from .serving import chapter_target


def _routes(server_client, manga):
    cid, version, pages = chapter_target(server_client, manga)
    status, _, data = server_client.get(f"/api/chapter?m={quote(manga)}&c={quote(cid)}")
    assert status == 200, data
    images = ["/" + p["u"] for p in data["pages"]]
    return routes_for(manga, cid, version, pages, images)


def _full_scans(admin, stop):
    """Full scans one after another until `stop` is set: the load then runs during a scan throughout."""
    count = 0
    while not stop.is_set():
        try:
            status, _, _ = admin.post("/api/admin/rescan", {"full": True})
        except OSError:  # a scan longer than the client's timeout (xl): it goes on in the server
            continue
        count += status in (200, 202)
    return count


def rows(server, admin, cookies, manga, seconds, client_cpus, window=None, rate=200,
         rates=(300, 400, 600, 800, 1200, 1600)):
    """Household mix at `rate`/s per route against /api/auth at the same rate, for `window` seconds
    (default `seconds`); the rate where p99 crosses 100 ms, `seconds` at each rate; the same mix
    during back-to-back full scans, for `window` seconds."""
    window = window or seconds
    routes = _routes(admin, manga)
    auth = {kind: ("GET /api/auth", "GET", ["/api/auth"], None) for kind in routes}
    floor = run(server.url, auth, cookies, rate, window, client_cpus)["GET /api/auth"]
    calm = run(server.url, routes, cookies, rate, window, client_cpus)
    out = []
    for kind in ("page", "progress", "chapter", "library", "home"):
        label = routes[kind][0]
        r = calm[label]
        limit = 10 if kind == "progress" else 25
        out.append(Row(f"open loop {rate}/s: {label}", value=r["p99"],
                       shown=f"p99 {r['p99']:.3g} · p50 {r['p50']:.3g} ms ({r['count']} sent)",
                       baseline=f"auth alone at {rate}/s: p99 {floor['p99']:.3g} ms",
                       ratio=r["p99"] / floor["p99"] if floor["p99"] else None,
                       target=target(f"value <= {limit} | p99 ≤ {limit} ms"),
                       note=f"{r['errors']} failed" if r["errors"] else ""))
    crossed, below = None, rate if calm["_all"]["p99"] <= 100 else None
    for r in rates:
        figures = run(server.url, routes, cookies, r, seconds, client_cpus)["_all"]
        if figures["p99"] > 100:
            crossed = (r, figures["p99"])
            break
        below = r
    shown = (f"{crossed[0]}/s (p99 {crossed[1]:.3g} ms); {below or '<' + str(rate)}/s held" if crossed
             else f"beyond {rates[-1]}/s")
    out.append(Row("open loop: rate where p99 passes 100 ms", value=crossed[0] if crossed else rates[-1],
                   shown=shown, baseline=f"household target {rate}/s",
                   ratio=(crossed[0] if crossed else rates[-1]) / rate))
    stop = threading.Event()
    scanner = threading.Thread(target=_full_scans, args=(admin, stop), daemon=True)
    scanner.start()
    try:
        busy = run(server.url, routes, cookies, rate, window, client_cpus)
    finally:
        stop.set()
        scanner.join(600)
    worst_calm = max(v["p99"] for k, v in calm.items() if k != "_all")
    worst_busy_label, worst_busy = max(((k, v["p99"]) for k, v in busy.items() if k != "_all"), key=lambda kv: kv[1])
    out.append(Row(f"open loop {rate}/s, full scans: worst p99", value=worst_busy,
                   shown=f"{worst_busy:.3g} ms ({worst_busy_label})", baseline=f"calm worst p99 {worst_calm:.3g} ms",
                   ratio=worst_busy / worst_calm if worst_calm else None, target=target("ratio <= 2 | ≤ 2× calm")))
    return out

