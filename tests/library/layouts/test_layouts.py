"""Libraries laid out as downloaders and other readers write them, scanned and read back.

1. For each tool module (tests/library/layouts/__init__.py, LAYOUTS), its LAYOUT is built as real
   files under the tool's own download root, and scanned by the real scanner.
2. A tool that puts source or category folders above the manga (SOURCES): LIBRARY at its download
   root gives one `manga-folders` warning per source folder, naming the level LIBRARY must be, and
   no manga. The other tests then point LIBRARY at each source folder, as docs/library.md says.
3. The indexes must hold exactly the manga of EXPECTED, and each manga's chapters, in reading order,
   one row per version: (book key or None for book "0", chapter key, title, source).
4. GET /api/manga must give the same rows, in the order of its `books` runs.
4. Kavita's scanner test cases (kavita_scanner_cases.json, copied from Kavita's API.Tests): every
   file listed is either indexed or named by a scan warning, and where Kavita's own test asserts
   them, the numbers of series and of volumes (books here) match.

Versions of one chapter are compared as a set: their order among themselves is ranking, not naming.
"""
import importlib
import json
from pathlib import Path
from urllib.parse import quote

import pytest

from library.scan import Scan
from tests.conftest import PASSWORD
from tests.library.cbz import comic_info, make_cbz
from tests.library.images import png_bytes
from tests.library.layouts import LAYOUTS
from tests.library.layouts.tree import build
from tests.support.app import AppServer

KAVITA = json.loads((Path(__file__).parent / "kavita_scanner_cases.json").read_text())
KAVITA_CASES = {case["file"]: case for case in KAVITA["cases"]}
ARCHIVES = (".cbz", ".cbr", ".zip", ".rar")  # what Kavita's Scaffold() writes as a ZIP


def layout(tool):
    return importlib.import_module(f"tests.library.layouts.{tool}")


def scan(root):
    idx, report = Scan(root, None, "full").run()
    assert report["error"] is None, report
    return idx, report


def grouped(rows):
    """Consecutive rows of one chapter → (book, chapter, sorted versions (title, source))."""
    out = []
    for book, key, title, source in rows:
        if out and out[-1][:2] == (book, key):
            out[-1][2].append((title, source))
        else:
            out.append((book, key, [(title, source)]))
    return [(book, key, sorted(versions, key=repr)) for book, key, versions in out]


def book_of(key):
    return None if key == "0" else key


def index_rows(manga):
    return [(book_of(c.book), c.key, v.title, v.source) for c in manga.chapters() for v in c.versions]


def api_rows(manga):
    return [(book_of(b["key"]), c["key"], v["title"], v["source"])
            for b in manga["books"] for c in b["chapters"] for v in c["versions"]]


def loose(text):
    return " ".join(text.replace("_", " ").split()).casefold()


def find(items, title, title_of, name_of):
    """The item titled `title`; else one whose title or folder name matches it loosely (`_` for
    spaces), so a manga whose title alone is wrong still has its chapters compared."""
    exact = [m for m in items if title_of(m) == title]
    if exact:
        return exact[0]
    return next((m for m in items if loose(title) in (loose(title_of(m)), loose(name_of(m).rsplit("/", 1)[-1]))),
                None)


@pytest.fixture
def built(request, tmp_path):
    module = layout(request.param)
    return module, build(tmp_path / "library", module.LAYOUT)


def libraries(module, root):
    """The folders LIBRARY points at for this tool: each source folder, else its download root."""
    return [root / source for source in getattr(module, "SOURCES", ("",))]


def scan_all(module, root):
    """(every manga found, every warning) with LIBRARY at each of libraries()."""
    manga, warnings = [], []
    for library in libraries(module, root):
        idx, _ = scan(library)
        manga += idx.sorted()
        warnings += idx.all_warnings()
    return manga, warnings


@pytest.mark.parametrize("built", [t for t in LAYOUTS if hasattr(layout(t), "SOURCES")], indirect=True)
def test_it_names_the_level_library_must_be_at_a_downloaders_root(built):
    module, root = built
    idx, _ = scan(root)
    assert len(idx) == 0
    warned = sorted((path, message) for kind, path, message in idx.all_warnings() if kind == "manga-folders")
    assert [path for path, _ in warned] == sorted(module.SOURCES), idx.all_warnings()
    for path, message in warned:
        assert "point it at this folder" in message, message
        manga = sorted(p.split("/")[1] for p in module.LAYOUT if p.startswith(path + "/"))
        assert manga[0] in message, (manga, message)


@pytest.mark.parametrize("built", LAYOUTS, indirect=True)
def test_it_finds_each_manga_of_the_layout(built):
    """Each manga of EXPECTED, by title, read from its own folder: its name is its folder, `_` or not."""
    module, root = built
    manga, warnings = scan_all(module, root)
    found = sorted((m.title, loose(m.name)) for m in manga)
    assert found == sorted((title, loose(title)) for title in module.EXPECTED), (found, warnings)


