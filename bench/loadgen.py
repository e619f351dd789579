"""Closed-loop HTTP load: N clients, each sending its next request as soon as the last one answered.

`run(url, path, ...)` uses wrk (Debian: `apt-get install wrk`) when it is installed, else a small
Python client of threads with keep-alive connections. Either runs pinned to the CPUs given (taskset),
apart from the server under test. Returns {"p50", "p99" (ms), "rps", "requests", "errors", "tool"}.

Requests rotate over a list of session cookies; a POST's body may hold `{i}`, replaced by a
counter (modulo `wrap`) so successive requests differ.
"""
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

WRK = shutil.which("wrk")
_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _lua_string(text):
    return "[==[" + text + "]==]"


def _lua(method, path, cookies, body, wrap, headers=None):
    lines = ["local cookies = {" + ", ".join(_lua_string(c) for c in cookies) + "}", "local n = 0",
             "request = function()", "  n = n + 1",
             '  local h = {["Cookie"] = "sid=" .. cookies[(n % #cookies) + 1]}']
    lines += [f"  h[ {_lua_string(k)} ] = {_lua_string(v)}" for k, v in (headers or {}).items()]
    if body is None:
        lines.append(f"  return wrk.format({_lua_string(method)}, {_lua_string(path)}, h)")
    else:
        head, counter, tail = body.partition("{i}")
        rest = f" .. tostring(n % {wrap}) .. {_lua_string(tail)}" if counter else ""
        lines += ['  h["Content-Type"] = "application/json"', f"  local b = {_lua_string(head)}{rest}",
                  f"  return wrk.format({_lua_string(method)}, {_lua_string(path)}, h, b)"]
    lines.append("end")
    return "\n".join(lines) + "\n"


def _ms(text):
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * _UNITS[unit]


def parse_wrk(out):
    """{"p50", "p99", "rps", "requests", "errors"} from wrk --latency output."""
    pct = dict(re.findall(r"^\s+(50|99)(?:\.\d+)?%\s+(\S+)\s*$", out, re.M))
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if socket:
        errors += sum(int(n) for n in socket.groups())
    return {"p50": _ms(pct["50"]), "p99": _ms(pct["99"]),
            "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "requests": requests, "errors": errors}


def _wrk(base, method, path, cookies, body, wrap, clients, seconds, cpus, headers=None):
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(_lua(method, path, cookies or [""], body, wrap, headers))
    try:
        cmd = [WRK, "-t1", f"-c{clients}", f"-d{seconds}s", "--latency", "--timeout", "10s", "-s", f.name, base]
        out = subprocess.run(_pinned(cmd, cpus), capture_output=True, text=True, check=True,
                             timeout=seconds + 30).stdout
    finally:
        os.unlink(f.name)
    return {**parse_wrk(out), "tool": "wrk"}


def _pinned(cmd, cpus):
    return ["taskset", "-c", cpus, *cmd] if cpus and shutil.which("taskset") else cmd


def _python(base, method, path, cookies, body, wrap, clients, seconds, cpus, headers=None):
    """The same closed loop from a child Python process (this module run as a script)."""
    spec = json.dumps({"base": base, "method": method, "path": path, "cookies": cookies, "body": body,
                       "wrap": wrap, "clients": clients, "seconds": seconds, "headers": headers or {}})
    out = subprocess.run(_pinned([sys.executable, __file__, spec], cpus), capture_output=True, text=True,
                         check=True, timeout=seconds + 60).stdout
    return {**json.loads(out), "tool": "python"}


def run(base, path, *, method="GET", cookies=(), body=None, wrap=1, clients=1, seconds=5.0, cpus=None,
        tool=None, headers=None):
    """Load `base` + `path` for `seconds` with `clients` connections; figures as described above.
    `headers` are sent with every request (and replace the sid cookie when they name Cookie)."""
    use = tool or ("wrk" if WRK and seconds >= 1 else "python")  # wrk counts whole seconds
    fn = _wrk if use == "wrk" else _python
    seconds = max(1, round(seconds)) if use == "wrk" else seconds
    return fn(base, method, path, list(cookies), body, wrap, clients, seconds, cpus, headers)


# The Python client, run in its own process by _python().

def send(conn, method, path, payload, headers):
    """One request on a kept-alive connection: (the connection to use next, whether it got 2xx/3xx).
    A failed connection is replaced by a new one to the same address."""
    try:
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        response.read()
        return conn, 200 <= response.status < 400
    except (OSError, http.client.HTTPException):
        conn.close()
        return http.client.HTTPConnection(conn.host, conn.port, timeout=conn.timeout), False


def _client(spec, stop, latencies, errors, offset):
    host, port = spec["base"].split("//", 1)[1].rstrip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=10)
    cookies = spec["cookies"] or [""]
    n = offset
    while time.monotonic() < stop:
        n += 1
        headers = {"Cookie": "sid=" + cookies[n % len(cookies)], **spec.get("headers", {})}
        payload = None
        if spec["body"] is not None:
            payload = spec["body"].replace("{i}", str(n % spec["wrap"])).encode()
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        conn, ok = send(conn, spec["method"], spec["path"], payload, headers)
        latencies.append((time.perf_counter() - started) * 1000)
        if not ok:
            errors.append(1)


def _main(spec):
    stop = time.monotonic() + spec["seconds"]
    latencies, errors = [], []
    threads = [threading.Thread(target=_client, args=(spec, stop, latencies, errors, i * 7919))
               for i in range(spec["clients"])]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    latencies.sort()
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else 0.0  # noqa: E731
    print(json.dumps({"p50": pick(0.5), "p99": pick(0.99), "rps": len(latencies) / elapsed,
                      "requests": len(latencies), "errors": len(errors)}))


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    _main(json.loads(sys.argv[1]))
