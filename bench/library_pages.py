"""Server time of the library page (/) and GET /api/library with their sorts, searches and pages,
through a real `serve`, on the benchmark's generated library (bench/generate.py).

One user has read and followed some manga, so the per-user parts of the page do real work. Times
are measured on loopback from one client, from sending the request to the last byte of the answer
(not parsed), median and 95th percentile of R requests, after one request that warms the caches.
`python -m bench` has the same two routes under load (1 and 16 clients); this looks at their
variants one by one, and at what the per-manga summary cache saves.

    python -m bench.library_pages [--preset large|medium|tiny] [--runs 30]
"""
import argparse
import http.client
import shutil
import statistics
import time
from pathlib import Path

from . import generate, serving


def timed(client, path, runs):
    """Median and p95 ms from sending the request to the last byte of the answer (not parsed)."""
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    times = []
    for run in range(runs + 1):
        conn = http.client.HTTPConnection(client.host, client.port, timeout=60)
        started = time.perf_counter()
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        response_body = response.read()
        elapsed = (time.perf_counter() - started) * 1000
        conn.close()
        assert response.status == 200, (path, response.status, response_body[:200])
        if run:  # the first one warms up
            times.append(elapsed)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.95) - 1]


def summaries_from_scratch(root, runs=5):
    """What every request would pay without the summary cache: building all summaries (in-process)."""
    from library.scan import Scan
    from shelf import summaries

    index, _ = Scan(str(root), None, "full").run()
    times = []
    for _ in range(runs):
        summaries.clear()
        started = time.perf_counter()
        summaries.ordered(index)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=sorted(generate.PRESETS), default="large")
    parser.add_argument("--dir", help="default bench/out/<preset>")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    work = Path(args.dir or generate.OUT / args.preset).resolve()
    library, counts, _ = generate.generate(work, args.preset)
    library = library.resolve()
    data = work / "data-pages"
    shutil.rmtree(data, ignore_errors=True)
    if (work / "thumbs-kept").exists():  # left by `python -m bench`: saves minutes of thumbnailing
        shutil.copytree(work / "thumbs-kept", data / "thumbs")
    server = serving.start_server(data, library)
    try:
        client = serving.make_users(server, 1)[0]
        started = time.monotonic()
        serving.wait_for_library(client, counts["manga"], 1800)
        print(f"{counts['manga']:,} manga, {counts['pages']:,} pages; first scan {time.monotonic() - started:.1f} s")
        names = [m["name"] for m in client.get("/api/library?limit=150")[2]["manga"]]
        serving.seed_reading(client, names)
        made = serving.wait_for_thumbnails(data, counts["manga"])
        print(f"user state: {len(names)} manga with a chapter read, {len(names[::3])} followed; "
              f"{made:,} cover thumbnails\n{'route':<34} median    p95")
        for path in ("/", "/?sort=unread", "/?q=moon%20garden", "/?sort=last&page=2",
                     "/api/library", "/api/library?limit=120", "/api/library?q=harbor&sort=added"):
            median, p95 = timed(client, path, args.runs)
            print(f"{path:<34} {median:6.1f} ms {p95:6.1f} ms")
    finally:
        server.stop()
    print(f"without the cache, building every summary would add {summaries_from_scratch(library):.1f} ms "
          "to each request")


if __name__ == "__main__":
    main()
