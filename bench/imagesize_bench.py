"""Header reads: library.imagesize vs PIL.Image.open().size, warm and cold, sequential and pooled.

    python bench/imagesize_bench.py [--files 2000] [--dir bench/out/imagesize]

Prints µs per page. "cold" evicts each file from the page cache with posix_fadvise(DONTNEED)
before the run, so it measures the disk. The figures chose imagesize.HEAD and the default of
SCAN_CONCURRENCY (docs/architecture-library.md).
"""
import argparse
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageDraw  # noqa: E402

from library import imagesize  # noqa: E402


def make_corpus(folder, count):
    """Distinct files (copies, not links, so eviction is per file) in the mix of a real library."""
    folder.mkdir(parents=True, exist_ok=True)
    samples = []
    page = Image.new("RGB", (1100, 1600), "white")
    draw = ImageDraw.Draw(page)
    for i in range(0, 1600, 37):
        draw.line((0, i, 1100, (i * 7) % 1600), fill=(i % 255, 40, 90), width=3)
    exif = Image.Exif()
    exif[0x010F] = "Camera" * 2000  # ~12 KB of EXIF ahead of the frame header
    for name, kw in [("plain.jpg", {"quality": 85}), ("exif.jpg", {"quality": 85, "exif": exif}),
                     ("icc.jpg", {"quality": 85, "icc_profile": b"\0" * 200_000}), ("page.png", {}),
                     ("page.webp", {"quality": 80})]:
        path = folder / f"sample-{name}"
        if not path.exists():
            page.save(path, **kw)
        samples.append(path)
    files = []
    for i in range(count):
        src = samples[i % len(samples)]
        dst = folder / f"{i:05d}{src.suffix}"
        if not dst.exists():
            shutil.copyfile(src, dst)
        files.append(dst)
    return files


def evict(files):
    for path in files:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def pillow_size(path):
    with Image.open(path) as im:
        return im.size


def run(reader, files, workers):
    start = time.perf_counter()
    if workers == 1:
        results = [reader(p) for p in files]
    else:
        with ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(reader, files, chunksize=16))
    elapsed = time.perf_counter() - start
    assert all(results), "a header could not be read"
    return elapsed / len(files) * 1e6


def best_of(n, fn):
    return min(fn() for _ in range(n))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--dir", default=str(Path(__file__).parent / "out" / "imagesize"))
    args = parser.parse_args()
    files = make_corpus(Path(args.dir), args.files)
    print(f"{len(files)} files (JPEG plain / 12 KB EXIF / 200 KB ICC, PNG, WebP), {os.cpu_count()} CPUs")
    run(imagesize.size, files, 1)  # warm the cache

    print("\nwarm, sequential (µs/page, best of 3)")
    for head in (4096, 32768):
        imagesize.HEAD = head
        print(f"  imagesize HEAD={head:>5}: {best_of(3, lambda: run(imagesize.size, files, 1)):7.1f}")
    imagesize.HEAD = 4096
    print(f"  PIL Image.open().size : {best_of(3, lambda: run(pillow_size, files, 1)):7.1f}")

    print("\nwarm, thread pool (imagesize, µs/page, best of 3)")
    for workers in (1, 2, 4, 8):
        print(f"  {workers} thread(s): {best_of(3, lambda n=workers: run(imagesize.size, files, n)):7.1f}")

    print("\ncold (evicted before each run; imagesize, µs/page)")
    for workers in (1, 2, 4, 8):
        evict(files)
        print(f"  {workers} thread(s): {run(imagesize.size, files, workers):7.1f}")
    evict(files)
    print(f"  PIL, 1 thread: {run(pillow_size, files, 1):7.1f}")


if __name__ == "__main__":
    main()
