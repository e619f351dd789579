"""Archive figures: the generated library's pages as stored CBZ files (one per chapter folder)
against the same pages as folders, in the same run.

- full scan of the CBZ copy against the full scan of the folders (best of `runs`, turn about), and
  against the raw cost of listing the same archives' central directories with the standard
  library's zipfile (the least any reader of ZIP files does, without a page header);
- a rescan of the CBZ copy with nothing changed (full with the scan cache, and shallow): the
  number of archives opened, which must be 0;
- /lib/ for one page stored in a CBZ against the same page in a folder, from one real `serve`.

    python -m bench.archives [--preset medium] [--runs 3] [--seconds 3]
"""
import argparse
import json
import os
import shutil
import time
import zipfile
from pathlib import Path
from urllib.parse import quote

from library.names import is_page
from library.scan import Scan

from . import generate, loadgen, serving
from .generate import Linker
from .report import Row, table, target
from .scanning import alternate

# The rows of scan_rows(), in its order.
ROWS = ("full scan, stored CBZ per chapter", "full scan, CBZ vs listing", "rescan of the CBZ copy, nothing changed")


def cbz_copy(library, out):
    """The library with every folder of pages below a manga folder written as a stored CBZ beside
    it (`c0001 Seeds/` → `c0001 Seeds.cbz`); manga.json and covers linked; (root, archives)."""
    marker = out / "made.json"
    source = str(Path(library).resolve())
    if marker.exists() and json.loads(marker.read_text()).get("source") == source:
        return out / "library", json.loads(marker.read_text())["archives"]
    shutil.rmtree(out, ignore_errors=True)
    root, count = out / "library", 0
    for folder, dirs, files in os.walk(library):
        rel = Path(folder).relative_to(library)
        dirs.sort()
        pages = sorted(f for f in files if is_page(f))
        if len(rel.parts) >= 2 and pages:
            target = root / rel.parent / f"{rel.name}.cbz"
            target.parent.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as z:
                for name in pages:
                    z.write(Path(folder) / name, name)
            count += 1
        elif len(rel.parts) == 1:
            (root / rel).mkdir(parents=True, exist_ok=True)
            for name in files:
                os.link(Path(folder) / name, root / rel / name)
    marker.write_text(json.dumps({"source": source, "archives": count}))
    return root, count


def _archives(root):
    return [os.path.join(d, f) for d, _dirs, files in os.walk(root) for f in files if f.endswith(".cbz")]


def raw_listing(paths):
    """Members listed from every archive's central directory (zipfile), no page read."""
    members = 0
    for path in paths:
        with zipfile.ZipFile(path) as z:
            members += len(z.infolist())
    return members


def scan_rows(library, cbz_root, runs):
    paths = _archives(cbz_root)
    full = lambda root: Scan(root, None, "full").run()  # noqa: E731
    raw_listing(paths)  # bring the archives' directories into the page cache first
    (t_folders, t_cbz), ((folders, f_report), (cbz, c_report)) = alternate(
        lambda: full(library), lambda: full(cbz_root), runs)
    (t_raw, _t), (members, _r) = alternate(lambda: raw_listing(paths), lambda: None, runs)
    pages, c_pages = f_report["counts"]["pages"], c_report["counts"]["pages"]
    assert c_pages == pages and not c_report["error"], (c_pages, pages, c_report["error"])
    folder_rate, cbz_rate, raw_rate = pages / t_folders, pages / t_cbz, members / t_raw
    rows = [
        Row("full scan, stored CBZ per chapter", value=cbz_rate,
            shown=f"{cbz_rate:,.0f} pages/s ({t_cbz:.2f} s, {len(paths):,} archives)",
            baseline=f"same pages as folders {folder_rate:,.0f} pages/s", ratio=cbz_rate / folder_rate,
            target=target("ratio >= 0.5 | ≥ 0.5× folders")),
        Row("full scan, CBZ vs listing", value=cbz_rate, shown=f"{cbz_rate:,.0f} pages/s",
            baseline=f"zipfile central directories {raw_rate:,.0f} members/s", ratio=cbz_rate / raw_rate,
            note="the listing reads no page header; the scan reads each page's first bytes"),
    ]
    scanner = Scan(cbz_root, None, "full")
    index, _report = scanner.run()
    best = {}

    def again(kind, root, previous, cache):
        started = time.perf_counter()
        _new, report = Scan(root, previous, kind, cache=cache).run()
        best[(kind, root)] = min(best.get((kind, root), float("inf")), time.perf_counter() - started)
        return report["work"]["archives"]

    folder_scan = Scan(library, None, "full")
    folder_index, _report = folder_scan.run()
    opened = 0
    for _ in range(runs):
        opened += again("full", cbz_root, index, scanner.new_cache) + again("shallow", cbz_root, index, None)
        again("full", library, folder_index, folder_scan.new_cache)
    t_full, t_shallow, t_folder = best[("full", cbz_root)], best[("shallow", cbz_root)], best[("full", library)]
    rows.append(Row(
        "rescan of the CBZ copy, nothing changed", value=opened,
        shown=f"{opened} archives opened · full {t_full * 1000:,.0f} ms · shallow {t_shallow * 1000:,.1f} ms",
        baseline=f"folders, full with cache {t_folder * 1000:,.0f} ms", ratio=t_full / t_folder,
        target=target("value <= 0 | none opened"),
    ))
    return rows


