"""ComicInfo.xml as Komga reads it, in libraries of real CBZ files read back through /api/manga, the
reader, the library filter and the Komga API (docs/library.md, "ComicInfo.xml"):

- the manga's fields come from its chapters in reading order, each field from the first that has
  it, so neither folder-listing order nor a small bonus archive decides them;
- `Manga`: YesAndRightToLeft → rtl, No → ltr, Yes or nothing → DEFAULT_DIRECTION, with the
  precedence chapter.json > catalog override > manga.json > ComicInfo > tall pages > default;
- Genre is the manga's, Tags the chapter's, and both filter the library;
- a whole-volume archive's Title is its book's title.
"""
from urllib.parse import quote

import pytest

from library import comicinfo
from library import meta as library_meta
from library.names import ArchiveName, BookName, ChapterName
from tests.conftest import PASSWORD
from tests.library.cbz import comic_info, make_cbz, pages
from tests.library.conftest import scan
from tests.reader.komga.apps import basic
from tests.support.app import AppServer
from tests.support.pages import wait_for_library

MOON = quote("Moon Garden")


def moon_garden(root):
    """Moon Garden, listed (natural order of names) as: a volume 3 whose name starts with another word,
    so it is listed first; a bonus whose name has no number (ComicInfo says 0.5, so it is read first)
    and whose ComicInfo has only Series, Title and Tags; volume 1 with the full ComicInfo; an extras
    book. Volume 1 says Manga=No, volume 3 Manga=Yes (the library's default)."""
    m = root / "Moon Garden"
    make_cbz(m / "Annual v03.cbz", {**pages(2), "ComicInfo.xml": comic_info(
        Series="Moon Garden", Volume="3", Title="Harvest", Writer="Late Writer", Penciller="Late Artist",
        Genre="Late Genre", Summary="The late summary.", Manga="Yes")})
    make_cbz(m / "Bonus.cbz", {**pages(2), "ComicInfo.xml": comic_info(
        Series="Moon Garden", Title="Bonus", Number="0.5", Tags="Omake, Colour")})
    make_cbz(m / "Moon Garden v01.cbz", {**pages(3), "ComicInfo.xml": comic_info(
        Series="Moon Garden", Volume="1", Title="Seeds of Spring", Writer="Aya Kisaragi", Genre="Fantasy, Drama",
        Tags="Plants", Summary="A garden on the moon.", Publisher="Lune", Year="2019",
        Web="https://example.org/moon", Manga="No")})
    make_cbz(m / "x01 Side Stories.cbz", {**pages(2), "ComicInfo.xml": comic_info(
        Series="Moon Garden", Writer="Guest Writer", Penciller="Extra Artist", Genre="Extra Genre")})
    # a whole volume holding two chapter folders: its Title names the book, its Tags go to both chapters
    make_cbz(m / "Moon Garden v02.cbz", {**pages(2, folder="Chapter 3 Night/"), **pages(2, folder="Chapter 4/"),
                                         "ComicInfo.xml": comic_info(Volume="2", Title="Summer", Tags="Sea")})
    return root


@pytest.fixture
def moon(tmp_path, data_dir):
    library = moon_garden(tmp_path / "library")
    srv = AppServer(data_dir, library, env={"DEFAULT_DIRECTION": "rtl"}).start()
    user = srv.client().signup("admin", PASSWORD)
    wait_for_library(user, 1)
    yield srv, user
    srv.stop()


def test_series_fields_come_from_the_first_chapter_in_reading_order_that_has_each(moon):
    _srv, user = moon
    status, _, manga = user.get(f"/api/manga?m={MOON}")
    assert status == 200, manga
    meta = manga["meta"]
    assert [b["key"] for b in manga["books"]] == ["0", "1", "2", "3", "x1"]
    # volume 1 says them, though volume 3 is listed first and the bonus is read first
    assert meta["authors"] == ["Aya Kisaragi"] and meta["description"] == "A garden on the moon."
    assert meta["genres"] == ["Fantasy", "Drama"] and meta["year"] == 2019
    assert {"name": "Web", "url": "https://example.org/moon"} in meta["links"]
    # volume 1 has no Penciller: volume 3's, the next in reading order, not the extras book's
    assert meta["artists"] == ["Late Artist"]
    assert meta["tags"] == []  # ComicInfo Tags are no manga tags: they are the chapters'


