"""Offline reading in Chromium with the network switched off (docs/offline.md): a kept chapter opens
after a reload in every mode, the place reached offline reaches the server on return, two devices'
offline writes merge by the rules, a restriction drops a kept chapter at the next sync, and signing
out forgets everything kept."""
import time
from urllib.parse import quote

import pytest

from tests.reader.conftest import Reader
from tests.support.evaluate import answer

MOON = "Moon Garden"
SEEDS = "1/1"
ROOTS = "1/2"

STORED = """async () => {
  const names = await caches.keys();
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open("mangacircus-offline", 1);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const count = (store) => new Promise((ok, no) => {
    const r = db.transaction(store).objectStore(store).getAll();
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  return { caches: names, kept: await count("kept"), queue: await count("queue") };
}"""


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def _poll(page, expression, timeout=10):
    deadline = time.monotonic() + timeout
    while True:
        value = answer(page, expression)
        if value:
            return value
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        time.sleep(0.05)


def _stored(page):
    return answer(page, f"({STORED})()")


def _on_screen_loaded(page):
    """Whether every page image on screen has its pixels (from the kept copy, when offline)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll(".rd-page img")).filter((img) => {
        const r = img.getBoundingClientRect();
        return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
      }).every((img) => img.complete && img.naturalWidth > 0)""")


