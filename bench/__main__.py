"""The benchmark: every figure with its baseline from the same run, the ratio, and the target.

    python -m bench [--preset xl|large|medium|tiny] [--seconds 5] [--runs 3] [--dir bench/out/<preset>]
                    [--only files|server|formats|scraper|apps|backup|peering|import ...]

The machine may be busy with other work, so absolute numbers move from run to run; each figure is
therefore printed next to a baseline measured in the same run on the same machine. See
docs/performance.md for what each row measures and the latest figures.
"""
import argparse
import os
import shutil
import sys
import time
from pathlib import Path

from . import (
    apps_bench,
    archives,
    backup_bench,
    catalog_bench,
    dbflush,
    firstpage,
    formats,
    generate,
    growth,
    household,
    import_bench,
    language_bench,
    libraries_bench,
    library_scale,
    loadgen,
    manga_page_bench,
    offline_bench,
    pageturn,
    peering,
    proxy,
    scanning,
    scraper_bench,
    serving,
)
from .report import machine, skipped, table

# Per preset: db.json sizes (MB, the last one holds the target), load seconds per route, scan runs,
# the db.json and catalog.json MB of the backup rows (bench/backup_bench.py), and the seconds of the
# open loop's 200/s runs (10 s give the library page and its API 100 requests each, so their p99 is
# not simply the slowest of 30), the page turns of the reader's row, the runs of its first page and
# of keeping a chapter offline.
SETTINGS = {
    "tiny": {"flush": (0.2, 1), "seconds": 0.5, "runs": 1, "users": 4, "backup": (1, 0.2), "open_loop": 0.5,
             "turns": 10, "first_pages": 2, "keeps": 1, "grid_runs": 1},
    "medium": {"flush": (2, 10), "seconds": 3, "runs": 3, "users": 16, "backup": (10, 2), "open_loop": 10,
               "turns": 40, "first_pages": 7, "keeps": 5, "grid_runs": 5},
    "large": {"flush": (2, 10), "seconds": 5, "runs": 3, "users": 16, "backup": (10, 2), "open_loop": 10,
              "turns": 40, "first_pages": 7, "keeps": 5, "grid_runs": 5},
    "xl": {"flush": (2, 10), "seconds": 5, "runs": 2, "users": 16, "backup": (10, 2), "open_loop": 10,
           "turns": 40, "first_pages": 7, "keeps": 5, "grid_runs": 5, "cbz": False},
}
FLUSH_LIMIT_MS = 50
# The table's sections, in the order they run. The library is generated and scanned for every one
# (the servers start on its snapshot); "files" adds the scan's own rows, the flushes and catalog.json.
SECTIONS = ("files", "server", "formats", "scraper", "apps", "backup", "peering", "import")


def typical_page(library):
    """A typical page of the tree (a baseline JPEG of the bulk manga), relative to LIBRARY."""
    pool = (Path(library).parent / "pool" / "page-baseline.jpg").stat().st_ino
    for manga in sorted(Path(library).iterdir()):
        for path in sorted(manga.rglob("*.jpg")):
            if path.stat().st_ino == pool:
                return str(path.relative_to(library))
    raise RuntimeError("no page of the generated library links to the pool's baseline JPEG")


