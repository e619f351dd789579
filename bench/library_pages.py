"""Server time of the library page (/) and GET /api/library for a generated library, through a
real `serve`.

The tree is N manga × C chapters × P pages, every page a hard link to one of a few tiny images
(so 2,000 manga cost seconds and almost no disk). One user has read, started and followed some
of them, so the per-user parts of the page do real work. Times are measured on loopback from the
client, median and 95th percentile of R requests, after one request that warms the caches.

    python -m bench.library_pages [--manga 2000] [--chapters 10] [--pages 2] [--runs 30]
"""
import argparse
import http.client
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from PIL import Image

from tests.support.server import Server

WORDS = ["Moon", "Garden", "Iron", "Harbor", "Paper", "Cranes", "Clockwork", "Fox", "Silent", "River",
         "Glass", "Tower", "Ember", "Tide", "Lantern", "Hollow"]


def make_tree(root, manga, chapters, pages):
    sources = []
    for i, color in enumerate(((200, 80, 80), (80, 200, 80), (80, 80, 200))):
        path = root.parent / f"page{i}.png"
        Image.new("RGB", (90, 135), color).save(path)
        sources.append(path)
    for m in range(manga):
        title = f"{WORDS[m % 16]} {WORDS[(m // 16) % 16]} {m:04d}"
        folder = root / title
        folder.mkdir(parents=True)
        (folder / "manga.json").write_text(json.dumps({"title": title, "authors": [f"Author {m % 97}"]}))
        for c in range(1, chapters + 1):
            chapter = folder / f"c{c:04d} Part {c}"
            chapter.mkdir()
            for p in range(1, pages + 1):
                os.link(sources[(m + c + p) % 3], chapter / f"{p:03d}.png")
        if m % 10 == 0:  # a second version of chapter 1 now and then
            extra = folder / "c0001 Part 1 [Other]"
            extra.mkdir()
            os.link(sources[0], extra / "001.png")


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


def wait_for(client, count, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, data = client.get("/api/library?limit=0")
        if status == 200 and data["count"] == count:
            return
        time.sleep(0.5)
    raise SystemExit(f"the scan did not reach {count} manga in {timeout} s")


def summaries_from_scratch(root, runs=5):
    """What every request would pay without the summary cache: building all summaries (in-process)."""
    from library.scan import Scan
    from reader import summaries

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
    parser.add_argument("--manga", type=int, default=2000)
    parser.add_argument("--chapters", type=int, default=10)
    parser.add_argument("--pages", type=int, default=2)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mc-bench-") as tmp:
        tmp = Path(tmp)
        started = time.monotonic()
        make_tree(tmp / "library", args.manga, args.chapters, args.pages)
        print(f"tree: {args.manga} manga × {args.chapters} chapters × {args.pages} pages "
              f"in {time.monotonic() - started:.1f} s")
        server = Server(tmp / "data", tmp / "library").start()
        try:
            client = server.client().signup("admin")
            started = time.monotonic()
            wait_for(client, args.manga, 1800)
            print(f"first scan (full): {time.monotonic() - started:.1f} s")
            names = [m["name"] for m in client.get("/api/library?limit=200")[2]["manga"]]
            for i, name in enumerate(names[:150]):
                client.post("/api/read", {"m": name, "c": "0/1"})
                if i % 3 == 0:
                    client.post("/api/follow", {"m": name, "on": True})
            print(f"user state: 150 manga with a chapter read, 50 followed\n{'route':<34} median    p95")
            for path in ("/", "/?sort=unread", "/?q=moon%20garden", "/?sort=last&page=2",
                         "/api/library", "/api/library?limit=120", "/api/library?q=harbor&sort=added"):
                median, p95 = timed(client, path, args.runs)
                print(f"{path:<34} {median:6.1f} ms {p95:6.1f} ms")
        finally:
            server.stop()
        print(f"without the cache, building every summary would add {summaries_from_scratch(tmp / 'library'):.1f} ms "
              "to each request")


if __name__ == "__main__":
    main()
