"""GET /api/library: cards with read counts, filter, sort, paging, the continue row, bad input."""
import re


def _names(data):
    return [m["name"] for m in data["manga"]]


def test_it_lists_every_manga_in_title_order_with_counts(scanned, reader_user):
    status, _, data = reader_user.get("/api/library")
    assert status == 200
    assert data["count"] == data["total"] == 2 and data["offset"] == 0
    assert _names(data) == ["Long Scroll", "Moon Garden"]
    moon = data["manga"][1]
    assert moon["title"] == "Moon Garden" and moon["url"] == "manga/Moon%20Garden/"
    assert moon["chapters"] == 2 and moon["read"] == 0 and moon["unread"] == 2
    assert moon["lastRead"] is None and moon["following"] is False
    assert re.fullmatch(r"thumb/Moon%20Garden/[0-9a-f]{32}\.webp", moon["cover"])  # names the thumbnail's file
    assert data["continue"] == [] and data["unread"] == 0


def test_it_counts_only_the_users_own_reading(scanned, reader_user, other_user):
    assert reader_user.post("/api/read", {"m": "Moon Garden", "c": "1/1"})[0] == 200
    mine = reader_user.get("/api/library")[2]["manga"][1]
    theirs = other_user.get("/api/library")[2]["manga"][1]
    assert (mine["read"], mine["unread"]) == (1, 1) and mine["lastRead"]
    assert (theirs["read"], theirs["unread"]) == (0, 2) and theirs["lastRead"] is None


def test_it_filters_on_every_word_of_the_title_or_author(scanned, reader_user):
    assert _names(reader_user.get("/api/library?q=moon")[2]) == ["Moon Garden"]
    assert _names(reader_user.get("/api/library?q=GARDEN%20moon")[2]) == ["Moon Garden"]
    assert _names(reader_user.get("/api/library?q=writer")[2]) == ["Moon Garden"]  # authors in manga.json
    data = reader_user.get("/api/library?q=nothing%20like%20this")[2]
    assert data["manga"] == [] and data["total"] == 0 and data["count"] == 2


def test_it_sorts_by_last_read_and_unread(scanned, reader_user):
    reader_user.post("/api/read", {"m": "Long Scroll", "c": "0/1"})
    assert _names(reader_user.get("/api/library?sort=last")[2]) == ["Long Scroll", "Moon Garden"]
    assert _names(reader_user.get("/api/library?sort=unread")[2]) == ["Moon Garden", "Long Scroll"]
    reader_user.post("/api/read", {"m": "Moon Garden", "c": "1/1"})
    assert _names(reader_user.get("/api/library?sort=last")[2]) == ["Moon Garden", "Long Scroll"]
    assert len(reader_user.get("/api/library?sort=added")[2]["manga"]) == 2


def test_it_pages_with_offset_and_limit(scanned, reader_user):
    first = reader_user.get("/api/library?limit=1")[2]
    second = reader_user.get("/api/library?limit=1&offset=1")[2]
    assert _names(first) == ["Long Scroll"] and _names(second) == ["Moon Garden"]
    assert first["total"] == second["total"] == 2


def test_it_offers_to_continue_what_was_read_last(scanned, reader_user):
    reader_user.post("/api/read", {"m": "Moon Garden", "c": "1/1"})
    row = reader_user.get("/api/library")[2]["continue"]
    assert [item["name"] for item in row] == ["Moon Garden"]
    assert row[0]["target"]["action"] == "next" and row[0]["target"]["id"] == "1/2"
    assert row[0]["target"]["url"] == "read/Moon%20Garden/1/2/"
    reader_user.post("/api/read", {"m": "Moon Garden", "c": "1/2"})
    assert reader_user.get("/api/library")[2]["continue"] == []  # caught up


def test_it_refuses_bad_parameters_naming_them(scanned, reader_user):
    for query, word in (("sort=random", "sort"), ("offset=-1", "offset"), ("limit=ten", "limit"),
                        ("q=" + "x" * 201, "q")):
        status, _, data = reader_user.get("/api/library?" + query)
        assert status == 400 and word in data["error"], query