def test_a_whole_volume_archives_title_names_its_book_and_tags_go_to_its_chapters(moon):
    _srv, user = moon
    manga = user.get(f"/api/manga?m={MOON}")[2]
    books = {b["key"]: b for b in manga["books"]}
    assert books["1"]["title"] == "Seeds of Spring" and books["3"]["title"] == "Harvest"
    assert books["2"]["title"] == "Summer"
    assert [(c["id"], c["tags"]) for c in books["2"]["chapters"]] == [("2/3", ["Sea"]), ("2/4", ["Sea"])]
    assert [(c["id"], c["title"], c["tags"]) for c in books["0"]["chapters"]] == [
        ("0/0.5", "Bonus", ["Omake", "Colour"])]
    assert books["1"]["chapters"][0]["tags"] == ["Plants"]


def test_the_manga_field_gives_the_direction_and_a_chapter_without_it_follows_the_manga(moon):
    _srv, user = moon
    manga = user.get(f"/api/manga?m={MOON}")[2]
    assert (manga["direction"], manga["directionFrom"]) == ("ltr", "ComicInfo.xml")
    for cid in ("0/0.5", "1/1", "2/3", "3/1", "x1/1"):  # No ComicInfo Manga, or Manga=Yes: the manga's
        status, _, chapter = user.get(f"/api/chapter?m={MOON}&c={quote(cid)}")
        assert status == 200 and chapter["direction"] == "ltr", (cid, chapter.get("direction"))


def test_the_manga_page_says_where_its_direction_comes_from(moon):
    srv, user = moon
    status, _, html = user.get(f"/manga/{MOON}/")
    assert status == 200
    html = html.decode() if isinstance(html, bytes) else html
    assert 'data-direction="ltr" data-from="ComicInfo.xml"' in html and "from ComicInfo.xml (Manga)" in html
    assert "Fantasy</a>" in html and "change</a>" in html  # a genre link; an admin's link to the catalog


def test_a_catalog_override_wins_over_comicinfo_and_the_page_says_so(moon):
    _srv, user = moon
    rev = user.get("/api/admin/catalog")[2]["rev"]
    status, _, body = user.post("/api/admin/catalog/overrides", {"rev": rev, "m": "Moon Garden", "direction": "rtl"})
    assert status == 200, body
    manga = user.get(f"/api/manga?m={MOON}")[2]
    assert (manga["direction"], manga["directionFrom"]) == ("rtl", "catalog")
    assert user.get(f"/api/chapter?m={MOON}&c=1/1")[2]["direction"] == "rtl"
    status, _, html = user.get(f"/settings/admin/catalog/manga/{MOON}/")
    html = html.decode() if isinstance(html, bytes) else html
    assert status == 200 and "As the folder says: Left to right (from ComicInfo.xml (Manga))" in html


def test_genres_and_chapter_tags_filter_the_library_apart(moon):
    _srv, user = moon
    found = {q: [m["name"] for m in user.get("/api/library?q=" + quote(q))[2]["manga"]]
             for q in ("genre:Fantasy", "tag:Omake", "tag:sea", "tag:Fantasy", "genre:Omake", 'genre:"Late Genre"')}
    assert found == {"genre:Fantasy": ["Moon Garden"], "tag:Omake": ["Moon Garden"], "tag:sea": ["Moon Garden"],
                     "tag:Fantasy": [], "genre:Omake": [], 'genre:"Late Genre"': []}
    facets = user.get("/api/library")[2]["facets"]
    assert [f["value"] for f in facets["genres"]] == ["Drama", "Fantasy"]
    assert sorted(f["value"] for f in facets["tags"]) == ["Colour", "Omake", "Plants", "Sea"]
    status, _, html = user.get("/?q=" + quote("genre:Fantasy"))
    assert status == 200


def test_the_komga_api_keeps_genres_on_the_series_and_tags_on_the_books(moon):
    srv, _user = moon
    app = srv.client()
    auth = {"Authorization": basic("admin")}
    (series,) = app.get("/komga/api/v1/series", headers=auth)[2]["content"]
    metadata = series["metadata"]
    assert metadata["genres"] == ["Fantasy", "Drama"] and metadata["tags"] == []
    assert metadata["publisher"] == "Lune" and metadata["readingDirection"] == "LEFT_TO_RIGHT"
    assert sorted(series["booksMetadata"]["tags"]) == ["Colour", "Omake", "Plants", "Sea"]
    assert app.get("/komga/api/v1/genres", headers=auth)[2] == ["Drama", "Fantasy"]
    assert app.get("/komga/api/v1/tags", headers=auth)[2] == ["Colour", "Omake", "Plants", "Sea"]
    for query, total in (("genre=Fantasy", 1), ("genre=Omake", 0), ("tag=Omake", 1), ("tag=Fantasy", 0)):
        assert app.get(f"/komga/api/v1/series?{query}", headers=auth)[2]["totalElements"] == total, query
    books = app.get(f"/komga/api/v1/series/{series['id']}/books?unpaged=true", headers=auth)[2]["content"]
    assert [b["metadata"]["tags"] for b in books][0] == ["Omake", "Colour"]


