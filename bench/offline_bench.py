"""Keeping a 40-page chapter offline (docs/offline.md), in Debian's Chromium (Playwright), on loopback.

The figure: from the press of Keep offline beside the chapter on its manga page to its Offline badge,
timed in the page (performance.now() at the click, a MutationObserver for the badge). Keeping
fetches the chapter's payload, then its reader page and its 40 images, 6 at a time
(static/js/offline-keep.js), through the service worker, into the Cache API, and records it in
IndexedDB. The baseline, in turns with it in the same tab and through the same worker: fetch() of
the 40 page images once, all asked at once (the browser opens 6 connections to the host), each
body read. The browser's HTTP cache is cleared before each (DevTools' Network.clearBrowserCache)
and the kept copy removed after each keep; a first round of both, not counted, warms the server and
the OS page cache. The row is the median of the runs of each.
"""
import os
import shutil
import statistics
import time
from urllib.parse import quote

from . import serving
from .firstpage import ARGS, CHROMIUM
from .generate import own_copy
from .report import Row, skipped, target

NAME = "offline: keep a 40-page chapter"
TARGET = "ratio <= 1.5 | ≤ 1.5× fetch"
PAGES = 40
MANGA, FOLDER, CID = "Keep Test", "c0001 Forty Pages", "0/1"

FETCH = """async (urls) => {
  const start = performance.now();
  await Promise.all(urls.map(async (url) => (await fetch(url, { credentials: "same-origin" })).blob()));
  return performance.now() - start;
}"""
KEEP = """(cid) => new Promise((resolve, reject) => {
  const li = document.querySelector('li.chapter[data-c="' + cid + '"]');
  const start = performance.now();
  new MutationObserver((changes, observer) => {
    if (!li.querySelector(".kept-badge")) return;
    observer.disconnect();
    resolve(performance.now() - start);
  }).observe(li, { subtree: true, childList: true });
  li.querySelector(".keep").click();
  setTimeout(() => reject(new Error("not kept within 60 s")), 60000);
})"""

# Remove the kept copy, and wait until the page has taken its badge away (mc:kept redraws the marks).
FORGET = """async ([m, cid]) => {
  await MCOffline.forget(m, [cid]);
  document.dispatchEvent(new CustomEvent("mc:kept"));
  const li = document.querySelector('li.chapter[data-c="' + cid + '"]');
  while (li.querySelector(".kept-badge")) await new Promise((resolve) => setTimeout(resolve, 10));
}"""


def make_library(folder, page):
    """One manga of one chapter of PAGES pages, every page a hard link to `page`."""
    shutil.rmtree(folder, ignore_errors=True)
    page = own_copy(page, folder)
    chapter = folder / MANGA / FOLDER
    chapter.mkdir(parents=True)
    for n in range(1, PAGES + 1):
        os.link(page, chapter / f"{n:03d}{page.suffix}")
    return folder


def _wait(page, expression, timeout=20):
    """Poll: the app's CSP forbids the eval that wait_for_function would need."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {timeout} s: {expression}")
        time.sleep(0.02)


def timings(server, cookie, urls, runs):
    """([ms to keep the chapter], [ms to fetch its pages once]), runs of each after a first round."""
    from playwright.sync_api import sync_playwright

    keeps, fetches = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.add_cookies([{"name": "sid", "value": cookie, "url": server.url}])
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            page.goto(f"{server.url}/manga/{quote(MANGA, safe='')}/")
            _wait(page, "!!navigator.serviceWorker.controller")
            page.reload()  # under the worker now, as a reader's page is
            page.wait_for_selector(f'li.chapter[data-c="{CID}"] .keep')
            for run in range(runs + 1):
                cdp.send("Network.clearBrowserCache")
                fetched = page.evaluate(FETCH, urls)
                cdp.send("Network.clearBrowserCache")
                kept = page.evaluate(KEEP, CID)
                page.evaluate(FORGET, [MANGA, CID])
                if run:
                    keeps.append(kept)
                    fetches.append(fetched)
        finally:
            browser.close()
    return keeps, fetches


def row(work, page, runs=5):
    try:
        import playwright  # noqa: F401
    except ImportError:
        return skipped(NAME, "Playwright is not installed (pip install '.[dev]')", TARGET)
    library = make_library(work / "offline-library", page)
    data = work / "data-offline"
    shutil.rmtree(data, ignore_errors=True)
    server = serving.start_server(data, library)
    try:
        admin = server.client().signup("admin", serving.PASSWORD)
        deadline = time.monotonic() + 60
        while (answer := admin.get(f"/api/chapter?m={quote(MANGA)}&c={quote(CID)}&peek=1"))[0] != 200:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the scan did not find {MANGA}: {answer[2][:200]!r}")
            time.sleep(0.1)
        urls = [f"{server.url}/{p['u']}" for p in answer[2]["pages"]]
        assert len(urls) == PAGES, len(urls)
        keeps, fetches = timings(server, admin.cookies["sid"], urls, runs)
    finally:
        server.stop()
    keep, fetch = statistics.median(keeps), statistics.median(fetches)
    size = page.stat().st_size * PAGES
    return Row(NAME, value=keep, shown=f"median {keep:.0f} ms of {len(keeps)}",
               baseline=f"its {PAGES} pages fetched once {fetch:.0f} ms", ratio=keep / fetch, target=target(TARGET),
               note=f"{PAGES} pages of {page.stat().st_size / 1e3:.0f} KB ({size / 1e6:.1f} MB), kept with the "
                    f"chapter's payload and reader page; each run: keep {', '.join(f'{k:.0f}' for k in keeps)} ms, "
                    f"fetch {', '.join(f'{f:.0f}' for f in fetches)} ms")
