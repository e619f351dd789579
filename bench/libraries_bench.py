"""The library page and GET /api/library with 50 collections and the manga in 2 libraries (issue:
"stay within 1.1× of today's figures in the same run"): the same manga, users and reading state as
the one-library server beside it, the manga split between two folders by hard links (no page is
copied), measured turn about with the one-library server at 1 client."""
import shutil

from . import loadgen, serving
from .generate import Linker
from .report import Row, target

COLLECTIONS = 50
ROUNDS = 3


def split_library(library, into):
    """Two folders holding the manga of `library`, every other manga in the second, hard-linked."""
    first, second = into / "first", into / "second"
    shutil.rmtree(into, ignore_errors=True)
    link = Linker(into / "spare")
    for i, manga in enumerate(sorted(p for p in library.iterdir() if p.is_dir())):
        shutil.copytree(manga, (second if i % 2 else first) / manga.name, copy_function=link, symlinks=True)
    return first, second


def make_collections(admin, names):
    """COLLECTIONS shared collections of ten manga each, spread over the library."""
    for i in range(COLLECTIONS):
        members = [names[(i * 7 + k) % len(names)] for k in range(min(10, len(names)))]
        status, _, data = admin.post("/api/collections", {"name": f"Collection {i:02d}", "shared": True,
                                                          "members": list(dict.fromkeys(members))})
        assert status == 200, data


def rows(work, library, data, cookie, manga_count, seconds, server_cpus, client_cpus):
    first, second = split_library(library, work / "two-libraries")
    two_data = work / "data-two-libraries"
    shutil.rmtree(two_data, ignore_errors=True)
    shutil.copytree(data, two_data, ignore=shutil.ignore_patterns("library-index*.json", "scan-cache*.json",
                                                                 ".lock", "*.tmp"))
    env = {"LIBRARY": "", "LIBRARIES": f"Manga={first};Comics={second}"}
    one = serving.start_server(data, library, cpus=server_cpus)
    two = serving.start_server(two_data, None, env=env, cpus=server_cpus)
    try:
        admin = serving.Client("127.0.0.1", two.port)
        admin.cookies["sid"] = cookie
        serving.wait_for_library(admin, manga_count, max(120, manga_count / 10))  # its first full scan
        names = [m["name"] for m in admin.get(f"/api/library?limit={manga_count}")[2]["manga"]]
        make_collections(admin, names)
        browsers = {"one": serving.browser_cookies(one, [cookie]), "two": serving.browser_cookies(two, [cookie])}
        out = []
        for name, path in (("/api/library", "/api/library"), ("library page", "/")):
            best = {"one": float("inf"), "two": float("inf")}
            for _ in range(ROUNDS):
                for kind, server in (("one", one), ("two", two)):
                    r = loadgen.run(server.url, path, cookies=browsers[kind], clients=1, seconds=seconds / ROUNDS,
                                    cpus=client_cpus)
                    best[kind] = min(best[kind], r["p50"])
            out.append(Row(f"{name}, 2 libraries, {COLLECTIONS} collections", value=best["two"] / best["one"],
                           shown=f"p50 {best['two']:.3g} ms", baseline=f"1 library, none: p50 {best['one']:.3g} ms",
                           ratio=best["two"] / best["one"], target=target("value <= 1.1 | ≤ 1.1× single")))
        return out
    finally:
        one.stop()
        two.stop()