@pytest.mark.parametrize("built", LAYOUTS, indirect=True)
def test_it_reads_each_chapter_of_the_layout(built):
    module, root = built
    manga, warnings = scan_all(module, root)
    everything = {m.name: index_rows(m) for m in manga}
    for title, expected in module.EXPECTED.items():
        found = find(manga, title, lambda m: m.title, lambda m: m.name)
        assert found is not None, (title, everything, warnings)
        assert grouped(index_rows(found)) == grouped(expected), (title, found.name, found.warnings)


@pytest.mark.parametrize("built", LAYOUTS, indirect=True)
def test_it_serves_the_same_reading_through_the_api(built, tmp_path):
    module, root = built
    seen = set()
    for n, library in enumerate(libraries(module, root)):
        srv = AppServer(tmp_path / f"data{n}", library).start()
        try:
            user = srv.client().signup("admin", PASSWORD)
            status, _, listed = user.get("/api/library")
            assert status == 200, listed
            for title, expected in module.EXPECTED.items():
                entry = find(listed["manga"], title, lambda m: m["title"], lambda m: m["name"])
                if entry is None:
                    continue  # in another source folder
                seen.add(title)
                status, _, manga = user.get("/api/manga?m=" + quote(entry["name"]))
                assert status == 200, manga
                assert grouped(api_rows(manga)) == grouped(expected), (title, entry["name"])
        finally:
            srv.stop()
    assert seen == set(module.EXPECTED)


# Kavita's scanner test cases ------------------------------------------------------------------------

KAVITA_INFO = comic_info(Writer="Joe Shmo", Penciller="Tommy Two Hands")


def scaffold(root, paths):
    """Kavita's Scaffold(): an archive name gets a ZIP of one 1x1 PNG and a ComicInfo.xml (a `.rar`
    too), any other name an empty file."""
    for rel in paths:
        path = root / rel
        if path.suffix.lower() in ARCHIVES:
            make_cbz(path, {"1x1.png": png_bytes((1, 1)), "ComicInfo.xml": KAVITA_INFO}, deflate=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(b"")
    return root


@pytest.fixture
def kavita(request, tmp_path):
    case = KAVITA_CASES[request.param]
    idx, _ = scan(scaffold(tmp_path / "library", case["paths"]))
    return case, idx


# Where MangaCircus differs from Kavita on purpose (docs/library.md, "Depth"): case → why.
KAVITA_EXCEPTIONS = {
    "Publisher - ComicVine.json": "publisher folders above the series folders: manga ids are top-level folders, "
                                  "so each publisher folder gets one manga-folders warning",
}


def with_key(key):
    return [name for name, case in KAVITA_CASES.items() if key in case and name not in KAVITA_EXCEPTIONS]


@pytest.mark.parametrize("kavita", list(KAVITA_EXCEPTIONS), indirect=True)
def test_kavita_case_kept_as_an_exception_is_named_by_one_warning_per_folder(kavita):
    case, idx = kavita
    tops = {p.split("/")[0] for p in case["paths"]}
    warned = {path for kind, path, _ in idx.all_warnings() if kind == "manga-folders"}
    assert warned and warned == tops - {m.name for m in idx.sorted()}, (tops, idx.all_warnings())


@pytest.mark.parametrize("kavita", list(KAVITA_CASES), indirect=True)
def test_kavita_case_indexes_or_names_every_file(kavita):
    case, idx = kavita
    indexed = {v.archive or v.path for m in idx.sorted() for v in m.versions()}
    warned = {path for _, path, _ in idx.all_warnings()}
    named = lambda p: any(p == w or p.startswith(w + "/") for w in warned)  # noqa: E731
    dropped = [p for p in case["paths"] if p not in indexed and not named(p)]
    assert not dropped, (dropped, idx.all_warnings())


@pytest.mark.parametrize("kavita", with_key("series"), indirect=True)
def test_kavita_case_finds_as_many_series_as_kavita(kavita):
    case, idx = kavita
    assert len(idx) == case["series"], ([m.name for m in idx.sorted()], case["test"])


@pytest.mark.parametrize("kavita", with_key("series_files"), indirect=True)
def test_kavita_case_groups_the_files_into_series_as_kavita(kavita):
    case, idx = kavita
    found = sorted((m.name.rsplit("/", 1)[-1], sorted(v.archive or v.path for v in m.versions())) for m in idx.sorted())
    expected = sorted((s["folder"].rsplit("/", 1)[-1], sorted(s["files"])) for s in case["series_files"])
    assert found == expected


@pytest.mark.parametrize("kavita", with_key("volumes"), indirect=True)
def test_kavita_case_finds_as_many_volumes_as_kavita(kavita):
    case, idx = kavita
    assert len(idx) == 1, [m.name for m in idx.sorted()]
    manga = idx.sorted()[0]
    assert len(manga.books) == case["volumes"], ([(b.key, [c.key for c in b.chapters]) for b in manga.books],
                                                 case["test"])
