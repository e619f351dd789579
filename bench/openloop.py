"""Open-loop load: requests sent on a fixed schedule, latency counted from the scheduled time.

A closed loop (loadgen.py) waits for each answer before the next request, so a slow server slows
the load and hides its own queue. Here request i is due at start + i / rate whatever happened
before; a pool of connections sends it when it is due (or as soon as one is free), and its latency
runs from when it was due to the last byte of the answer. The mix replays a household of readers:
per reader a chapter open now and then, page images as they turn pages, a progress save every few
pages and the library page or its API once in a while (MIX).

`run(base, routes, rate, seconds)` runs the schedule from a child process pinned to the CPUs given
and returns {route: {"p50", "p99", "count", "errors"}} plus "_all".
"""
import http.client
import json
import queue
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

# Of every 20 requests: 12 page images, 4 progress saves, 2 chapter opens, 1 library page, 1 library API.
MIX = ["page"] * 12 + ["progress"] * 4 + ["chapter"] * 2 + ["home", "library"]
ORDER = [MIX[(i * 7) % len(MIX)] for i in range(len(MIX))]  # interleaved, the same every run
CONNECTIONS = 64


def routes_for(manga, cid, version, pages, image_paths):
    """{kind: (label, method, path or [paths], body template)} for the household mix."""
    body = json.dumps({"m": manga, "c": cid, "v": version, "p": 0, "n": pages, "done": False, "shift": []})
    return {
        "page": ("GET /lib/ page", "GET", image_paths, None),
        "progress": ("POST /api/progress", "POST", ["/api/progress"], body),
        "chapter": ("GET /api/chapter", "GET", [f"/api/chapter?m={quote(manga)}&c={quote(cid)}"], None),
        "home": ("GET / (library page)", "GET", ["/"], None),
        "library": ("GET /api/library", "GET", ["/api/library?limit=120"], None),
    }


def run(base, routes, cookies, rate, seconds, cpus=None):
    spec = json.dumps({"base": base, "routes": routes, "cookies": cookies, "rate": rate, "seconds": seconds})
    cmd = [sys.executable, __file__, spec]
    if cpus and shutil.which("taskset"):
        cmd = ["taskset", "-c", cpus, *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, timeout=seconds + 120).stdout
    return json.loads(out)


# The client, run in its own process by run().

def _worker(spec, jobs, results):
    host, port = spec["base"].split("//", 1)[1].rstrip("/").split(":")
    from bench.loadgen import send  # here: this file runs as a script, bench is on the path from __main__

    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    while True:
        job = jobs.get()
        if job is None:
            return
        due, kind, n = job
        wait = due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        label, method, paths, body = spec["routes"][kind]
        cookies = spec["cookies"]
        headers = {"Cookie": "sid=" + cookies[n % len(cookies)]}
        payload = None
        if body is not None:
            payload = body.replace('"p": 0', f'"p": {n % 2}').encode()
            headers["Content-Type"] = "application/json"
        conn, ok = send(conn, method, paths[n % len(paths)], payload, headers)
        results.append((label, (time.perf_counter() - due) * 1000, ok))


def _pick(values, q):
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def _main(spec):
    jobs, results = queue.Queue(), []
    threads = [threading.Thread(target=_worker, args=(spec, jobs, results), daemon=True)
               for _ in range(CONNECTIONS)]
    for t in threads:
        t.start()
    count = int(spec["rate"] * spec["seconds"])
    start = time.perf_counter() + 0.2
    # Jobs go to the queue as they fall due: a free connection takes the next one, so a request
    # waits for a connection only when all are busy, and that wait counts in its latency.
    for i in range(count):
        due = start + i / spec["rate"]
        ahead = due - time.perf_counter() - 0.005
        if ahead > 0:
            time.sleep(ahead)
        jobs.put((due, ORDER[i % len(ORDER)], i))
    for _ in threads:
        jobs.put(None)
    for t in threads:
        t.join()
    by = {}
    for label, ms, ok in results:
        by.setdefault(label, ([], [0]))
        by[label][0].append(ms)
        if not ok:
            by[label][1][0] += 1
    out = {}
    everything = sorted(ms for _, ms, _ in results)
    for label, (times, errors) in by.items():
        times.sort()
        out[label] = {"p50": _pick(times, 0.5), "p99": _pick(times, 0.99), "count": len(times), "errors": errors[0]}
    out["_all"] = {"p50": _pick(everything, 0.5), "p99": _pick(everything, 0.99), "count": len(everything),
                   "errors": sum(e[0] for _, e in by.values())}
    print(json.dumps(out))




if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    _main(json.loads(sys.argv[1]))
