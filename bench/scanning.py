"""Scan figures, in this process: a full scan of a new library and a shallow check with nothing
changed, each against the raw system-call floor of the same work; the index's bytes per page.

The raw floors are what any scanner must do at least, written as tightly as Python allows:
- full: one walk with os.scandir, a stat of every entry and a header-only size read
  (library.imagesize) of every page;
- shallow: a stat of every directory, from a list made beforehand.
Runs alternate (raw, scan, raw, scan …) and the best of each is kept, so a burst of other work
on the machine hits both sides alike.
"""
import gc
import os
import shutil
import time
import tracemalloc

from library import imagesize, snapshot
from library.names import is_ignored, is_page
from library.scan import Scan

from .report import Row, target


def raw_walk(root):
    """(pages, directories): scandir + stat of every entry + header read of every page."""
    pages, dirs, stack = 0, 1, [root]
    size, stat = imagesize.size, os.stat
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in it:
                if is_ignored(e.name):
                    continue
                stat(e.path)
                if e.is_dir(follow_symlinks=False):
                    stack.append(e.path)
                    dirs += 1
                elif is_page(e.name):
                    size(e.path)
                    pages += 1
    return pages, dirs


def directories(root):
    found, stack = [root], [root]
    while stack:
        with os.scandir(stack.pop()) as it:
            for e in it:
                if not is_ignored(e.name) and e.is_dir(follow_symlinks=False):
                    found.append(e.path)
                    stack.append(e.path)
    return found


def raw_stats(paths):
    stat = os.stat
    for path in paths:
        stat(path)


def _timed(fn, *args):
    started = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - started, result


def alternate(first, second, runs):
    """Best time of each of two callables run turn about `runs` times, and their last results."""
    best = [float("inf"), float("inf")]
    results = [None, None]
    for _ in range(runs):
        for i, fn in enumerate((first, second)):
            elapsed, results[i] = _timed(fn)
            best[i] = min(best[i], elapsed)
    return best, results


def full_scan(root, runs):
    """The full-scan row and the index it built."""
    raw_walk(root)  # bring the tree into the page cache before either side is timed
    (t_raw, t_scan), ((files, _dirs), (index, report)) = alternate(
        lambda: raw_walk(root), lambda: Scan(root, None, "full").run(), runs)
    pages = report["counts"]["pages"]
    scan_rate, raw_rate = pages / t_scan, files / t_raw
    row = Row(
        "full scan, new library", value=scan_rate,
        shown=f"{scan_rate:,.0f} pages/s ({t_scan:.2f} s)",
        baseline=f"raw walk+stat+header {raw_rate:,.0f} pages/s", ratio=scan_rate / raw_rate,
        target=target("ratio >= 0.6 | ≥ 0.6× raw"),
    )
    return row, index, report


def shallow_check(root, index, runs):
    paths = directories(root)
    (t_raw, t_scan), (_, (new, report)) = alternate(
        lambda: raw_stats(paths), lambda: Scan(root, index, "shallow").run(), runs)
    assert report["error"] is None and not any(report["changed"].values()), report["changed"]
    return Row(
        "shallow check, nothing changed", value=t_scan * 1000,
        shown=f"{t_scan * 1000:.1f} ms ({report['work']['stats']:,} stats)",
        baseline=f"raw stat of {len(paths):,} dirs {t_raw * 1000:.1f} ms", ratio=t_scan / t_raw,
        target=target("ratio <= 2 | ≤ 2× raw"),
    )


def index_memory(snapshot_path, root, pages):
    """Bytes the restored index keeps per page (tracemalloc), against the page names and sizes alone."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    restored, _last_full, why = snapshot.load(snapshot_path, root)
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    if restored is None:
        raise RuntimeError(f"the snapshot cannot be restored: {why}")
    raw = sum(len(f.encode()) + 4 for m in restored.manga.values() for v in m.versions() for f in v.files())
    per_page, raw_per_page = kept / pages, raw / pages
    return Row(
        "index memory (tracemalloc)", value=per_page,
        shown=f"{per_page:.1f} B/page ({kept / 1e6:.1f} MB)",
        baseline=f"page names + 4 B of size {raw_per_page:.1f} B/page", ratio=per_page / raw_per_page,
        target=target("value <= 60 | ≤ 60 B/page"),
    )


def save_snapshot(data, index, root):
    """Write DATA/library-index.json as the reader would after a full scan just now."""
    data.mkdir(parents=True, exist_ok=True)
    path = data / "library-index.json"
    snapshot.save(path, index, root, int(time.time() * 1000))
    return path


def rename_scan(root, index, data, runs):
    """The full scan of the library with a tenth of its manga folders renamed since `index`, with
    rename detection (library/renames.py: recognised, recorded in manga-ids.json) against the same
    scan without it, turn about; the folders get their names back after."""
    from library import ids, renames

    names = sorted(index.manga)[::10]
    moved = {name: f"{name} (renamed)" for name in names}
    for old, new in moved.items():
        os.rename(os.path.join(root, old), os.path.join(root, new))
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    ids.STATE.open(data)
    found = []
    try:
        def detected():
            new, report = Scan(root, index, "full").run()
            renames.apply(index, new, report)
            found.append(len(report["renamed"]))

        (t_plain, t_detect), _ = alternate(lambda: Scan(root, index, "full").run(), detected, runs)
    finally:
        ids.STATE.close()
        for old, new in moved.items():
            os.rename(os.path.join(root, new), os.path.join(root, old))
    assert found and found[0] == len(moved), (found, len(moved))
    return Row("full scan with rename detection", value=t_detect,
               shown=f"{t_detect * 1000:,.0f} ms, {found[0]:,} renames",
               baseline=f"the same scan without it {t_plain * 1000:,.0f} ms", ratio=t_plain / t_detect,
               target=target("ratio >= 0.91 | ≤ 1.1× scan"),
               note=f"{len(moved):,} of {len(index.manga):,} manga folders renamed since the last index")
