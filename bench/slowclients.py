"""Slow clients against a real `manage.py serve`: the figures with and without 500 of them.

    python -m bench.slowclients [--slow 500] [--interval 1] [--seconds 3] [--runs 6] [--kinds heads,bodies]

A slow client opens a connection and sends the start of a request, then one more byte every
`--interval` seconds (spread out: not all clients at once), never finishing it. Two kinds:
- heads: `GET /api/auth HTTP/1.1`, a Host header and the start of another, then header bytes;
- bodies: a whole `POST /api/login` head with `Content-Length: 100`, then body bytes.
When the server closes one (after HEADER_TIMEOUT, 10 s, with a 408) it is opened again at once, so
`--slow` stay open all along, as an attacker would keep them.

Windows of measurement alternate, calm and with the slow clients open (a cycle: one calm window,
then for each kind the slow clients are opened and two slow windows measured, the second one across
the moment the server times them all out and they reconnect). A window measures
- probe: GET /api/auth on a new connection every 20 ms, one at a time (p50 and p99, ms), then
- image throughput: GET of one /lib/ page (a ~160 KB JPEG) in a closed loop from 4 keep-alive
  connections (wrk if installed, else a Python client; pages a second).
Targets: probe p99 with slow clients ≤ 2× calm, image throughput ≥ 0.9× calm; each kind of slow
client gets its rows. Each figure is the median over the windows of its kind (the best windows are
in the notes). The machine may be busy with other work, which moves throughput a lot from one window
to the next; so the worker's CPU time per image served (the slow clients' share included) is given
too, with the same target (≤ 1/0.9 = 1.11× calm): a server that has the CPU to itself serves images
at the inverse of it. Last, the worker's CPU use with only the slow clients of each kind, against idle.
The server runs on CPU 0, the load, the probes and the slow clients on CPU 1 (2+ CPUs).
"""
import argparse
import http.client
import os
import random
import selectors
import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

from . import loadgen, serving
from .generate import _page_image
from .report import Row, machine, table, target

SLOW_START = {
    "heads": b"GET /api/auth HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
    "bodies": b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: 100\r\n\r\n{\"name\": \"",
}
CALLED = {"heads": "slow clients", "bodies": "slow bodies"}  # in the rows' names
PROBE_EVERY = 0.02
PROBE_TIMEOUT = 10.0
IMAGE_CLIENTS = 4
PAGE = "Slow Clients/c0001 One/001.jpg"
TICKS = 50  # a slow client's bytes go out in this many slices of the interval


class SlowClients:
    """`count` connections trickling a request head or body; one the server closes is opened again."""

    def __init__(self, port, count, interval, kind="heads"):
        self.port, self.count, self.interval, self.start_bytes = port, count, interval, SLOW_START[kind]
        self.selector = selectors.DefaultSelector()
        self.stop_event = threading.Event()
        self.thread = None
        self.opened = self.closed_by_server = self.answered_408 = self.connect_failures = 0

    def _open(self):
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock.sendall(self.start_bytes)
        except OSError:
            self.connect_failures += 1
            return
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ)
        self.opened += 1

    def start(self):
        for _ in range(self.count):
            self._open()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        return self

    def _run(self):
        """Read what the server says (a 408, or nothing before it closes), reopen what it closed, and
        send each connection its next byte: spread over the interval in TICKS slices, not all at once."""
        tick, turn = self.interval / TICKS, 0
        next_tick = time.monotonic() + tick
        while not self.stop_event.is_set():
            for key, _ in self.selector.select(timeout=max(0.0, next_tick - time.monotonic())):
                sock = key.fileobj
                try:
                    said = sock.recv(4096)
                except BlockingIOError:
                    continue
                except OSError:
                    said = b""
                if said.startswith(b"HTTP/1.1 408 "):
                    self.answered_408 += 1
                self.closed_by_server += 1
                self.selector.unregister(sock)
                sock.close()
                self._open()
            if time.monotonic() >= next_tick:
                next_tick += tick
                for key in list(self.selector.get_map().values())[turn % TICKS::TICKS]:
                    try:
                        key.fileobj.send(b"a")
                    except OSError:
                        pass
                turn += 1

    @property
    def open_now(self):
        return len(self.selector.get_map())

    def stop(self):
        self.stop_event.set()
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()


