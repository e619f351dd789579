"""Formats beside CBZ: each figure against the same pages as stored CBZ files, in the same run.

- full scan of the same chapters as CB7 (7z, solid), CBT (tar) and PDF (JPEG pages, Pillow)
  against their stored CBZ copy (best of `runs`, turn about); and of RAR, from Komga's test
  archives (tests/library/fixtures/komga: no RAR writer installs here), `ARCHIVES` copies of a
  non-solid RAR4 and of a solid RAR5 against CBZ files of the same three pages;
- /lib/ for a page of a non-solid RAR against the same page in a stored CBZ (16 clients);
- a page of a solid archive (7z): the first (the page cache unpacks the archive, as the chapter's
  first open does to measure its pages) and a later one (from the page cache) against the same
  page in a stored CBZ;
- a PDF page rendered (once, then from the page cache) against the same page in a stored CBZ.

    python -m bench.formats [--preset tiny] [--runs 3] [--seconds 3]
"""
import argparse
import io
import os
import shutil
import statistics
import time
import zipfile
from pathlib import Path
from urllib.parse import quote

import libarchive
from PIL import Image

from library.names import is_page
from library.scan import Scan

from . import generate, loadgen, serving
from .report import Row, table, target
from .scanning import alternate

KOMGA = Path(__file__).resolve().parent.parent / "tests" / "library" / "fixtures" / "komga"
CHAPTERS = 60  # chapters of the generated library written in each format
ARCHIVES = 200  # copies of each RAR fixture


def _chapters(library):
    """[(manga, chapter folder, [page paths])] of the first CHAPTERS chapter folders."""
    found = []
    for folder, dirs, files in os.walk(library):
        dirs.sort()
        rel = Path(folder).relative_to(library)
        pages = sorted(f for f in files if is_page(f))
        if len(rel.parts) >= 2 and pages:
            found.append((rel.parts[0], rel.name, [Path(folder) / p for p in pages]))
            if len(found) >= CHAPTERS:
                break
    return found


def _write(fmt, path, pages):
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "cbz":
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
            for p in pages:
                z.write(p, p.name)
    elif fmt == "pdf":
        images = [Image.open(p).convert("RGB") for p in pages]
        images[0].save(path, save_all=True, append_images=images[1:], quality=90)
    else:
        with libarchive.file_writer(str(path), "7zip" if fmt == "cb7" else "ustar") as archive:
            for p in pages:
                data = p.read_bytes()
                archive.add_file_from_memory(p.name, len(data), data)


def copies(work, library):
    """{format: library root} of the same chapters as stored CBZ, CB7, CBT and PDF; and RAR trees."""
    out = work / "formats"
    shutil.rmtree(out, ignore_errors=True)
    roots = {}
    chapters = _chapters(library)
    for fmt in ("cbz", "cb7", "cbt", "pdf"):
        root = roots[fmt] = out / fmt
        for manga, chapter, pages in chapters:
            _write(fmt, root / manga / f"{chapter}.{fmt}", pages)
    pages = _fixture_pages(KOMGA / "rar4.rar", out / "rar-pages")
    for kind, source in (("rar", KOMGA / "rar4.rar"), ("rar-solid", KOMGA / "rar5-solid.rar")):
        root = roots[kind] = out / kind
        (root / "Komga").mkdir(parents=True)
        for n in range(1, ARCHIVES + 1):
            shutil.copy(source, root / "Komga" / f"c{n:04d}.cbr")
    root = roots["rar-cbz"] = out / "rar-cbz"
    for n in range(1, ARCHIVES + 1):
        _write("cbz", root / "Komga" / f"c{n:04d}.cbz", pages)
    return roots, chapters