def test_it_reads_a_kept_chapter_offline_in_every_mode_and_sends_the_place_on_return(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page")
    page = reader.page
    name = reader.client.get("/api/me")[2]["name"]
    manga_url = f"{srv.url}/manga/{quote(MOON)}/"
    page.goto(manga_url)
    _poll(page, "!!navigator.serviceWorker.controller")
    page.reload()  # fetched through the worker now: this copy is what an offline visit shows
    for cid in (SEEDS, ROOTS):
        page.click(f'li.chapter[data-c="{cid}"] .keep')
        page.wait_for_selector(f'li.chapter[data-c="{cid}"] .kept-badge')
    kept = {k["c"]: k for k in _stored(page)["kept"]}
    pages = reader.client.get(f"/api/chapter?m={quote(MOON)}&c={quote(SEEDS)}&peek=1")[2]["pages"]
    assert set(kept) == {SEEDS, ROOTS} and kept[SEEDS]["pages"] == len(pages) > 7 and kept[SEEDS]["bytes"] > 0

    desktop.set_offline(True)
    page.reload()  # the manga page as last fetched, with its badges
    page.wait_for_selector(".offline-banner")
    page.wait_for_selector(f'li.chapter[data-c="{SEEDS}"] .kept-badge')
    page.goto(f"{srv.url}/history/")  # never fetched: the offline page, listing what is kept
    page.wait_for_selector(".kept-item")
    assert "You are offline" in page.inner_text("h1")

    reader.open(MOON, 1, 1)
    assert reader.state("mcReader.mode") == "page"
    for _ in range(7):
        page.keyboard.press("ArrowLeft")
    reader.wait("mcReader.page === 7")
    _poll(page, "mcReader.decoded.indexOf(7) >= 0")
    for mode in ("book", "flow", "page"):
        if not reader.state("mcReader.bars"):
            page.keyboard.press("m")
            reader.wait("mcReader.bars")  # shown before the click (a busy machine takes its time)
        page.click(f'.rd-mode[data-mode="{mode}"]')
        reader.wait(f'mcReader.mode === "{mode}"', 10)
        deadline = time.monotonic() + 5
        while not _on_screen_loaded(page):
            assert time.monotonic() < deadline, f"pages on screen did not load offline in {mode}"
            time.sleep(0.05)
    page.keyboard.press("m")  # the bars away, the keys turn pages again
    for _ in range(20):  # Book opens a spread at its first page, Flow where the top of the screen is
        at = reader.state("mcReader.page")
        if at == 7:
            break
        page.keyboard.press("ArrowLeft" if at < 7 else "ArrowRight")
        reader.settle()
    reader.wait("mcReader.page === 7")
    deadline = time.monotonic() + 5
    while not [q for q in _stored(page)["queue"] if q["body"].get("p") == 7]:
        assert time.monotonic() < deadline, _stored(page)["queue"]
        time.sleep(0.1)
    assert reader.progress(MOON, SEEDS) is None  # the server has not heard of it yet

    desktop.set_offline(False)
    entry = reader.saved(MOON, SEEDS, lambda e: e["p"] == 7)
    assert entry["done"] is False
    _poll(page, f"({STORED})().then((s) => s.queue.length === 0)")

    # A restriction added later: the next sync drops the chapters now hidden.
    status, _, data = srv.admin.post("/api/admin/user/access", {"name": name, "only": ["Long Scroll"]})
    assert status == 200, data
    page.evaluate("localStorage.removeItem('mc.offline.checked')")  # no waiting out the 5-minute pause
    page.goto(f"{srv.url}/")
    _poll(page, f"({STORED})().then((s) => s.kept.length === 0)")
    srv.admin.post("/api/admin/user/access", {"name": name, "only": None})

    page.goto(manga_url)
    page.click(f'li.chapter[data-c="{ROOTS}"] .keep')
    page.wait_for_selector(f'li.chapter[data-c="{ROOTS}"] .kept-badge')
    page.click("text=Sign out")
    page.wait_for_url("**/login/**")
    after = _stored(page)
    assert [n for n in after["caches"] if not n.startswith("mc-shell-")] == []
    assert [k for k in after["kept"] if k["user"] == name] == [] and after["queue"] == []


def test_offline_writes_of_two_devices_merge_by_the_rules(srv, browser, desktop, reader_on):
    """Device A finishes the chapter offline; device B, later, stops at page 3 offline. B comes back
    first, then A: the latest place wins (B's page 3), and done sticks (A's)."""
    a = reader_on(desktop, srv, startMode="page")
    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        b = Reader(other, srv, a.client)
        for device in (a, b):
            device.open(MOON, 1, 2)
        a.saved(MOON, ROOTS, lambda e: e["p"] == 0)
        desktop.set_offline(True)
        other.set_offline(True)
        pages = len(a.state("mcReader.shown"))
        for _ in range(pages):
            a.page.keyboard.press("ArrowLeft")
        a.wait("mcReader.done")
        _poll(a.page, f"({STORED})().then((s) => s.queue.some((q) => q.body.done))")
        time.sleep(0.05)  # B's place is strictly later
        for _ in range(3):
            b.page.keyboard.press("ArrowLeft")
        b.wait("mcReader.page === 3")
        _poll(b.page, f"({STORED})().then((s) => s.queue.some((q) => q.body.p === 3))")
        other.set_offline(False)
        b.saved(MOON, ROOTS, lambda e: e["p"] == 3)
        desktop.set_offline(False)
        _poll(a.page, f"({STORED})().then((s) => s.queue.length === 0)")
        entry = a.progress(MOON, ROOTS)
        assert entry["p"] == 3 and entry["done"] is True
        assert not b.errors, b.errors
    finally:
        other.close()



def test_it_keeps_a_whole_book_and_the_next_chapters_of_followed_manga_by_themselves(srv, desktop, reader_on):
    reader = reader_on(desktop, srv)
    page = reader.page
    books = reader.client.get(f"/api/manga?m={quote(MOON)}")[2]["books"]
    first = {c["id"] for c in books[0]["chapters"]}
    assert len(books) > 1 and SEEDS in first and len(first) > 1
    page.goto(f"{srv.url}/manga/{quote(MOON)}/")
    book = page.locator("section.book", has=page.locator(f'li.chapter[data-c="{SEEDS}"]'))
    book.locator(".keep-book").click()
    book.locator(".book-keep .kept-badge").wait_for()
    assert {k["c"] for k in _stored(page)["kept"]} == first
    assert book.locator(".chapter-row .kept-badge").count() == len(first)
    assert page.locator(".book-keep .kept-badge").count() == 1  # the other books are not kept
    assert book.locator(".keep-book").inner_text().startswith("Remove the offline copy of ")
    book.locator(".keep-book").click()
    _poll(page, f"({STORED})().then((s) => s.kept.length === 0)")
    assert book.locator(".kept-badge").count() == 0

    # Followed manga, by themselves: the next 2 unread chapters of each, at the next page loaded online.
    assert reader.client.post("/api/follow", {"m": MOON, "on": True})[0] == 200
    assert reader.client.post("/api/read", {"m": MOON, "c": SEEDS})[0] == 200
    assert reader.client.post("/api/settings", {"offlineFollowed": True, "offlineAhead": 2})[0] == 200
    wanted = [(c["m"], c["c"]) for c in reader.client.get("/api/offline/followed")[2]["chapters"]]
    assert wanted == [(MOON, ROOTS), (MOON, wanted[1][1])] and wanted[1][1] != SEEDS
    page.evaluate("localStorage.removeItem('mc.offline.followed')")  # no waiting out the 5-minute pause
    page.goto(f"{srv.url}/")
    _poll(page, f"({STORED})().then((s) => s.kept.length === 2)")
    assert sorted((k["m"], k["c"]) for k in _stored(page)["kept"]) == sorted(wanted)
    page.goto(f"{srv.url}/manga/{quote(MOON)}/")
    page.wait_for_selector(f'li.chapter[data-c="{ROOTS}"] .kept-badge')

    # Offline, a kept page's thumbnail is the kept image itself (the overview shows it scaled down).
    desktop.set_offline(True)
    reader.open(MOON, 1, 2)
    image, thumb = answer(page, """(async () => {
      const u = JSON.parse(document.getElementById("chapter-data").textContent).pages[0].u;
      const size = async (url) => (await (await fetch(ROOT + url)).blob()).size;
      return [await size(u), await size(u.replace(/^lib\\//, "lib-thumb/"))];
    })()""")
    assert image == thumb > 0
