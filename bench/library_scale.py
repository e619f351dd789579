"""The library at scale, on the server of the routes' rows: a filter over every manga, the library
page's HTML, the reader's memory after the load, and the grid in the browser.

- A filter over all manga: `GET /api/library?q=tag:<a tag> status:ongoing&limit=120` at 1 client
  (every manga's tags and status are looked at; the generated library tags a manga with two of 16
  words), p50 against `GET /api/auth` at 1 client.
- The library page's HTML: the bytes of `GET /` (its first 120 tiles and the rows above them),
  against the JSON of the same 120 manga (`/api/library?limit=120`).
- Memory: the proportional set size (PSS, /proc/<pid>/smaps_rollup) of the reader's processes,
  the `serve` command and its gunicorn worker, summed, after every row before it loaded them,
  against the same once it answered its first request (`pss(server)`, taken by the caller then).
- The grid in Chromium (1280×800, signed in, static files collected as deployed): from the
  navigation to the first contentful paint, with the tiles the HTML brought counted, against the
  same HTML without its scripts and style sheet from a small server of its own (what this browser
  needs to paint that much HTML); then "Show more" appends the next 120 tiles (the JSON API and
  the tiles made in the page), timed in the page from the click to the 240th tile, against the
  page fetching that JSON alone.
"""
import re
import statistics
from pathlib import Path

from .firstpage import LocalPages, signed_in_page
from .loadgen import run as load
from .report import Row, skipped, target

FILTER = "tag:lantern status:ongoing"
FILTER_TARGET = "value <= 20 | p50 ≤ 20 ms"
HTML_TARGET = "value <= 2 | ≤ 2 MB"
PSS_TARGET = "value <= 300 | ≤ 300 MB"
GRID_TARGET = "value <= 200 | ≤ 200 ms"
PAGE = 120

# From the navigation's start: the first contentful paint, and the tiles in the grid by then.
PAINTED = """() => new Promise((resolve) => {
  new PerformanceObserver((list, observer) => {
    const paint = list.getEntriesByName('first-contentful-paint')[0];
    const nav = performance.getEntriesByType('navigation')[0];
    if (paint) { observer.disconnect(); resolve({fcp: paint.startTime, html: nav.responseEnd,
      worker: nav.workerStart ? nav.fetchStart - nav.workerStart : 0, dcl: nav.domContentLoadedEventEnd,
      tiles: document.querySelectorAll('#grid .tile').length}); }
  }).observe({type: 'paint', buffered: true});
  setTimeout(() => resolve({fcp: null, tiles: document.querySelectorAll('#grid .tile').length}), 5000);
})"""
# The JSON "Show more" asks for, fetched and parsed alone.
FETCH = """(path) => { const t0 = performance.now();
  return fetch(path, {credentials: 'same-origin'}).then((r) => r.json()).then(() => performance.now() - t0); }"""
# Click "Show more" and time until the grid holds `want` tiles (or null after 5 s).
MORE = """(want) => new Promise((resolve) => {
  const grid = document.getElementById('grid');
  const t0 = performance.now();
  const seen = new MutationObserver(() => {
    if (grid.children.length >= want) { seen.disconnect(); resolve(performance.now() - t0); }
  });
  seen.observe(grid, {childList: true});
  document.getElementById('more').click();
  setTimeout(() => { seen.disconnect(); resolve(null); }, 5000);
})"""


def bare(html):
    """The page without its scripts and style sheets."""
    html = re.sub(rb"<script\b.*?</script>", b"", html, flags=re.S)
    return re.sub(rb"<link\b[^>]*rel=\"(?:stylesheet|preload|modulepreload|manifest)\"[^>]*>", b"", html)


def _pss_mb(pid):
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no Pss in /proc/{pid}/smaps_rollup")


def reader_pids(server):
    """The serve command and its children (gunicorn's worker)."""
    pid = server.proc.pid
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [pid, *(int(p) for p in children.read_text().split())] if children.exists() else [pid]


def filter_row(server, cookie, seconds, client_cpus):
    """`cookie` as the load generator sends it (serving.browser_cookies)."""
    path = "/api/library?limit=120&q=" + FILTER.replace(" ", "%20").replace(":", "%3A")
    floor = load(server.url, "/api/auth", cookies=[cookie], clients=1, seconds=seconds, cpus=client_cpus)
    r = load(server.url, path, cookies=[cookie], clients=1, seconds=seconds, cpus=client_cpus)
    return Row("library filter over all manga, 1 client", value=r["p50"],
               shown=f"p50 {r['p50']:.3g} · p99 {r['p99']:.3g} ms", baseline=f"auth p50 {floor['p50']:.3g} ms",
               ratio=r["p50"] / floor["p50"] if floor["p50"] else None, target=target(FILTER_TARGET),
               note=f"q={FILTER}" + (f"; {r['errors']} of {r['requests']} requests failed" if r["errors"] else ""))


