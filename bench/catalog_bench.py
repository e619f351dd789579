"""The catalog's rows: catalog.json load and flush at 10,000 relations and 1,000 groups (through
mangacircus.jsonfile, against a raw parse and a raw write+fsync of the same bytes), the discovery
feed of a user who read a quarter of the library (p50 against /api/auth in the same run), and the
manga page with 20 relations against the same page of a manga without any.
"""
import statistics
import time

import orjson

from catalog import store
from mangacircus.jsonfile import JsonFile

from .dbflush import _raw_write
from .loadgen import run as load
from .report import Row, target
from .serving import PASSWORD

RELATIONS, GROUPS = 10_000, 1_000
TYPES = ("sequel", "side-story", "spin-off", "alternate", "adaptation", "same-universe")


def big_catalog():
    """A catalog.json-shaped dict with RELATIONS relations and GROUPS groups of ten members."""
    names = [f"Series {i:05d}" for i in range(RELATIONS // 2)]
    relations = [{"a": names[i % len(names)], "type": TYPES[i % len(TYPES)], "b": names[(i * 7 + 1) % len(names)],
                  "note": "", "by": "admin", "t": 1_790_000_000_000 + i} for i in range(RELATIONS)]
    groups = [{"id": f"g{i:05x}", "name": f"Group {i}", "description": "", "ordered": True,
               "members": [names[(i * 10 + k) % len(names)] for k in range(10)]} for i in range(GROUPS)]
    return {**store.empty(), "relations": relations, "groups": groups}


def file_rows(folder, runs=9):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "catalog.json"
    payload = orjson.dumps(big_catalog())
    path.write_bytes(payload)
    loads, raw_loads = [], []
    for _ in range(runs):
        started = time.perf_counter()
        JsonFile(path, default=store.empty, validate=store.validate).close()
        loads.append(time.perf_counter() - started)
        started = time.perf_counter()
        orjson.loads(path.read_bytes())
        raw_loads.append(time.perf_counter() - started)
    doc = JsonFile(path, default=store.empty, validate=store.validate, delay=3600, max_wait=3600)
    flushes, raw_flushes = [], []
    try:
        for i in range(runs):
            with doc.lock:
                doc.data["rev"] = i
                doc.touch()
            started = time.perf_counter()
            assert doc.flush()
            flushes.append(time.perf_counter() - started)
            started = time.perf_counter()
            _raw_write(folder / "raw.json", payload)
            raw_flushes.append(time.perf_counter() - started)
    finally:
        doc.close()
        path.unlink(missing_ok=True)
        (folder / "raw.json").unlink(missing_ok=True)
    load_ms, raw_load, flush, raw_flush = (statistics.median(t) * 1000 for t in (loads, raw_loads, flushes,
                                                                                 raw_flushes))
    size = f"{len(payload) / 1e6:.1f} MB"
    name = f"{RELATIONS // 1000}k rel. + {GROUPS // 1000}k groups"
    return [
        Row(f"catalog.json load, {name}", value=load_ms, shown=f"{load_ms:.1f} ms; {size}",
            baseline=f"raw read+parse {raw_load:.1f} ms", ratio=load_ms / raw_load,
            target=target("ratio <= 2 | ≤ 2× raw")),
        Row(f"catalog.json flush, {name}", value=flush, shown=f"{flush:.1f} ms; {size}",
            baseline=f"raw write+fsync {raw_flush:.1f} ms", ratio=flush / raw_flush,
            target=target("value <= 50 | ≤ 50 ms")),
    ]


def _p50(server, path, cookie, seconds, cpus):
    r = load(server.url, path, cookies=[cookie], clients=1, seconds=seconds, cpus=cpus)
    return r["p50"], r


def server_rows(server, admin, seconds, cpus):
    """Rows measured on a running server whose library is the benchmark's generated one."""
    names = [m["name"] for m in admin.get("/api/library")[2]["manga"]]
    admin.post("/api/admin/user", {"name": "discoverer", "password": PASSWORD})  # or made by an earlier run
    reader = server.client().login("discoverer", PASSWORD)
    reader.post("/api/settings", {"discovery": True})
    read = names[: max(1, len(names) // 4)]
    for i, name in enumerate(read):
        if reader.post("/api/read", {"m": name, "c": "0/1"})[0] != 200:
            reader.post("/api/read", {"m": name, "c": "1/1"})
        if i % 10 == 0:
            reader.post("/api/follow", {"m": name, "on": True})
    related, plain = names[-1], names[-2]
    rev = admin.get("/api/admin/catalog")[2]["rev"]
    for i in range(20):
        other = names[(i * 37) % (len(names) - 2)] if len(names) > 22 else f"Elsewhere {i}"
        status, _, body = admin.post("/api/admin/catalog/relations",
                                     {"rev": rev, "a": related, "type": TYPES[i % len(TYPES)], "b": other})
        if status == 400:  # a small library repeats a pair: relate to a missing manga instead
            status, _, body = admin.post("/api/admin/catalog/relations", {
                "rev": rev, "a": related, "type": TYPES[i % len(TYPES)], "b": f"Elsewhere {i}"})
        assert status == 200, body
        rev = body["rev"]
    assert len(admin.get(f"/api/manga?m={_q(related)}")[2]["relations"]) == 20
    cookie = reader.cookies["sid"]
    assert reader.get("/api/discovery")[0] == 200
    auth, _ = _p50(server, "/api/auth", cookie, seconds, cpus)
    feed, r = _p50(server, "/api/discovery", cookie, seconds, cpus)
    items = len(reader.get("/api/discovery")[2]["items"])
    # Turn about, three times, and keep the medians: the machine's load moves between two windows.
    withs, withouts, errors = [], [], 0
    for _ in range(3):
        p50, r_rel = _p50(server, f"/manga/{_q(related)}/", cookie, seconds / 3, cpus)
        withs.append(p50)
        errors += r_rel["errors"]
        withouts.append(_p50(server, f"/manga/{_q(plain)}/", cookie, seconds / 3, cpus)[0])
    with_rel, without = statistics.median(withs), statistics.median(withouts)
    return [
        Row("GET /api/discovery, a quarter read", value=feed,
            shown=f"p50 {feed:.3g} ms · {len(read):,} of {len(names):,} read, {items} items",
            baseline=f"auth p50 {auth:.3g} ms", ratio=feed / auth if auth else None,
            target=target("value <= 50 | p50 ≤ 50 ms"),
            note=f"{r['errors']} of {r['requests']} requests failed" if r["errors"] else ""),
        Row("manga page, 20 relations", value=with_rel, shown=f"p50 {with_rel:.3g} ms",
            baseline=f"no relations p50 {without:.3g} ms", ratio=with_rel / without if without else None,
            target=target("ratio <= 1.2 | ≤ 1.2× none"),
            note=f"{errors} requests failed" if errors else ""),
    ]


def _q(name):
    from urllib.parse import quote

    return quote(name, safe="")
