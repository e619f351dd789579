"""Navigation to the first page painted in the reader, in Debian's Chromium (Playwright), on loopback.

The figure is the browser's own: the largest contentful paint, the time the frame that first showed
the largest image was presented, counted only when that image is the chapter's first page (the one
the page preloads). The reader's own mark, `mc-first-page` (performance.mark, a frame after the
first page's image is decoded: static/js/read-loading.js), is in the note: as a script it can only
learn of the paint after it, 10-40 ms later here. Each run opens the manga page, then the chapter
from there, in the same tab with a warm HTTP cache, as a reader coming back to it would; the time
runs from the chapter's navigation. (A fresh tab for each run, as this row used to open, adds
Chromium's start of a renderer process and of the tab to every run: 80-150 ms on this machine.) The
server runs as deployed, with collected static files, so the scripts come from the browser's cache
without a request. The row is the median of the runs, and the note says where the time went in the
median run: the HTML, the reader's scripts (how many, and when the last one ended), when the first
page's image was requested and arrived, and the reader's mark.
"""
import statistics
from urllib.parse import quote

from .report import Row, skipped, target

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAME = "reader: navigation to first page painted"
TARGET = "value <= 180 | ≤ 180 ms"

# The largest contentful paint so far, if it is the first page's image (only a PerformanceObserver
# sees it: buffered entries), else null.
LCP = """() => new Promise((resolve) => {
  const preload = document.querySelector('link[rel=preload][as=image]');
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    const last = entries[entries.length - 1];
    resolve(last && preload && last.url === preload.href ? last.startTime : null);
  }).observe({type: 'largest-contentful-paint', buffered: true});
  setTimeout(() => resolve(null), 1000);
})"""

TIMINGS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const scripts = res.filter(r => r.initiatorType === 'script' || r.name.endsWith('.js'));
  const preload = document.querySelector('link[rel=preload][as=image]');
  const image = preload && res.find(r => r.name === preload.href);
  return {
    paint: performance.getEntriesByName('mc-first-page')[0].startTime,
    html: nav.responseEnd,
    dcl: nav.domContentLoadedEventEnd,
    scripts: scripts.length,
    scriptsEnd: scripts.length ? Math.max(...scripts.map(r => r.responseEnd)) : 0,
    imageStart: image ? image.startTime : null,
    imageEnd: image ? image.responseEnd : null,
  };
}"""


def row(server, cookie, manga, cid, runs=7):
    """`server` should run with collected static files (serving.start_server(collectstatic=True))."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return skipped(NAME, "Playwright is not installed (pip install '.[dev]')", TARGET)
    book, chapter = cid.split("/")
    manga_url = f"{server.url}/manga/{quote(manga, safe='')}/"
    url = f"{server.url}/read/{quote(manga, safe='')}/{book}/{chapter}/"
    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.add_cookies([{"name": "sid", "value": cookie, "url": server.url}])
            page = context.new_page()
            for run in range(runs + 1):
                page.goto(manga_url)
                page.goto(url)
                page.wait_for_function("() => performance.getEntriesByName('mc-first-page').length > 0", timeout=15000)
                if run:  # the first run fills the HTTP cache
                    results.append({**page.evaluate(TIMINGS), "lcp": page.evaluate(LCP)})
        finally:
            browser.close()
    painted = [r for r in results if r["lcp"] is not None]
    if not painted:
        return Row(NAME, value=float("inf"), shown="no paint of the first page reported", target=target(TARGET),
                   note="the largest contentful paint was never the first page's image")
    painted.sort(key=lambda r: r["lcp"])
    mid = painted[len(painted) // 2]
    median = statistics.median(r["lcp"] for r in painted)
    image = (f"first image requested at {mid['imageStart']:.0f}, arrived {mid['imageEnd']:.0f} ms"
             if mid["imageStart"] is not None else "first image from the HTTP cache, no request")
    others = f" ({len(results) - len(painted)} runs where it was not the first page left out)" \
        if len(painted) < len(results) else ""
    return Row(NAME, value=median, shown=f"median {median:.0f} ms of {len(painted)}",
               baseline=f"HTML received at {mid['html']:.0f} ms", ratio=median / mid["html"] if mid["html"] else None,
               target=target(TARGET),
               note=f"median run: HTML {mid['html']:.0f} ms; {mid['scripts']} scripts, the last in at "
                    f"{mid['scriptsEnd']:.0f} ms, run by {mid['dcl']:.0f} ms (DOMContentLoaded); {image}; "
                    f"painted {mid['lcp']:.0f} ms (largest contentful paint); the reader's mark "
                    f"{mid['paint']:.0f} ms, median {statistics.median(r['paint'] for r in results):.0f} ms{others}")
