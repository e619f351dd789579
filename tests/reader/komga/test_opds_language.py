"""The OPDS catalogs' own titles in the language the app asks for with Accept-Language, else English,
whatever the user picked for the pages: an app is not a browser (docs/translating.md, docs/apps.md)."""
import feedparser
import orjson
import pytest
from django.utils import translation

from tests.conftest import PASSWORD
from tests.support.pages import wait_for_library

from .apps import basic


@pytest.fixture
def reader(server, admin):
    wait_for_library(admin, 2)
    assert admin.post("/api/admin/user", {"name": "reader", "password": PASSWORD})[0] == 200
    return server


def get(server, path, language=None):
    headers = {"Authorization": basic("reader")}
    if language:
        headers["Accept-Language"] = language
    status, answer, body = server.client().send("GET", path, headers=headers)
    assert status == 200, body[:200]
    return answer, body


def in_language(language, text):
    with translation.override(language):
        return translation.gettext(text)


def titles_of_the_root(server, language=None):
    answer, body = get(server, "/opds/", language)
    feed = feedparser.parse(body)
    assert not feed.bozo, feed.bozo_exception
    return answer.get("Content-Language"), [entry.title for entry in feed.entries]


def test_the_root_feed_is_in_the_apps_language_and_english_when_it_asks_for_none(reader):
    japanese = in_language("ja", "Library")
    assert japanese != "Library"
    language, titles = titles_of_the_root(reader, "ja-JP,ja;q=0.9,en;q=0.5")
    assert language == "ja"
    assert japanese in titles and in_language("ja", "Collections") in titles and "Library" not in titles
    assert titles_of_the_root(reader) == ("en", titles_of_the_root(reader, "en")[1])
    assert "Library" in titles_of_the_root(reader)[1]


def test_a_users_own_language_is_for_the_pages_not_for_the_apps(reader):
    user = reader.client().login("reader", PASSWORD)
    assert user.post("/api/settings", {"language": "fr"})[0] == 200
    assert '<html lang="fr"' in user.get("/")[2].decode()
    language, titles = titles_of_the_root(reader)
    assert language == "en" and "Library" in titles


def test_the_opds2_root_names_its_shelves_and_its_login_in_the_apps_language(reader):
    answer, body = get(reader, "/opds/v2/", "fr")
    shelves = [link["title"] for link in orjson.loads(body)["navigation"]]
    assert answer["Content-Language"] == "fr"
    assert in_language("fr", "Library") in shelves and "Library" not in shelves
    english = [link["title"] for link in orjson.loads(get(reader, "/opds/v2/")[1])["navigation"]]
    assert english[0] == "Library" and len(english) == len(shelves)
