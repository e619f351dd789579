"""Settings → Admin → Catalog as forms: add, search, reorder, a stale form answered 409, metadata edits."""
import re

import pytest

from tests.support.forms import post_form
from tests.support.pages import wait_for_library

HOME = "/settings/admin/catalog/"


@pytest.fixture
def curator(server, admin):
    wait_for_library(admin, 2)
    return admin


def rev_of(html):
    return re.search(rb'name="rev" value="(\d+)"', html).group(1).decode()


def test_it_adds_searches_and_deletes_a_relation(curator):
    html = curator.get(HOME)[2]
    status, headers, _ = post_form(curator, HOME, {"action": "add-relation", "rev": rev_of(html), "a": "Moon Garden",
                                                   "type": "prequel", "b": "Long Scroll", "note": ""})
    assert status == 302
    page = curator.get(HOME)[2].decode()
    assert "Added: Long Scroll sequel Moon Garden." in page
    assert curator.get(HOME + "?q=scroll")[2].decode().count("has sequel") == 1
    assert "No relation matches." in curator.get(HOME + "?q=nothing-like-it")[2].decode()
    html = curator.get(HOME)[2]
    post_form(curator, HOME, {"action": "delete-relation", "rev": rev_of(html), "a": "Long Scroll", "type": "sequel",
                              "b": "Moon Garden"})
    assert "No relations yet." in curator.get(HOME)[2].decode()


def test_a_stale_form_gets_409_and_the_current_page(curator):
    stale = rev_of(curator.get(HOME)[2])
    post_form(curator, HOME, {"action": "add-relation", "rev": stale, "a": "A", "type": "sequel", "b": "B"})
    status, _, body = post_form(curator, HOME, {"action": "add-relation", "rev": stale, "a": "A", "type": "sequel",
                                                "b": "C"})
    assert status == 409
    assert "the catalog changed since you loaded it" in body.decode()
    assert "has sequel" in body.decode() and body.decode().count("<td>C") == 0


def test_a_bad_relation_comes_back_as_a_message(curator):
    html = curator.get(HOME)[2]
    post_form(curator, HOME, {"action": "add-relation", "rev": rev_of(html), "a": "A", "type": "sequel", "b": "A"})
    assert "A cannot be related to itself" in curator.get(HOME)[2].decode()


def test_it_creates_and_reorders_a_group_marking_missing_members(curator):
    html = curator.get(HOME)[2]
    status, headers, _ = post_form(curator, HOME, {"action": "create-group", "rev": rev_of(html), "name": "Cycle",
                                                   "members": "Moon Garden\nGone Away\nLong Scroll", "ordered": "on"})
    group_page = headers["Location"]
    html = curator.get(group_page)[2]
    assert html.decode().count("missing</span>") == 1
    post_form(curator, group_page, {"action": "move", "rev": rev_of(html), "member": "Long Scroll", "to": "0"})
    page = curator.get(group_page)[2].decode()
    assert re.findall(r'data-member="([^"]+)"', page) == ["Long Scroll", "Moon Garden", "Gone Away"]


def test_it_edits_metadata_without_touching_the_library(curator, library_dir):
    before = (library_dir / "Moon Garden" / "manga.json").read_bytes()
    url = "/settings/admin/catalog/manga/Moon%20Garden/"
    html = curator.get(url)[2]
    status, _, _ = post_form(curator, url, {
        "rev": rev_of(html), "title": "Garden of the Moon", "altTitles": "月の庭\n", "description": "Quiet.",
        "tags": "fantasy\nslow", "direction": "ltr",
        "cover": '{"c": "1/1", "v": "c0001 Seeds", "p": 1}'})
    assert status == 302
    page = curator.get("/manga/Moon%20Garden/")[2].decode()
    assert "<h1>Garden of the Moon</h1>" in page and "月の庭" in page and ">slow</a></li>" in page
    assert (library_dir / "Moon Garden" / "manga.json").read_bytes() == before
    html = curator.get(url)[2].decode()
    chosen = "{&quot;c&quot;: &quot;1/1&quot;, &quot;v&quot;: &quot;c0001 Seeds&quot;, &quot;p&quot;: 1}"
    assert f'value="{chosen}" checked' in html
    history = curator.get("/settings/admin/catalog/history/")[2].decode()
    assert "edited the metadata of Moon Garden" in history


def test_it_edits_a_relations_type_and_note_in_one_change(curator):
    html = curator.get(HOME)[2]
    post_form(curator, HOME, {"action": "add-relation", "rev": rev_of(html), "a": "Moon Garden", "type": "sequel",
                              "b": "Long Scroll", "note": ""})
    html = curator.get(HOME)[2]
    status, _, _ = post_form(curator, HOME, {
        "action": "edit-relation", "rev": rev_of(html), "was_a": "Moon Garden", "was_type": "sequel",
        "was_b": "Long Scroll", "a": "Moon Garden", "type": "spin-off", "b": "Long Scroll", "note": "a cousin"})
    assert status == 302
    relations = curator.get("/api/admin/catalog")[2]["relations"]
    assert [(r["a"], r["type"], r["b"], r["note"]) for r in relations] == [
        ("Moon Garden", "spin-off", "Long Scroll", "a cousin")]
    history = curator.get("/settings/admin/catalog/history/")[2].decode()
    assert "changed relation Moon Garden sequel Long Scroll to Moon Garden spin-off Long Scroll" in history