def html_row(probe):
    """-> (the row, the page's HTML)."""
    status, _, body = probe.get("/")
    assert status == 200, status
    cookie = "; ".join(f"{k}={v}" for k, v in probe.cookies.items())
    json_status, _, data = probe.send("GET", f"/api/library?limit={PAGE}", headers={"Cookie": cookie})
    assert json_status == 200, json_status
    tiles = body.count(b'<li class="tile')
    return Row("library page HTML, first page", value=len(body) / 1e6,
               shown=f"{len(body) / 1024:,.0f} KB, {tiles} tiles",
               baseline=f"/api/library?limit={PAGE} {len(data) / 1024:,.0f} KB", ratio=len(body) / len(data),
               target=target(HTML_TARGET)), body


def pss(server):
    """[MB] of each of the reader's processes."""
    return [_pss_mb(pid) for pid in reader_pids(server)]


def memory_row(server, at_start):
    sizes = pss(server)
    return Row("reader PSS after the load", value=sum(sizes),
               shown=f"{sum(sizes):.0f} MB ({' + '.join(f'{s:.0f}' for s in sizes)})",
               baseline=f"once started {sum(at_start):.0f} MB", ratio=sum(sizes) / sum(at_start),
               target=target(PSS_TARGET))


def grid_rows(server, sid, html, manga_count, runs=5):
    names = ("library grid: first 120 tiles painted", "library grid: Show more, next 120")
    try:
        import playwright  # noqa: F401
    except ImportError:
        return [skipped(name, "Playwright is not installed (pip install '.[dev]')", GRID_TARGET) for name in names]
    more_path = f"{server.url}/api/library?offset={PAGE}&limit={PAGE}"
    painted, alone, more, fetched = [], [], [], []
    page_alone = LocalPages({"/": (bare(html), "text/html; charset=utf-8")})
    try:
        with signed_in_page(server, sid) as page:
            for run in range(runs + 1):  # the first fills the HTTP cache (scripts, style sheet, covers)
                page.goto(server.url + "/")
                first = page.evaluate(PAINTED)
                after = page.evaluate(MORE, min(2 * PAGE, manga_count)) if manga_count > PAGE else None
                json_alone = page.evaluate(FETCH, more_path) if manga_count > PAGE else None
                page.goto(page_alone.url)
                bare_paint = page.evaluate(PAINTED)["fcp"]
                if run:
                    painted.append(first)
                    more.append(after)
                    fetched.append(json_alone)
                    alone.append(bare_paint)
    finally:
        page_alone.stop()
    done = sorted((p for p in painted if p["fcp"] is not None), key=lambda p: p["fcp"])
    tiles = min(p["tiles"] for p in painted)
    mid = done[len(done) // 2] if done else None
    note = (f"median run: HTML in at {mid['html']:.0f} ms, DOMContentLoaded {mid['dcl']:.0f} ms, painted "
            f"{mid['fcp']:.0f} ms" if mid else "")
    if tiles != min(PAGE, manga_count):
        note += f"; only {tiles} tiles were in the page when it painted"
    floor = _median([t for t in alone if t is not None])
    rows = [Row(names[0], value=mid["fcp"] if mid else float("inf"),
                shown=f"median {mid['fcp']:.0f} ms of {len(done)}, {tiles} tiles" if mid
                else "no first contentful paint reported",
                baseline=f"the same HTML bare {floor:.0f} ms" if floor else "bare HTML: no paint reported",
                ratio=mid["fcp"] / floor if mid and floor else None, target=target(GRID_TARGET), note=note)]
    if manga_count <= PAGE:
        rows.append(skipped(names[1], f"{manga_count} manga: one page of tiles, no Show more"))
    else:
        appended, json_floor = _median([t for t in more if t is not None]), _median([t for t in fetched if t])
        rows.append(Row(names[1], value=appended if appended else float("inf"),
                        shown=f"median {appended:.0f} ms of {len(more)}" if appended else "the next tiles never came",
                        baseline=f"its JSON fetched alone {json_floor:.0f} ms" if json_floor else "",
                        ratio=appended / json_floor if appended and json_floor else None))
    return rows


def _median(values):
    return statistics.median(values) if values else None


def rows(server, probe, sid, load_cookie, manga_count, seconds, client_cpus, at_start, runs=5):
    """The rows, the memory row last, once the others have loaded the reader too. `probe` is a
    signed-in bench.server.Client, `sid` its session for the browser, `at_start` pss(server) once
    it answered."""
    html, body = html_row(probe)
    out = [filter_row(server, load_cookie, seconds, client_cpus), html]
    out += grid_rows(server, sid, body, manga_count, runs)
    out.append(memory_row(server, at_start))
    return out
