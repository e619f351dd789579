"""A page of ours against another server's page, side by side: `python -m bench.sidebyside`.

Starts a MangaCircus `serve` on --library (its state in --data, an admin made on first use), pinned
to the server CPU, signs in and shows the library page once, as a browser would. The other server
runs already, started by hand and pinned to the same CPU (`taskset -c 0 …`), and is named by its
page's URL and the headers it needs (a session cookie, usually). Then rounds taken turn about: our
--page (the library page, `/`, unless told; `/manga/<name>/` for a series page) at --clients
connections, the other page at as many, each for --seconds,
from the load generator pinned to the other CPU. It prints every round and, for each side, the
median of the rounds' rates, and the ratio (ours / theirs) against --target. docs/performance.md, "Side by side"
tells how the comparison with Codex was run.
"""
import argparse
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

from . import loadgen, serving

ADMIN = "admin"


def _signed_in(server):
    client = server.client()
    status, _, data = client.post("/api/signup", {"name": ADMIN, "password": serving.PASSWORD})
    if status != 200:
        client.login(ADMIN, serving.PASSWORD)
    return client


def _wait_for_first_scan(client, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, _, data = client.get("/api/admin")
        if status == 200 and data["scans"] and not data["scanning"]:
            return data["scans"][0]
        time.sleep(0.2)
    raise SystemExit(f"the first scan of the library did not end within {timeout} s")


def _header(text):
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"a header is 'Name: value', not {text!r}")
    return name.strip(), value.strip()


def compare(data, library, other, other_headers, clients=16, seconds=5, rounds=3, say=print, page="/"):
    """[(ours, theirs)] of loadgen figures, round by round; the server is stopped at the end."""
    server_cpus, client_cpus = serving.pinning()
    server = serving.start_server(data, library, cpus=server_cpus, collectstatic=True)
    try:
        admin = _signed_in(server)
        report = _wait_for_first_scan(admin, 600)
        count = admin.get('/api/library?limit=1')[2]['count']
        # A new DATA makes every cover's thumbnail in the background after the first scan: that CPU
        # would be measured against our page.
        thumbs = serving.wait_for_thumbnails(Path(data), count)
        say(f"MangaCircus at {server.url}: {count:,} manga ({report.get('kind', 'first')} scan done, "
            f"{thumbs:,} cover thumbnails made)")
        cookie = serving.browser_cookies(server, [admin.cookies["sid"]])[0]
        parts = urlsplit(other)
        base, path = f"{parts.scheme}://{parts.netloc}", parts.path + (f"?{parts.query}" if parts.query else "")
        status = admin.get(page)[0]
        if status != 200:
            raise SystemExit(f"our --page {page} answered HTTP {status}, not 200")
        results = []
        for n in range(1, rounds + 1):
            ours = loadgen.run(server.url, page, cookies=[cookie], clients=clients, seconds=seconds, cpus=client_cpus)
            theirs = loadgen.run(base, path or "/", clients=clients, seconds=seconds, cpus=client_cpus,
                                 headers=dict(other_headers))
            label = f"other {parts.path or '/'}" + (" (with its query)" if parts.query else "")
            names = (f"MangaCircus GET {page}", label)
            width = max(40, *map(len, names))
            for name, r in zip(names, (ours, theirs)):
                say(f"round {n}  {name:{width}} {r['rps']:9,.0f}/s  p50 {r['p50']:.3g} ms  p99 {r['p99']:.3g} ms"
                    + (f"  {r['errors']} errors" if r["errors"] else ""))
            results.append((ours, theirs))
        return results
    finally:
        server.stop()


def summary(results):
    ours = statistics.median(r[0]["rps"] for r in results)
    theirs = statistics.median(r[1]["rps"] for r in results)
    ratio = ours / theirs if theirs else float("inf")
    errors = sum(r[0]["errors"] + r[1]["errors"] for r in results)
    return ours, theirs, ratio, errors


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m bench.sidebyside", description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", type=Path, required=True, help="the manga folder tree MangaCircus serves")
    parser.add_argument("--data", type=Path, required=True, help="MangaCircus's DATA folder (made when missing)")
    parser.add_argument("--other", required=True, help="the other server's page, a full URL")
    parser.add_argument("--page", default="/", help="our page, a path (default /, the library page; "
                        "/manga/<name>/ for a series page)")
    parser.add_argument("--target", type=float, default=2.0, help="the ratio ours / theirs to meet (default 2)")
    parser.add_argument("--other-header", type=_header, action="append", default=[], metavar="'NAME: VALUE'",
                        help="a header for the other server's requests (repeat for more)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if not args.library.is_dir():
        parser.error(f"--library {args.library} is not a folder")
    if not args.page.startswith("/"):
        parser.error(f"--page must be a path starting with /, not {args.page!r}")
    if urlsplit(args.other).scheme not in ("http", "https"):
        parser.error(f"--other must be an http:// or https:// URL, not {args.other!r}")
    if not loadgen.WRK:
        print("note: wrk is not installed (apt-get install wrk); the Python load generator is slower "
              "than both servers, so the rates compare the generator more than the servers", file=sys.stderr)
    results = compare(args.data, args.library, args.other, args.other_header, args.clients, args.seconds,
                      args.rounds, page=args.page)
    ours, theirs, ratio, errors = summary(results)
    print(f"median of {len(results)} rounds: MangaCircus {ours:,.0f}/s, other {theirs:,.0f}/s: {ratio:.2f}×"
          f" (target ≥ {args.target:g}×: {'met' if ratio >= args.target else 'missed'})"
          + (f"; {errors} errors" if errors else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