def server_rows(work, library, index_pages, opts, say):
    """Start to browsable, the routes under load, and /lib/ against nginx."""
    server_cpus, client_cpus = serving.pinning()
    data, empty_data, handoff_data = work / "data", work / "data-empty", work / "data-handoff"
    empty_library = work / "empty-library"
    for folder in (empty_data, handoff_data, empty_library):
        shutil.rmtree(folder, ignore_errors=True)
    empty_library.mkdir()
    kept_thumbs = work / "thumbs-kept"  # the library does not change between runs, nor do its thumbnails
    if kept_thumbs.exists():
        shutil.copytree(kept_thumbs, data / "thumbs")
    say("setting up users and reading state")
    server = serving.start_server(data, library)
    try:
        clients = serving.make_users(server, opts["users"])
        serving.wait_for_library(clients[0], index_pages["manga"], 120)
        names = [m["name"] for m in clients[0].get("/api/library?limit=150")[2]["manga"]]
        for client in clients[:2]:
            serving.seed_reading(client, names)
        started = time.monotonic()
        made = serving.wait_for_thumbnails(data, index_pages["manga"])
        say(f"{made:,} cover thumbnails ready after {time.monotonic() - started:.0f} s more")
    finally:
        server.stop()
    shutil.rmtree(kept_thumbs, ignore_errors=True)
    if (data / "thumbs").exists():
        shutil.copytree(data / "thumbs", kept_thumbs)
    shutil.copytree(data, empty_data, ignore=shutil.ignore_patterns("library-index.json", "scan-cache.json",
                                                                       "thumbs", ".lock", "*.tmp"))
    shutil.copytree(data, handoff_data, ignore=shutil.ignore_patterns(".lock", "*.tmp"))
    cookies = [c.cookies["sid"] for c in clients]
    say("start to browsable")
    rows = [serving.start_row(data, library, empty_data, empty_library, cookies[0], index_pages["pages"],
                              server_cpus, opts["runs"])]
    server = serving.start_server(data, library, cpus=server_cpus, collectstatic=True)
    handoff_env = {"SENDFILE_HEADER": "x-accel-redirect", "SENDFILE_PREFIX": "/protected-library/",
                   "IMAGE_LINKS": "signed"}
    handoff = serving.start_server(handoff_data, library, cpus=server_cpus, env=handoff_env)
    try:
        at_start = library_scale.pss(server)  # started from the snapshot, answering
        say("routes under load")
        browsers = serving.browser_cookies(server, cookies)
        rows += serving.route_rows(server, browsers, generate.LONG, opts["seconds"], client_cpus,
                                   manga_count=index_pages["manga"])
        probe = serving.Client("127.0.0.1", server.port)
        probe.cookies["sid"] = cookies[0]
        rows.append(language_bench.row(server, probe, browsers[0], opts["seconds"], client_cpus))
        say("the library at scale: a filter, the page's HTML, the grid in the browser, the reader's memory")
        rows += library_scale.rows(server, probe, cookies[0], browsers[0], index_pages["manga"], opts["seconds"],
                                   client_cpus, at_start, runs=opts["grid_runs"])
        say("first page in the browser")
        chapter = serving.chapter_target(probe, generate.LONG)[0]
        rows.append(firstpage.row(server, cookies[0], generate.LONG, chapter, runs=opts["first_pages"]))
        rows.append(pageturn.row(server, cookies[0], generate.LONG, chapter, turns=opts["turns"]))
        say("open-loop household mix")
        admin = serving.Client("127.0.0.1", server.port)
        admin.cookies["sid"] = cookies[0]
        rows += household.rows(server, admin, browsers, generate.LONG, opts["seconds"], client_cpus,
                               window=opts["open_loop"])
        say("catalog: discovery and the manga page with relations")
        rows += catalog_bench.server_rows(server, admin, opts["seconds"], client_cpus)
        say("/lib/ against nginx")
        direct, via = serving.Client("127.0.0.1", server.port), serving.Client("127.0.0.1", handoff.port)
        direct.cookies["sid"] = via.cookies["sid"] = cookies[0]
        rows += proxy.lib_rows(library, typical_page(library), direct, via, opts["seconds"], 16, server_cpus,
                               client_cpus, handoff_data=handoff_data)
    finally:
        server.stop()
        handoff.stop()
    page = library / typical_page(library)
    _part(rows, say, "the manga page of a long series",
          lambda: manga_page_bench.rows(work, page, opts["seconds"], server_cpus, client_cpus))
    _part(rows, say, "2 libraries and 50 collections",
          lambda: libraries_bench.rows(work, library, data, cookies[0], index_pages["manga"], opts["seconds"],
                                       server_cpus, client_cpus))
    _part(rows, say, "/lib/ from a CBZ",
          lambda: archives.lib_rows(work, library, typical_page(library), opts["seconds"], 16, server_cpus,
                                    client_cpus))
    _part(rows, say, "keeping a chapter offline in the browser",
          lambda: [offline_bench.row(work, page, runs=opts["keeps"])])
    return rows


def _part(rows, say, title, make):
    """One part of the table that runs servers of its own: its rows, or a row saying why it failed,
    so that a failure late in a long run (the xl preset's takes 15 minutes) keeps the table."""
    say(title)
    try:
        rows += make()
    except Exception as e:  # a broken part is a row of the table, not the end of the run
        say(f"{title}: failed: {type(e).__name__}: {e}")
        rows.append(skipped(title, f"failed: {type(e).__name__}: {e}"[:300]))


