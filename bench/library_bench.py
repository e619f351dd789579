"""Scan figures in more detail than `python -m bench`, on the same generated library (bench/generate.py).

    python bench/library_bench.py [--preset medium|large|tiny] [--dir bench/out/<preset>]

Prints: full scan without and with the scan cache, a shallow check with nothing changed, the
snapshot's size and save time, start-to-browsable from the snapshot (in-process restore, and a
fresh Python process up to a restored index), and the index's bytes per page (tracemalloc).
"""
import argparse
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import generate  # noqa: E402
from library import snapshot  # noqa: E402
from library.scan import Scan  # noqa: E402


def timed(fn, repeat=1):
    best, result = None, None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--preset", choices=sorted(generate.PRESETS), default="medium")
    parser.add_argument("--dir", help="default bench/out/<preset>")
    args = parser.parse_args()
    work = Path(args.dir or generate.OUT / args.preset).resolve()
    root = generate.generate(work, args.preset)[0]
    data = work / "library-data"
    data.mkdir(exist_ok=True)

    def full(cache=None):
        scan = Scan(root, None, "full", cache=cache)
        return scan, scan.run()

    t_nocache, (scan, (index, report)) = timed(full)
    pages = report["counts"]["pages"]
    print(f"{report['counts']}")
    print(f"full scan, no cache (every header read): {t_nocache * 1000:8.0f} ms  "
          f"({t_nocache / pages * 1e6:.1f} µs/page; first read of the tree)")
    t_warm, _ = timed(full, repeat=3)
    print(f"  again, tree in the page cache:          {t_warm * 1000:8.0f} ms  ({t_warm / pages * 1e6:.1f} µs/page)")
    # The lambdas take scan and index as defaults: both are deleted before the memory figure below.
    t_cache, (_, (_, report2)) = timed(lambda cache=scan.new_cache: full(cache), repeat=3)
    print(f"full scan with the scan cache:            {t_cache * 1000:8.0f} ms  "
          f"({report2['work']['headers']} headers read)")
    t_shallow, (_, report3) = timed(lambda previous=index: Scan(root, previous, "shallow").run(), repeat=5)
    print(f"shallow check, nothing changed:           {t_shallow * 1000:8.1f} ms  ({report3['work']['stats']} stats, "
          f"{report3['work']['listings']} listings)")

    path = data / "library-index.json"
    t_save, _ = timed(lambda saved=index: snapshot.save(path, saved, root, 0), repeat=3)
    print(f"snapshot: {path.stat().st_size / 1e6:.1f} MB, saved in {t_save * 1000:.0f} ms")
    t_load, _ = timed(lambda: snapshot.load(path, root), repeat=3)
    print(f"restore from the snapshot (in process):   {t_load * 1000:8.0f} ms")
    code = ("import time; t=time.perf_counter(); import django, os; django.setup(); "
            "from library import snapshot, index; from pathlib import Path; "
            f"i,_,_ = snapshot.load(Path({str(path)!r}), Path({str(root)!r})); index.replace(i); "
            "print(len(i), round((time.perf_counter()-t)*1000))")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mangacircus.settings", "DATA": str(data), "LIBRARY": str(root),
           "SECRET_KEY": "bench"}
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    total = (time.perf_counter() - start) * 1000
    print(f"fresh process to a restored index:        {total:8.0f} ms  "
          f"(Django setup + restore {out.stdout.split()[1]} ms)")

    del index, scan
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    restored, _, _ = snapshot.load(path, root)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    retained = sum(s.size_diff for s in after.compare_to(before, "filename"))
    print(f"index in memory: {retained / 1e6:.2f} MB = {retained / pages:.1f} bytes/page "
          f"({pages / report['counts']['versions']:.0f} pages a chapter)")


if __name__ == "__main__":
    main()