def lib_rows(work, library, page_rel, seconds, clients, server_cpus, client_cpus):
    """/lib/ for one page stored in a CBZ against the same page in a folder, on one server."""
    chapter = (Path(library) / page_rel).parent
    tree = work / "lib-archive"
    shutil.rmtree(tree, ignore_errors=True)
    (tree / "Folder" / chapter.name).mkdir(parents=True)
    pages = sorted(f for f in os.listdir(chapter) if is_page(f))
    link = Linker(work / "lib-archive-spare")
    for name in pages:
        link(chapter / name, tree / "Folder" / chapter.name / name)
    (tree / "Archive").mkdir()
    with zipfile.ZipFile(tree / "Archive" / f"{chapter.name}.cbz", "w", zipfile.ZIP_STORED) as z:
        for name in pages:
            z.write(chapter / name, name)
    data = work / "data-archive"
    shutil.rmtree(data, ignore_errors=True)
    server = serving.start_server(data, tree, cpus=server_cpus)
    try:
        client = server.client().signup("admin", serving.PASSWORD)
        serving.wait_for_library(client, 2, 60)
        serving.wait_for_thumbnails(data, 2, timeout=60, idle=2)
        name = Path(page_rel).name
        paths = {"folder": "/lib/" + quote(f"Folder/{chapter.name}/{name}"),
                 "archive": "/lib/" + quote(f"Archive/{chapter.name}.cbz/{name}")}
        size = (chapter / name).stat().st_size
        for path in paths.values():
            status, _headers, body = client.get(path)
            assert status == 200 and len(body) == size, (path, status)
        cookies = [client.cookies["sid"]]
        result = {}
        for kind, path in paths.items():
            result[kind] = loadgen.run(server.url, path, cookies=cookies, clients=clients, seconds=seconds,
                                       cpus=client_cpus)
    finally:
        server.stop()
    folder, archive = result["folder"], result["archive"]
    return [Row(
        f"/lib/ image from a stored CBZ, {clients} clients", value=archive["rps"],
        shown=f"{archive['rps']:,.0f}/s · p99 {archive['p99']:.3g} ms",
        baseline=f"same page from a folder {folder['rps']:,.0f}/s · p99 {folder['p99']:.3g} ms",
        ratio=archive["rps"] / folder["rps"], target=target("ratio >= 0.7 | ≥ 0.7× folder"),
        note=f"one {size / 1000:.0f} KB page: {page_rel}",
    )]


def main(argv=None):
    from .__main__ import typical_page

    parser = argparse.ArgumentParser(prog="python -m bench.archives", description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=sorted(generate.PRESETS), default="medium")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3)
    args = parser.parse_args(argv)
    work = (generate.OUT / args.preset).resolve()
    library, _counts, _seconds = generate.generate(work, args.preset)
    library = library.resolve()
    cbz_root, _count = cbz_copy(library, work / "cbz")
    rows = scan_rows(library, cbz_root, args.runs)
    server_cpus, client_cpus = serving.pinning()
    rows += lib_rows(work, library, typical_page(library), args.seconds, 16, server_cpus, client_cpus)
    print(table(rows, f"MangaCircus archives, preset {args.preset}"))


if __name__ == "__main__":
    main()
