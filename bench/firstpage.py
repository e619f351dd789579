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

The baseline, in turns with the reader's runs: the same image alone on a bare page (no script, no
style sheet) served by a small server of its own on another port of this host, opened from the
manga page in the same way: what this browser needs to show that image after the same click.
"""
import statistics
import threading
from contextlib import contextmanager
from html import unescape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

from .report import Row, skipped, target
from .server import Client

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
NAME = "reader: navigation to first page painted"
TARGET = "value <= 180 | ≤ 180 ms"

# The largest contentful paint of the image at the given URL (by default the one the page preloads: the
# reader's first page, with this very page's signature when links are signed), or null if none comes
# within 5 s. Only a PerformanceObserver sees it (buffered entries); it may come after the reader's
# mark, which is set before the frame is presented, and after an entry for text painted before it.
LCP = """(image) => new Promise((resolve) => {
  const preload = document.querySelector('link[rel=preload][as=image]');  // the reader's first page
  const url = image ? new URL(image, location.href).href : preload && preload.href;
  const seen = [];  // what was reported instead, for the row's note
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      seen.push([entry.url || (entry.element ? entry.element.tagName : '?'), entry.size, Math.round(entry.startTime)]);
      if (entry.url === url) resolve({time: entry.startTime, seen});
    }
  }).observe({type: 'largest-contentful-paint', buffered: true});
  setTimeout(() => resolve({time: null, seen}), 5000);
})"""
BARE = (b'<!doctype html><html><head><meta charset="utf-8"><title>page</title></head>'
        b'<body style="margin:0;background:#0c0c0e"><img src="/page" alt="page" '
        b'style="display:block;width:100vw;height:100vh;object-fit:contain"></body></html>')


class LocalPages:
    """Pages {path: (body, content type)} from a thread of this process on a free loopback port;
    any other path gets `fallback`'s page, or a 404 without one."""

    def __init__(self, files, fallback=None):
        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                found = files.get(self.path, files.get(fallback))
                body, kind = found or (b"", "text/plain")
                self.send_response(200 if found else 404)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "max-age=3600")  # as warm as the reader's image
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def bare_page(image, content_type):
    """The bare page at / and its image at /page."""
    return LocalPages({"/": (BARE, "text/html; charset=utf-8"), "/page": (image, content_type)}, fallback="/")


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


@contextmanager
def signed_in_page(server, cookie):
    """A 1280×800 tab of Debian's Chromium holding the session cookie for `server`."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.add_cookies([{"name": "sid", "value": cookie, "url": server.url}])
            yield context.new_page()
        finally:
            browser.close()


def row(server, cookie, manga, cid, runs=7):
    """`server` should run with collected static files (serving.start_server(collectstatic=True))."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return skipped(NAME, "Playwright is not installed (pip install '.[dev]')", TARGET)
    book, chapter = cid.split("/")
    manga_url = f"{server.url}/manga/{quote(manga, safe='')}/"
    url = f"{server.url}/read/{quote(manga, safe='')}/{book}/{chapter}/"
    client = Client("127.0.0.1", server.port)
    client.cookies["sid"] = cookie
    html = client.get(url[len(server.url):])[2].decode()
    # The attribute as written, HTML-escaped: a signed link's "&" is "&amp;" there (IMAGE_LINKS=signed).
    first = unescape(html.split('<link rel="preload" as="image" href="', 1)[1].split('"', 1)[0])
    status, headers, image = client.get(first)
    assert status == 200, (first, status)
    bare = bare_page(image, headers["Content-Type"])
    results, alone = [], []
    try:
        with signed_in_page(server, cookie) as page:
            for run in range(runs + 1):  # the first run of each fills the HTTP cache
                page.goto(manga_url)
                page.goto(url)
                page.wait_for_function("() => performance.getEntriesByName('mc-first-page').length > 0", timeout=15000)
                if run:
                    lcp = page.evaluate(LCP, None)
                    results.append({**page.evaluate(TIMINGS), "lcp": lcp["time"], "seen": lcp["seen"]})
                page.goto(manga_url)
                page.goto(bare.url)
                page.wait_for_load_state("load")
                if run:
                    alone.append(page.evaluate(LCP, bare.url + "page")["time"])
    finally:
        bare.stop()
    painted = [r for r in results if r["lcp"] is not None]
    if not painted:
        return Row(NAME, value=float("inf"), shown="no paint of the first page reported", target=target(TARGET),
                   note=f"the largest contentful paint was never the first page's image: {results[0]['seen']}")
    painted.sort(key=lambda r: r["lcp"])
    mid = painted[len(painted) // 2]
    median = statistics.median(r["lcp"] for r in painted)
    image = (f"first image requested at {mid['imageStart']:.0f}, arrived {mid['imageEnd']:.0f} ms"
             if mid["imageStart"] is not None else "first image from the HTTP cache, no request")
    others = f" ({len(results) - len(painted)} runs where it was not the first page left out)" \
        if len(painted) < len(results) else ""
    alone = [t for t in alone if t is not None]
    floor = statistics.median(alone) if alone else None
    return Row(NAME, value=median, shown=f"median {median:.0f} ms of {len(painted)}",
               baseline=f"the image alone on a bare page {floor:.0f} ms" if floor else "bare page: no paint reported",
               ratio=median / floor if floor else None, target=target(TARGET),
               note=f"median run: HTML {mid['html']:.0f} ms; {mid['scripts']} scripts, the last in at "
                    f"{mid['scriptsEnd']:.0f} ms, run by {mid['dcl']:.0f} ms (DOMContentLoaded); {image}; "
                    f"painted {mid['lcp']:.0f} ms (largest contentful paint); the reader's mark "
                    f"{mid['paint']:.0f} ms, median {statistics.median(r['paint'] for r in results):.0f} ms{others}")
