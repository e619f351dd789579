"""`python -m bench` on the tiny preset, a section at a time: the table prints with every row, so the
benchmark cannot rot.

The figures of a tiny library mean nothing; only the shape is checked here. A row may carry a note
instead of a figure when what it measures is missing (nginx not installed), never silently.
"""
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parent.parent

# Each section of the table (bench/__main__.py SECTIONS), its rows and the targets it prints; one
# test a section, so the sections run side by side on the suite's workers.
SECTIONS = {
    "files": (["full scan, new library", "shallow check, nothing changed", "full scan with rename detection",
               "index memory (tracemalloc)",
               "db.json flush, 0.2 MB", "db.json flush, 1 MB",
               "catalog.json load, 10k rel. + 1k groups", "catalog.json flush, 10k rel. + 1k groups",
               "full scan, stored CBZ per chapter", "full scan, CBZ vs listing",
               "rescan of the CBZ copy, nothing changed"],
              ("≥ 0.6× raw", "≤ 2× raw", "≤ 1.1× scan", "≤ 60 B/page", "≤ 50 ms", "≥ 0.5× folders",
               "none opened")),
    "server": (["GET /api/discovery, a quarter read", "manga page, 20 relations", "start to first 200 of /api/library",
                *(f"{route}, {n}" for n in ("1 client", "16 clients")
                  for route in ("GET /api/chapter", "POST /api/progress", "GET /api/library", "GET / (library page)")),
                "/lib/ image, gunicorn alone, 16 clients", "/lib/ image, nginx + hand-off, 16 clients",
                "/lib/ signed link, nginx, 16 clients", "/thumb/ cover, link cookies, 16 clients",
                "/lib-thumb/ page thumbnail, 16 clients",
                "reader: navigation to first page painted", "reader: preloaded page turn, key to frame",
                *(f"open loop 200/s: {route}" for route in ("GET /lib/ page", "POST /api/progress", "GET /api/chapter",
                                                            "GET /api/library", "GET / (library page)")),
                "open loop: rate where p99 passes 100 ms", "open loop 200/s, full scans: worst p99",
                "/lib/ image from a stored CBZ, 16 clients",
                "/api/library, 2 libraries, 50 collections", "library page, 2 libraries, 50 collections",
                *(f"{route}, {n} chapters, {when}" for n in ("60", "1,200")
                  for route in ("manga page", "/api/manga") for when in ("1 client", "after a write")),
                "offline: keep a 40-page chapter",
                "library filter over all manga, 1 client", "library page HTML, first page",
                "library grid: first 120 tiles painted", "library grid: Show more, next 120",
                "reader PSS after the load", "library page in Japanese, 1 client"],
               ("p99 ≤ 10 ms", "≤ 2× calm", "≤ 180 ms", "p95 ≤ 16 ms", "≤ 1.5 s", "p99 ≤ 25 ms", "p50 ≤ 1.5 ms",
                "≥ 0.8× nginx", "≥ 0.7× folder", "≤ 1.1× single", "p50 ≤ 5.0 ms",
                "≤ 1.5× fetch", "p50 ≤ 20 ms", "≤ 2 MB", "≤ 200 ms", "≤ 300 MB", "≤ 1.1× English")),
    "formats": ([*(f"full scan, {name}" for name in ("CB7 (7z, solid)", "CBT (tar)", "PDF", "CBR (RAR4)",
                                                     "CBR (RAR5, solid)")),
                 "/lib/ page of a non-solid RAR, 16 clients", "/lib/ solid 7z, first page (unpacks it)",
                 "/lib/ solid 7z, a later page, 16 clients", "/lib/ PDF page of one JPEG, first asked",
                 "/lib/ PDF page, first asked (rendered)", "/lib/ PDF page from the cache, 16 clients"],
                ("≥ 0.3× CBZ", "≥ 0.2× CBZ", "≥ 0.5× CBZ", "≥ 0.8× CBZ", "≥ 0.8× file")),
    "scraper": (["MangaDex requests/page, 40 pages", "MangaDex requests/page, 30 % 5xx",
                 "MangaDex parser, 1,234-chapter feed", "MangaDex request gaps, p5 vs pace"], ("≤ 2.2 a page",)),
    "apps": (["/komga/ books?unpaged, 1,000 chapters", "/komga/ page image, 16 clients",
              "/komga/ page, Basic on every request"], ("≥ 0.9× /lib/", "≤ 1.2× cookie")),
    "backup": (["backup run, 1 MB db + 0.2 MB catalog", "POST /api/progress p99, 50/s, backups"], ("≤ 2× no backup",)),
    "peering": (["peer transfer, 200-page chapter, pacing 0"], ("≥ 0.5× /lib/",)),
    "import": (["Komga import, 10,000 progress rows"], ("≤ 10 s",)),
}


def test_every_section_of_the_benchmark_is_checked_here():
    from bench.__main__ import SECTIONS as RUN

    assert tuple(SECTIONS) == RUN


@pytest.mark.parametrize("section", list(SECTIONS))
def test_it_prints_every_row_of_each_section_of_the_table(tmp_path, section):
    rows, targets = SECTIONS[section]
    # 0.2 s of load a route (tiny: 0.5): the shape of the table is checked here, not the figures
    run = subprocess.run([sys.executable, "-m", "bench", "--preset", "tiny", "--dir", str(tmp_path), "--quiet",
                          "--seconds", "0.2",
                          "--only", section], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    assert out.startswith("MangaCircus benchmark, preset tiny"), out[:500]
    lines = {line.split("  ")[0]: line for line in out.splitlines()}
    for name in rows:
        assert name in lines, f"row {name!r} missing from:\n{out}"
        line = lines[name]
        # A figure with its baseline and ratio, or n/a with a numbered note explaining why.
        assert re.search(r"\d+\.\d\d×", line) or re.search(r"n/a\s+\[\d+\]$", line), line
    for target in targets:
        assert target in out, f"target {target!r} not printed"
    others = {name for other, (names, _) in SECTIONS.items() if other != section for name in names}
    assert not others & set(lines), f"rows of other sections printed: {sorted(others & set(lines))}"


def test_it_prints_the_slow_clients_table():
    run = subprocess.run([sys.executable, "-m", "bench.slowclients", "--slow", "20", "--seconds", "0.5", "--runs", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    out = run.stdout
    assert out.startswith("MangaCircus slow clients: 20 connections"), out[:500]
    for who in ("20 slow clients", "20 slow bodies"):
        for name in (f"probe p50, {who}", f"probe p99, {who}", f"/lib/ image, 4 clients, {who}",
                     f"worker CPU per image, {who}", f"worker CPU, {who} alone"):
            assert name in out, f"row {name!r} missing from:\n{out}"
    assert "≤ 2× calm" in out and "≥ 0.9× calm" in out and "≤ 1.11× calm" in out