def _fixture_pages(path, folder):
    """The pages of one of Komga's archives, written into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    found = []
    with libarchive.file_reader(str(path)) as archive:
        for entry in archive:
            target_path = folder / entry.pathname
            target_path.write_bytes(b"".join(entry.get_blocks()))
            found.append(target_path)
    return sorted(found)


def _full(root):
    index, report = Scan(root, None, "full").run()
    assert not report["error"], report["error"]
    return report["counts"]["pages"]


def scan_rows(roots, runs):
    rows = []
    for fmt, base, name, want in (("cb7", "cbz", "CB7 (7z, solid)", 0.3), ("cbt", "cbz", "CBT (tar)", 0.3),
                                  ("pdf", "cbz", "PDF", 0.2), ("rar", "rar-cbz", "CBR (RAR4)", 0.3),
                                  ("rar-solid", "rar-cbz", "CBR (RAR5, solid)", 0.3)):
        (t_base, t_fmt), (base_pages, pages) = alternate(lambda b=base: _full(roots[b]),
                                                         lambda f=fmt: _full(roots[f]), runs)
        assert pages == base_pages, (fmt, pages, base_pages)
        rate, base_rate = pages / t_fmt, pages / t_base
        rows.append(Row(f"full scan, {name}", value=rate, shown=f"{rate:,.0f} pages/s ({t_fmt:.2f} s)",
                        baseline=f"same pages as stored CBZ {base_rate:,.0f} pages/s", ratio=rate / base_rate,
                        target=target(f"ratio >= {want} | ≥ {want}× CBZ"),
                        note=("solid: the directory only, the sizes are measured at the first open"
                              if fmt in ("cb7", "rar-solid") else None)))
    return rows


def _latency(client, path, times=1):
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        status, _headers, _body = client.get(path)
        spent.append((time.perf_counter() - started) * 1000)
        assert status == 200, (path, status)
    return statistics.median(spent)


def lib_rows(work, roots, chapters, seconds, clients, server_cpus, client_cpus):
    """/lib/ rows: a page of a non-solid RAR, of a solid 7z (first and later) and of a PDF."""
    tree = work / "formats-served"
    shutil.rmtree(tree, ignore_errors=True)
    manga, chapter, pages = chapters[0]
    for fmt in ("cbz", "cb7", "pdf"):
        shutil.copy(roots[fmt] / manga / f"{chapter}.{fmt}", _mk(tree / fmt.upper()) / f"{chapter}.{fmt}")
    # the same pages in palette mode: Pillow writes them Flate-compressed, so PDFium renders them
    drawn = [Image.open(p).convert("P") for p in pages]
    drawn[0].save(_mk(tree / "PDFDRAWN") / f"{chapter}.pdf", save_all=True, append_images=drawn[1:])
    # the baseline of the rendered page: the same JPEG, drawn the same way, as a page in a folder
    rendered = _mk(tree / "RENDERED" / "c0001")
    (rendered / "0001.jpg").write_bytes(_drawn(tree / "PDFDRAWN" / f"{chapter}.pdf", len(pages) - 1))
    shutil.copy(roots["rar"] / "Komga" / "c0001.cbr", _mk(tree / "RAR") / "c0001.cbr")
    shutil.copy(roots["rar-cbz"] / "Komga" / "c0001.cbz", _mk(tree / "RARCBZ") / "c0001.cbz")
    data = work / "data-formats"
    shutil.rmtree(data, ignore_errors=True)
    server = serving.start_server(data, tree, cpus=server_cpus)
    try:
        client = server.client().signup("admin", serving.PASSWORD)
        serving.wait_for_library(client, 7, 60)
        serving.wait_for_thumbnails(data, 7, timeout=60, idle=2)
        first, later = pages[0].name, pages[-1].name
        lib = lambda folder, archive, member: "/lib/" + quote(f"{folder}/{archive}/{member}")  # noqa: E731
        cbz_page = lib("CBZ", f"{chapter}.cbz", later)
        cookies = [client.cookies["sid"]]
        load = lambda path: loadgen.run(server.url, path, cookies=cookies, clients=clients,  # noqa: E731
                                        seconds=seconds, cpus=client_cpus)
        rar_name = sorted(p.name for p in _fixture_pages(KOMGA / "rar4.rar", work / "rar-pages"))[0]
        rar, rar_cbz = load(lib("RAR", "c0001.cbr", rar_name)), load(lib("RARCBZ", "c0001.cbz", rar_name))
        # the thumbnails read each archive's first page: the later page of the 7z may be unpacked already
        shutil.rmtree(data / "page-cache", ignore_errors=True)
        cold_7z = _latency(client, lib("CB7", f"{chapter}.cb7", later))
        cbz_latency = _latency(client, cbz_page, 5)
        seven, cbz = load(lib("CB7", f"{chapter}.cb7", first)), load(cbz_page)
        pdf_member = f"{len(pages):04d}.jpg"
        cold_own = _latency(client, lib("PDF", f"{chapter}.pdf", pdf_member))
        cold_pdf = _latency(client, lib("PDFDRAWN", f"{chapter}.pdf", pdf_member))
        pdf = load(lib("PDFDRAWN", f"{chapter}.pdf", pdf_member))
        drawn_file = load("/lib/" + quote("RENDERED/c0001/0001.jpg"))
    finally:
        server.stop()
    row = lambda label, got, base, base_label, want, note=None: Row(  # noqa: E731
        label, value=got["rps"], shown=f"{got['rps']:,.0f}/s · p99 {got['p99']:.3g} ms",
        baseline=f"{base_label} {base['rps']:,.0f}/s · p99 {base['p99']:.3g} ms", ratio=got["rps"] / base["rps"],
        target=target(f"ratio >= {want} | ≥ {want}× {'file' if 'folder' in base_label else 'CBZ'}"), note=note)
    return [
        row(f"/lib/ page of a non-solid RAR, {clients} clients", rar, rar_cbz, "same page in a stored CBZ", 0.5,
            "Komga's rar4.rar: 3 pages of 48×48"),
        Row("/lib/ solid 7z, first page (unpacks it)", value=cold_7z, shown=f"{cold_7z:.1f} ms",
            baseline=f"same page in a stored CBZ {cbz_latency:.1f} ms", ratio=cold_7z / cbz_latency,
            note=f"the whole chapter ({len(pages)} pages) is unpacked into the page cache"),
        row(f"/lib/ solid 7z, a later page, {clients} clients", seven, cbz, "same page in a stored CBZ", 0.8),
        Row("/lib/ PDF page of one JPEG, first asked", value=cold_own, shown=f"{cold_own:.1f} ms",
            baseline=f"same page in a stored CBZ {cbz_latency:.1f} ms", ratio=cold_own / cbz_latency,
            note="a JPEG covering its page box is served as it is, never re-encoded"),
        Row("/lib/ PDF page, first asked (rendered)", value=cold_pdf, shown=f"{cold_pdf:.1f} ms",
            baseline=f"same page in a stored CBZ {cbz_latency:.1f} ms", ratio=cold_pdf / cbz_latency,
            note="drawn by PDFium, 1,600 pixels wide, then kept in the page cache"),
        row(f"/lib/ PDF page from the cache, {clients} clients", pdf, drawn_file, "the same JPEG in a folder",
            0.8, "a rendered page is 1,600 pixels wide, larger than the CBZ's, so its baseline is itself as a file"),
    ]


def _drawn(pdf_path, index):
    """The JPEG the reader makes of page `index` (library/pdfread.py's size and quality)."""
    from library import pdfread
    pdf = pdfread._pdfium().PdfDocument(str(pdf_path))
    page = pdf[index]
    width, height = page.get_size()
    w, _ = pdfread._render_size(width, height)
    image = page.render(scale=w / width, may_draw_forms=False).to_pil()
    page.close()
    pdf.close()
    out = io.BytesIO()
    image.convert("RGB").save(out, "JPEG", quality=pdfread.JPEG_QUALITY)
    return out.getvalue()


def _mk(path):
    path.mkdir(parents=True, exist_ok=True)
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", choices=sorted(generate.PRESETS), default="tiny")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3)
    args = parser.parse_args(argv)
    work = Path("bench/out") / f"formats-{args.preset}"
    library, _counts, _seconds = generate.generate(work, args.preset)
    roots, chapters = copies(work, library)
    server_cpus, client_cpus = serving.pinning()
    rows = scan_rows(roots, args.runs) + lib_rows(work, roots, chapters, args.seconds, 16, server_cpus, client_cpus)
    print(table(rows, f"MangaCircus formats, preset {args.preset}"))


if __name__ == "__main__":
    main()