def main(argv=None):
    parser = argparse.ArgumentParser(prog=".venv/bin/python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=sorted(generate.PRESETS), default="large")
    parser.add_argument("--dir", help="working folder (default bench/out/<preset>)")
    parser.add_argument("--seconds", type=float, help="load seconds per route and concurrency")
    parser.add_argument("--runs", type=int, help="alternating runs of each scan and its raw floor")
    parser.add_argument("--quiet", action="store_true", help="print only the table")
    parser.add_argument("--only", action="append", choices=SECTIONS,
                        help="run only this section of the table (repeat it for more); all by default")
    args = parser.parse_args(argv)
    want = set(args.only or SECTIONS)
    opts = dict(SETTINGS[args.preset])
    if args.seconds:
        opts["seconds"] = args.seconds
    if args.runs:
        opts["runs"] = args.runs
    work = Path(args.dir or generate.OUT / args.preset).resolve()
    began, load = time.monotonic(), os.getloadavg()
    say = (lambda text: None) if args.quiet else (
        lambda text: print(f"[{time.monotonic() - began:6.1f} s] {text}", file=sys.stderr, flush=True))

    say(f"library ({args.preset})")
    library, counts, seconds = generate.generate(work, args.preset)
    library = library.resolve()
    say(f"full scan ×{opts['runs']}, against the raw walk")
    rows = []
    row, index, report = scanning.full_scan(library, opts["runs"])
    if "files" in want:
        rows.append(row)
        say("shallow check")
        rows.append(scanning.shallow_check(library, index, opts["runs"] * 5))
        say("full scan with rename detection")
        rows.append(scanning.rename_scan(library, index, work / "data-renames", opts["runs"]))
        if opts.get("cbz", True):
            say("the same pages as CBZ archives: full scan and rescan")
            cbz_root, _archives = archives.cbz_copy(library, work / "cbz")
            rows += archives.scan_rows(library, cbz_root, opts["runs"])
        else:  # a copy of every page in archives: 180 GB at a million pages
            why = f"no CBZ copy of the {args.preset} preset's pages (a second copy of every page: 180 GB at xl)"
            rows += [skipped(name, why) for name in archives.ROWS]
    data = work / "data"
    shutil.rmtree(data, ignore_errors=True)
    snapshot_path = scanning.save_snapshot(data, index, library)
    index_counts = report["counts"]
    del index
    if "files" in want:
        say("index memory")
        rows.append(scanning.index_memory(snapshot_path, library, index_counts["pages"]))
        say("db.json flush")
        sizes = opts["flush"]
        for mb in sizes:
            rows.append(dbflush.flush_row(work / "flush", mb, 9, FLUSH_LIMIT_MS if mb == sizes[-1] else None))
        say("catalog.json load and flush")
        rows += catalog_bench.file_rows(work / "catalog")
    if "server" in want:
        rows += server_rows(work, library, index_counts, opts, say)
    if "formats" in want:
        say("the same pages as CB7, CBT, PDF and RAR: full scans and /lib/")
        roots, chapters = formats.copies(work, library)
        rows += formats.scan_rows(roots, opts["runs"])
        rows += formats.lib_rows(work, roots, chapters, opts["seconds"], 16, *serving.pinning())
    if "scraper" in want:
        rows += scraper_bench.rows(say)
    if "apps" in want:
        say("reading apps (/komga/)")
        rows += apps_bench.apps_rows(work, opts["seconds"], *serving.pinning(), say)
    if "backup" in want:
        db_mb, catalog_mb = opts["backup"]
        rows += backup_bench.backup_rows(work, db_mb, catalog_mb, seconds=max(2.0, opts["seconds"] * 2), say=say)
    if "peering" in want:
        rows.append(peering.transfer_row(work, say))
    if "import" in want:
        rows += import_bench.rows(say)

    header = (f"MangaCircus benchmark, preset {args.preset}: {index_counts['manga']:,} manga, "
              f"{index_counts['chapters']:,} chapters, {index_counts['pages']:,} pages"
              f"{f' (generated in {seconds:.1f} s)' if seconds else ''}\n"
              f"machine: {machine(load)}\n"
              f"load: {'wrk' if loadgen.WRK else 'Python client (wrk not installed: apt-get install wrk)'}"
              f"{', pinned to CPU ' + serving.CLIENT_CPUS + ', server on CPU 0' if serving.pinning()[0] else ''}; "
              f"nginx: {proxy.NGINX or 'not installed'}; {time.monotonic() - began:.0f} s in all")
    print(table(rows, header))
    growth.save(work, args.preset, index_counts["pages"], rows)
    if work.is_relative_to(generate.OUT.resolve()):  # beside the other presets' runs
        grown = growth.table(growth.load())
        if grown:
            print("\n" + grown)
    return rows


if __name__ == "__main__":
    main()
