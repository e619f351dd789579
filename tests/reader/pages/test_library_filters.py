"""The library filter (shelf/filters.py): tag:, author:, status: and plain words, in /api/library
and on the library page without JavaScript; the manga page links its tags and people to it."""
import re
from urllib.parse import quote

from shelf import filters
from tests.conftest import PASSWORD
from tests.support.pages import fresh_reader


def _titles(client, q, sort=""):
    status, _, data = client.get(f"/api/library?q={quote(q)}" + (f"&sort={sort}" if sort else ""))
    assert status == 200, data
    return sorted(m["title"] for m in data["manga"]), data


def test_it_parses_kinds_quotes_and_plain_words():
    terms = filters.parse('tag:"Slice of Life" Author:aya  status:ongoing moon re:zero tag:"slice of life"')
    assert [(t.kind, t.value) for t in terms] == [
        ("tag", "Slice of Life"), ("author", "aya"), ("status", "ongoing"), ("word", "moon"), ("word", "re:zero")]
    assert filters.text(terms) == 'tag:"Slice of Life" author:aya status:ongoing moon re:zero'
    assert filters.term("tag", "Drama") == "tag:Drama"
    assert filters.parse('tag:"unclosed value')[0].value == "unclosed value"
    assert filters.parse('"" tag: ') == []


def test_it_filters_by_tag_author_status_and_words(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    assert _titles(user, "tag:fantasy")[0] == ["Moon Garden"]
    assert _titles(user, 'tag:"slice of life"')[0] == ["Moon Garden"]
    assert _titles(user, "tag:slice")[0] == []  # a tag matches whole
    assert _titles(user, "author:reyes")[0] == ["Iron Harbor"]
    assert _titles(user, "artist:brandt")[0] == ["Iron Harbor"]
    assert _titles(user, "status:completed")[0] == ["Iron Harbor", "星の図書館"]
    assert _titles(user, "status:completed harbor")[0] == ["Iron Harbor"]
    assert _titles(user, "status:completed tag:action")[0] == ["Iron Harbor"]
    assert _titles(user, "status:ongoing tag:action")[0] == []


def test_it_answers_chips_facets_and_the_recent_row(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    _, data = _titles(user, "status:completed")
    assert data["filters"] == [{"kind": "status", "value": "completed", "label": "Status: completed",
                                "text": "status:completed", "without": ""}]
    tags = {f["value"]: f for f in data["facets"]["tags"]}
    assert tags["Drama"]["count"] == 1 and tags["Drama"]["add"] == "?q=status%3Acompleted+tag%3ADrama"
    completed = {"value": "completed", "count": 2, "on": True, "add": "?q=status%3Acompleted", "label": "Completed"}
    assert data["facets"]["statuses"] == [completed]
    assert data["recent"] == [] and data["continue"] == []
    _, data = _titles(user, "", sort="added")
    assert data["recent"][0]["title"] == "Clockwork Fox" and len(data["recent"]) == 6
    assert data["filters"] == [] and len(data["facets"]["tags"]) == 10
    assert _titles(user, "tag:Drama", sort="added")[1]["filters"][0]["without"] == "?sort=added"


def test_the_library_page_filters_without_javascript(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    status, _, html = user.get("/?q=" + quote('tag:"Slice of Life"'))
    assert status == 200
    page = html.decode()
    assert page.count('class="tile') == 1 and "Moon Garden" in page
    chip = r'<a class="chip on" href="\?" title="Tag: Slice of Life"><span class="chip-label">Tag: Slice of Life'
    assert re.search(chip, page)
    assert 'href="?q=tag%3A%22Slice+of+Life%22+tag%3AFantasy"' in page  # a facet adds to the filter
    assert "recent-title" not in page
    assert "recent-title" in user.get("/")[2].decode()


def test_the_manga_page_links_tags_people_and_status_to_the_filtered_library(demo_app):
    user = demo_app.client().login(fresh_reader(demo_app), PASSWORD)
    page = user.get("/manga/Iron%20Harbor/")[2].decode()
    assert '<a class="person" href="/?q=author%3A%22Dana+Reyes%22">Dana Reyes</a>' in page
    assert '<a class="person" href="/?q=author%3A%22Milo+Brandt%22">Milo Brandt</a>' in page
    assert '<a class="status" href="/?q=status%3Acompleted">Completed</a>' in page
    assert '<a href="/?q=tag%3A%22Western+comic%22">Western comic</a>' in page
    assert _titles(user, 'author:"Dana Reyes"')[0] == ["Iron Harbor"]