# ---- the rules, table by table, on scans of tiny libraries -----------------------------------------

def _one_manga(root, chapter_info=None, manga_json=None, chapter_json=None, tall=False):
    """A manga of one chapter: an image folder (when chapter_json is given) or a CBZ with that ComicInfo."""
    m = root / "Night Patrol"
    size = (40, 200) if tall else (40, 60)
    if chapter_json is not None:
        folder = m / "c001"
        for name, data in pages(2, size=size).items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        (folder / "chapter.json").write_text(chapter_json)
        if chapter_info:
            (folder / "ComicInfo.xml").write_bytes(comic_info(Series="Night Patrol", **chapter_info))
    else:
        members = {**pages(2, size=size)}
        if chapter_info is not None:
            members["ComicInfo.xml"] = comic_info(Series="Night Patrol", **chapter_info)
        make_cbz(m / "c001.cbz", members)
    if manga_json:
        (m / "manga.json").write_text(manga_json)
    return m


RTL, LTR, TTB = '{"direction": "rtl"}', '{"direction": "ltr"}', '{"direction": "ttb"}'
YRTL = "YesAndRightToLeft"
#  ComicInfo Manga  manga.json  chapter.json  tall   override  default → manga's direction, its source, the chapter's
DIRECTIONS = [
    (YRTL,       None,  None,  False, None,  "ltr",   "rtl", "ComicInfo.xml", "rtl"),
    ("No",       None,  None,  False, None,  "rtl",   "ltr", "ComicInfo.xml", "ltr"),
    ("Yes",      None,  None,  False, None,  "ltr",   "ltr", "default", "ltr"),
    ("Yes",      None,  None,  False, None,  "rtl",   "rtl", "default", "rtl"),
    (None,       None,  None,  False, None,  "ltr",   "ltr", "default", "ltr"),
    ("Unknown",  None,  None,  False, None,  "rtl",   "rtl", "default", "rtl"),
    (None,       None,  None,  True,  None,  "rtl",   "ttb", "pages", "ttb"),
    ("No",       None,  None,  True,  None,  "rtl",   "ltr", "ComicInfo.xml", "ltr"),
    ("No",       RTL,   None,  False, None,  "rtl",   "rtl", "manga.json", "rtl"),
    ("No",       RTL,   None,  False, "ttb", "rtl",   "ttb", "catalog", "ttb"),
    (YRTL,       None,  None,  False, "ltr", "rtl",   "ltr", "catalog", "ltr"),
    ("No",       RTL,   TTB,   False, "ltr", "rtl",   "ltr", "catalog", "ttb"),
    ("No",       None,  "{}",  False, None,  "rtl",   "ltr", "ComicInfo.xml", "ltr"),
    (None,       LTR,   None,  True,  None,  "rtl",   "ltr", "manga.json", "ltr"),
]


@pytest.mark.parametrize("manga_flag,manga_json,chapter_json,tall,override,default,want,source,chapter_want",
                         DIRECTIONS)
def test_the_direction_precedence(tmp_path, manga_flag, manga_json, chapter_json, tall, override, default, want,
                                  source, chapter_want):
    info = {"Number": "1", **({"Manga": manga_flag} if manga_flag else {})}
    _one_manga(tmp_path, info, manga_json, chapter_json, tall)
    found, _report = scan(tmp_path, default_direction=default)
    manga = found.get("Night Patrol")
    assert library_meta.manga_direction(manga, override, default) == (want, source)
    (chapter,) = manga.chapters()
    assert library_meta.version_direction(chapter.versions[0], manga, override) == chapter_want


