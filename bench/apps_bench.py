"""The reading apps' API (/komga/): a 1,000-chapter manga's book list, page images against /lib/,
and Basic on every request against the session cookie.

Its own library (one manga of 1,000 chapters, two pages each, hard links to one JPEG) and its own
server, with the production password cost (scrypt 2^17), so that Basic without the remembered
check would show."""
import base64
import os
from pathlib import Path
from urllib.parse import quote

from PIL import Image

from . import loadgen
from .report import Row, target
from .server import Client
from .serving import PASSWORD, make_users, start_server, wait_for_library

MANGA = "Thousand Chapters"
CHAPTERS = 1000
RUNS = 3


def make_library(root):
    """LIBRARY with one manga of CHAPTERS chapters; kept between runs."""
    manga = Path(root) / MANGA
    if (manga / f"c{CHAPTERS:04d}" / "002.jpg").exists():
        return Path(root)
    page = Path(root).parent / "apps-page.jpg"
    Image.new("RGB", (900, 1350), (180, 180, 170)).save(page, quality=85)
    for c in range(1, CHAPTERS + 1):
        folder = manga / f"c{c:04d}"
        folder.mkdir(parents=True, exist_ok=True)
        for n in (1, 2):
            target_path = folder / f"{n:03d}.jpg"
            if not target_path.exists():
                os.link(page, target_path)
    return Path(root)


def _figures(r):
    return f"p50 {r['p50']:.3g} · p99 {r['p99']:.3g} ms · {r['rps']:,.0f}/s"


def _row(name, r, base_name, b, key, spec):
    errors = r["errors"] + b["errors"]
    if errors:  # a failed request answers fast: its figure would flatter
        return Row(name, note=f"{errors} of {r['requests'] + b['requests']} requests failed", target=target(spec))
    return Row(name, value=r[key], shown=_figures(r), baseline=f"{base_name} {_figures(b)}",
               ratio=r[key] / b[key] if b[key] else None, target=target(spec))


def apps_rows(work, seconds, server_cpus, client_cpus, say):
    library = make_library(work / "apps-library")
    data = work / "apps-data"
    server = start_server(data, library, env={"SCRYPT_LOG_N": "17"}, cpus=server_cpus)
    try:
        admin = make_users(server, 1)[0] if not (data / "db.json").exists() else server.client().login("admin")
        wait_for_library(admin, 1, 300)
        sid = admin.cookies["sid"]
        credentials = "Basic " + base64.b64encode(f"admin:{PASSWORD}".encode()).decode()
        app = Client("127.0.0.1", server.port)
        status, _, series = app.get("/komga/api/v1/series?search=thousand", headers={"Authorization": credentials})
        assert status == 200, series
        token = app.cookies["MC-KOMGA-SESSION"]
        books_path = f"/komga/api/v1/series/{series['content'][0]['id']}/books?unpaged=true"
        status, _, books = app.get(books_path)
        assert status == 200 and books["totalElements"] == CHAPTERS, books
        page_path = f"/komga/api/v1/books/{books['content'][CHAPTERS // 2]['id']}/pages/1"
        lib_path = f"/lib/{quote(MANGA)}/c{CHAPTERS // 2 + 1:04d}/001.jpg"
        cookie = {"Cookie": f"MC-KOMGA-SESSION={token}"}

        def measure(path, clients, headers=None):
            return loadgen.run(server.url, path, cookies=(sid,), clients=clients, seconds=seconds, cpus=client_cpus,
                               headers=headers)

        def best_of(key, *loads):
            """Each load measured RUNS times, taking turns (the machine's other work moves the figures); the
            best figure of each: highest rate, lowest latency."""
            results = [[] for _ in loads]
            for _ in range(RUNS):
                for found, load in zip(results, loads):
                    found.append(measure(*load))
            def rank(r):
                return r["errors"] == 0, r[key] if key == "rps" else -r[key]

            return [max(found, key=rank) for found in results]

        say("/komga/: the book list of a 1,000-chapter manga")
        books_r, manga_r = best_of("p50", (books_path, 1, cookie), (f"/api/manga?m={quote(MANGA)}", 1))
        rows = [_row(f"/komga/ books?unpaged, {CHAPTERS:,} chapters", books_r, "web /api/manga", manga_r,
                     "p50", "value <= 250 | p50 ≤ 250 ms")]
        say("/komga/: page images against /lib/, Basic against the cookie")
        komga_r, lib_r = best_of("rps", (page_path, 16, cookie), (lib_path, 16))
        rows.append(_row("/komga/ page image, 16 clients", komga_r, "/lib/", lib_r, "rps",
                         "ratio >= 0.9 | ≥ 0.9× /lib/"))
        basic_r, cookie_r = best_of("p50", (page_path, 1, {"Authorization": credentials, "Cookie": ""}),
                                    (page_path, 1, cookie))
        rows.append(_row("/komga/ page, Basic on every request", basic_r, "cookie", cookie_r, "p50",
                         "ratio <= 1.2 | ≤ 1.2× cookie"))
        return rows
    finally:
        server.stop()