def probe(port, seconds):
    """GET /api/auth on a new connection every PROBE_EVERY s for `seconds`: (latencies in ms, failed);
    a probe that failed counts as PROBE_TIMEOUT."""
    latencies, failed = [], 0
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        started = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=PROBE_TIMEOUT)
        try:
            conn.request("GET", "/api/auth")
            response = conn.getresponse()
            response.read()
            ok = response.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
        finally:
            conn.close()
        elapsed = time.perf_counter() - started
        latencies.append(elapsed * 1000 if ok else PROBE_TIMEOUT * 1000)
        failed += not ok
        time.sleep(max(0.0, PROBE_EVERY - elapsed))
    return latencies, failed


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def worker_cpu(server):
    """CPU seconds used so far by the server's worker process (its only child)."""
    with open(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children") as f:
        worker = int(f.read().split()[0])
    with open(f"/proc/{worker}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_share(server, seconds):
    """Share of one CPU the worker used over `seconds` from now."""
    used, started = worker_cpu(server), time.monotonic()
    time.sleep(seconds)
    return (worker_cpu(server) - used) / (time.monotonic() - started)


def images(server, cookie, seconds, cpus):
    return loadgen.run(server.url, "/lib/" + quote(PAGE), cookies=[cookie], clients=IMAGE_CLIENTS,
                       seconds=seconds, cpus=cpus)


def make_library(root):
    path = root / PAGE
    path.parent.mkdir(parents=True)
    _page_image(random.Random(1), (1100, 1600)).save(path, "JPEG", quality=85)
    return root, path.stat().st_size


def window(server, cookie, opts, client_cpus):
    """One measurement: probes for `seconds`, then the image load for `seconds`."""
    latencies, failed = probe(server.port, opts.seconds)
    used = worker_cpu(server)
    loaded = images(server, cookie, opts.seconds, client_cpus)
    used = worker_cpu(server) - used
    return {"p50": percentile(latencies, 0.5), "p99": percentile(latencies, 0.99), "probes": len(latencies),
            "failed": failed, "rps": loaded["rps"], "errors": loaded["errors"],
            "cpu": used * 1000 / max(1, loaded["requests"])}


def measure(server, cookie, opts, client_cpus, say):
    """Windows of measurement, calm and slow by turns: per cycle one calm window, then for each kind the
    slow clients are opened and two slow windows measured (the second one sees the server close every
    slow connection at HEADER_TIMEOUT, and the clients reopen them), then they are closed. Returns the
    calm windows; for each kind, its slow windows and slow clients of each cycle; and the worker's share
    of a CPU idle and, for each kind, with only the slow clients."""
    calm, slow, counters = [], {kind: [] for kind in opts.kinds}, {kind: [] for kind in opts.kinds}
    show = lambda w: (f"probe p50 {w['p50']:.2f} p99 {w['p99']:.2f} ms ({w['failed']} failed), "  # noqa: E731
                      f"images {w['rps']:,.0f}/s at {w['cpu']:.2f} ms of worker CPU each")
    for cycle in range(opts.runs):
        calm.append(window(server, cookie, opts, client_cpus))
        say(f"cycle {cycle + 1}, calm: {show(calm[-1])}")
        for kind in opts.kinds:
            slow_clients = SlowClients(server.port, opts.slow, opts.interval, kind).start()
            try:
                time.sleep(1)
                for _ in range(2):
                    slow[kind].append(window(server, cookie, opts, client_cpus))
                    c = slow_clients
                    say(f"cycle {cycle + 1}, {CALLED[kind]}: {show(slow[kind][-1])}; {c.open_now} open, "
                        f"{c.closed_by_server} closed by the server ({c.answered_408} with a 408)")
            finally:
                slow_clients.stop()
            counters[kind].append(slow_clients)
            time.sleep(1)  # the server closes what the slow clients left behind
    idle = cpu_share(server, 2 * opts.seconds)
    busy = {}
    for kind in opts.kinds:
        slow_clients = SlowClients(server.port, opts.slow, opts.interval, kind).start()
        try:
            busy[kind] = cpu_share(server, 4 * opts.seconds)
        finally:
            slow_clients.stop()
        say(f"worker CPU: {idle:.1%} of a CPU idle, {busy[kind]:.1%} with the {CALLED[kind]} alone")
        time.sleep(1)
    return calm, slow, counters, idle, busy


def _median(values):
    values = sorted(values)
    return values[len(values) // 2]


def rows_from(calm, slow, counters, cpu, opts, size, kind="heads"):
    """The rows of one kind of slow client. Each figure is the median over the windows of its kind;
    the best windows are in the notes."""
    keys = {"p50": min, "p99": min, "rps": max, "cpu": min}
    median = {key: (_median(w[key] for w in calm), _median(w[key] for w in slow)) for key in keys}
    best = {key: (pick(w[key] for w in calm), pick(w[key] for w in slow)) for key, pick in keys.items()}
    # Each slow window against the calm one of its cycle: the machine's other work moves both.
    paired = sorted(s["rps"] / calm[i // 2]["rps"] for i, s in enumerate(slow))
    failed = sum(w["failed"] for w in slow)
    probes = sum(w["probes"] for w in slow)
    image_errors = sum(w["errors"] for w in slow)
    closed = sum(c.closed_by_server for c in counters)
    answered = sum(c.answered_408 for c in counters)
    who = f"{opts.slow} {CALLED[kind]}"
    idle, busy = cpu

    def row(name, key, shown, spec=None, note=""):
        (c, s), (bc, bs) = median[key], best[key]
        return Row(name, value=s, shown=shown(s), baseline=f"calm {shown(c)}", ratio=s / c,
                   target=target(spec) if spec else None,
                   note=f"best windows: {shown(bs)} against calm {shown(bc)} ({bs / bc:.2f}×){note}")

    ms = lambda v: f"{v:.2f} ms"  # noqa: E731
    return [
        row(f"probe p50, {who}", "p50", ms),
        row(f"probe p99, {who}", "p99", ms, "ratio <= 2 | ≤ 2× calm",
            f"; {probes} probes with the slow clients, {failed} failed or took over {PROBE_TIMEOUT:.0f} s"),
        row(f"/lib/ image, {IMAGE_CLIENTS} clients, {who}", "rps", lambda v: f"{v:,.0f}/s",
            "ratio >= 0.9 | ≥ 0.9× calm",
            f"; each slow window against the calm one of its cycle: {', '.join(f'{r:.2f}' for r in paired)}"
            f"; {size / 1000:.0f} KB a page; {image_errors} failed requests; the server closed {closed} slow "
            f"connections, {answered} with a 408 (each reopened at once)"),
        row(f"worker CPU per image, {who}", "cpu", ms, "ratio <= 1.11 | ≤ 1.11× calm",
            "; the worker's CPU time over the image load (slow clients included) per image served: the "
            "throughput target on a CPU-bound server, whatever else the machine runs"),
        Row(f"worker CPU, {who} alone", value=busy, shown=f"{busy:.1%} of a CPU", baseline=f"idle {idle:.1%}",
            note="what reading and timing out their requests costs the server, with no other load"),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(prog=".venv/bin/python -m bench.slowclients", description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=500, help="slow connections kept open (default 500)")
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between a slow client's bytes")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of probes, then of images, a window")
    parser.add_argument("--runs", type=int, default=6, help="cycles: a calm window, then two slow ones a kind")
    parser.add_argument("--kinds", default="heads,bodies", help="slow clients: heads, bodies or both (default)")
    opts = parser.parse_args(argv)
    opts.kinds = [kind for kind in opts.kinds.split(",") if kind]
    if not opts.kinds or set(opts.kinds) - set(SLOW_START):
        parser.error("--kinds: heads, bodies or heads,bodies")
    began, load = time.monotonic(), os.getloadavg()
    say = lambda text: print(f"[{time.monotonic() - began:6.1f} s] {text}", file=sys.stderr, flush=True)  # noqa: E731
    server_cpus, client_cpus = serving.pinning()
    work = Path(tempfile.mkdtemp(prefix="mc-slowclients-"))
    try:
        library, size = make_library(work / "library")
        server = serving.start_server(work / "data", library, cpus=server_cpus)
        try:
            if client_cpus:
                os.sched_setaffinity(0, {int(c) for c in client_cpus.split(",")})
            client = serving.make_users(server, 1)[0]
            deadline = time.monotonic() + 30
            while client.get("/lib/" + quote(PAGE))[0] != 200:
                if time.monotonic() > deadline:
                    raise RuntimeError("the page was not served within 30 s")
                time.sleep(0.2)
            calm, slow, counters, idle, busy = measure(server, client.cookies["sid"], opts, client_cpus, say)
        finally:
            server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    header = (f"MangaCircus slow clients: {opts.slow} connections, one byte every {opts.interval:g} s each, "
              f"of a head or of a body ({', '.join(opts.kinds)}); {opts.runs} cycles of a calm window and "
              f"two slow ones a kind, each {opts.seconds:g} s of probes then "
              f"{opts.seconds:g} s of images; medians over windows\n"
              f"machine: {machine(load)}\n"
              f"load: {'wrk' if loadgen.WRK else 'Python client'}"
              f"{', probes and slow clients pinned to CPU ' + client_cpus + ', server on CPU 0' if client_cpus else ''}"
              f"; {time.monotonic() - began:.0f} s in all")
    rows = [row for kind in opts.kinds
            for row in rows_from(calm, slow[kind], counters[kind], (idle, busy[kind]), opts, size, kind)]
    print(table(rows, header))
    return rows


if __name__ == "__main__":
    main()