def test_a_bonus_without_the_manga_field_reads_like_the_manga_whatever_it_is_listed_after(tmp_path):
    m = tmp_path / "Night Patrol"
    make_cbz(m / "Bonus.cbz", {**pages(2), "ComicInfo.xml": comic_info(Number="0.5", Title="Pin-ups")})
    make_cbz(m / "Night Patrol 002.cbz", {**pages(2), "ComicInfo.xml": comic_info(Series="Night Patrol", Manga="No")})
    make_cbz(m / "Night Patrol 001.cbz", {**pages(2), "ComicInfo.xml": comic_info(Series="Night Patrol",
                                                                                  Manga="YesAndRightToLeft")})
    found, _report = scan(tmp_path, default_direction="ttb")
    manga = found.get("Night Patrol")
    # chapter 1 says rtl and is read before chapter 2: the manga's; each chapter with a Manga keeps its own
    assert manga.direction == "rtl" and manga.meta["comicInfoDirection"] == "rtl"
    got = {c.id: library_meta.version_direction(c.versions[0], manga, None) for c in manga.chapters()}
    assert got == {"0/0.5": "rtl", "0/1": "rtl", "0/2": "ltr"}


def _leading(chapter, title, source=None, book=None):
    """What the name parser gives for a name whose number is only a position (`0004 - Arrival`)."""
    return ArchiveName(BookName(book, None) if book else None, ChapterName(chapter, title, source), False, True)


#  what the name gives         ComicInfo (Number, Volume)  in a book folder → book, chapter ("none": None at all)
NUMBERED = [
    (None,                          ("12", None),    False, None,        ("12", None, "src")),
    (None,                          ("012.5", "2"),  False, ("2", None), ("12.5", None, "src")),
    (None,                          (None, "3"),     False, ("3", None), None),
    (None,                          (None, "3"),     True,  "none",      None),
    (None,                          ("7", "3"),      True,  None,        ("7", None, "src")),
    (None,                          (None, None),    False, "none",      None),
    (None,                          ("1a", None),    False, "none",      None),
    (_leading("4", "Arrival", "Team"), ("12", None), False, None,        ("12", "Arrival", "Team")),
    (_leading("4", "Arrival"),      ("12", "2"),     False, ("2", None), ("12", "Arrival", "src")),
    (_leading("4", "Arrival"),      (None, "2"),     False, ("2", None), ("4", "Arrival", None)),
    (_leading("4", None, book="5"), ("9", None),     False, ("5", None), ("9", None, "src")),
    (_leading("4", "Arrival"),      (None, None),    False, "none",      None),
]


@pytest.mark.parametrize("named,numbers,in_book,book,chapter", NUMBERED)
def test_number_and_volume_are_used_when_the_name_gives_none_or_only_a_position(named, numbers, in_book, book,
                                                                                chapter):
    info = {k: v for k, v in zip(("Number", "Volume"), numbers) if v is not None}
    got = comicinfo.numbered(info, named, in_book, source="src")
    if book == "none":
        assert got is None
        return
    assert got is not None
    assert got.book == (BookName(*book) if book else None)
    assert got.chapter == (ChapterName(*chapter) if chapter else None)
    assert not got.leading


def test_series_fields_are_filled_field_by_field():
    assert comicinfo.series_fields([{"title": "S"}, {}, None, {"title": "T", "authors": ["A"]}, {"authors": ["B"]}]) \
        == {"title": "S", "authors": ["A"]}


def test_the_reading_order_puts_extras_last(tmp_path):
    m = tmp_path / "Moon Garden"
    for name in ("x01 Omake.cbz", "Moon Garden v02.cbz", "Moon Garden c001.cbz"):
        make_cbz(m / name, pages(1))
    make_cbz(m / "Vol 1" / "x01 Extra.cbz", pages(1))
    make_cbz(m / "Vol 1" / "c002.cbz", pages(1))
    found, _report = scan(tmp_path)
    order = [f"{b.key}/{c.key}" for b, c in library_meta.reading_order(found.get("Moon Garden").books)]
    assert order == ["0/1", "1/2", "2/1", "1/x1", "x1/1"]


@pytest.mark.parametrize("hidden", ["drama", "Omake", "plants"])
def test_a_hidden_genre_or_chapter_tag_hides_the_manga_as_a_tag_did(moon, hidden):
    """Genre and Tags used to be the manga's tags, which restrictions hide: they still do, apart."""
    srv, admin = moon
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    status, _, body = admin.post("/api/admin/user/access", {"name": "reader", "excludeTags": [hidden]})
    assert status == 200, body
    reader = srv.client().login("reader")
    assert reader.get("/api/library")[2]["count"] == 0
    assert reader.get(f"/api/manga?m={MOON}")[0] == 404
    status, _, html = admin.get("/settings/admin/users/reader/access/")
    assert status == 200 and all(t in html.decode() for t in ("Fantasy", "Omake", "Plants"))
