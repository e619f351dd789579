"""What restrictions and the library filter cost per request, in process, on a synthetic index.

    python -m bench.access_bench [--manga 10000] [--runs 20]

reader.access.can_see() is asked once per manga in every list (and by other code per manga), so
it must stay cheap: this times it for a user without restrictions, with an allow list and with
excluded tags, then what the library's filtering of the whole index costs with each, and the
filter's tag: term and facets. No disk and no server: the index is built from model objects.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path


def setup(data):
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mangacircus.settings")
    os.environ["DATA"] = str(data)
    import django

    django.setup()


def synthetic_index(count):
    from library import index
    from library.model import Book, Chapter, Manga, Version

    tags = ["action", "drama", "fantasy", "mystery", "comedy", "adult", "horror", "romance"]
    manga = {}
    for n in range(count):
        name = f"Manga {n:05d}"
        version = Version("c0001", dir=f"{name}", files=["001.jpg"], sizes=[(800, 1200)], stamp=1)
        meta = {"tags": [tags[n % 8], tags[(n * 3 + 1) % 8]], "authors": [f"Author {n % 97}"], "status": "ongoing"}
        manga[name] = Manga(name, [Book("0", [Chapter("0", "1", [version])])], title=name, sort_title=name,
                            meta=meta, direction="rtl", cover=f"{name}/001.jpg", added=n, updated=n, stamp=1)
    found = index.Index(manga)
    index.replace(found)
    return found


def per_call_ns(fn, names, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter_ns()
        for name in names:
            fn(name)
        times.append((time.perf_counter_ns() - started) / len(names))
    return statistics.median(times)


def whole_ms(fn, runs):
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manga", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup(Path(tmp))
        from mangacircus import db

        db.open_db(Path(tmp) / "db.json")
        try:
            run(args)
        finally:
            db.close_db()


def run(args):
    from reader import access
    from shelf import filters, summaries

    found = synthetic_index(args.manga)
    names = list(found.manga)
    access.set_restrictions("only", names[::2], [])
    access.set_restrictions("tags", None, ["adult", "horror"])
    ordered = summaries.ordered(found)
    print(f"{args.manga:,} manga, median of {args.runs} runs; the machine may be busy, so compare each "
          "figure with the baselines of the same run")
    print(f"  {'baseline: a dict lookup per manga':<42} "
          f"{per_call_ns(lambda name: found.manga.get(name), names, args.runs) / 1000:8.2f} µs per call")
    print(f"  {'baseline: one pass over every manga':<42} "
          f"{whole_ms(lambda: [s for s in ordered if s.name], args.runs):8.2f} ms")
    print(f"{'can_see(user, manga)':<44} {'per call':>10}")
    for user in ("free", "only", "tags"):
        ns = per_call_ns(lambda name, user=user: access.can_see(user, name), names, args.runs)
        print(f"  {user + ' user':<42} {ns / 1000:8.2f} µs")
    print(f"{'the whole index, one request':<44} {'total':>10}")
    for user in ("free", "only", "tags"):
        def visible(user=user):
            sees = access.visible(user)
            return [s for s in ordered if sees(s.name)]
        print(f"  {'visible(' + user + ') over every manga':<42} {whole_ms(visible, args.runs):8.2f} ms")
    terms = filters.parse("tag:drama status:ongoing")
    print(f"  {'filter tag:drama status:ongoing':<42} "
          f"{whole_ms(lambda: [s for s in ordered if all(t.matches(s) for t in terms)], args.runs):8.2f} ms")
    words = filters.parse("manga 0042")
    print(f"  {'filter by two plain words':<42} "
          f"{whole_ms(lambda: [s for s in ordered if all(t.matches(s) for t in words)], args.runs):8.2f} ms")
    print(f"  {'facets of every manga':<42} {whole_ms(lambda: filters.facets(ordered, []), args.runs):8.2f} ms")


if __name__ == "__main__":
    sys.exit(main())
