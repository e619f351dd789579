"""The language of each answer (reader/language.py): the user's setting, else Accept-Language, else
LANGUAGE; <html lang dir>, Content-Language, the browser's catalog script, and the caches kept per
language (shelf/pagecache.py, shelf/tiles.py)."""
import re

import pytest
from django.utils import translation

from mangacircus import jsi18n, languages
from shelf import pagecache, tiles
from tests.support.forms import post_form
from tests.support.pages import wait_for_library

JA = {"Accept-Language": "ja-JP,ja;q=0.9"}


def html(client, path="/", headers=None):
    status, response_headers, body = client.get(path, headers=headers)
    assert status == 200, body
    return response_headers, body.decode()


def html_tag(body):
    return re.search(r"<html [^>]*>", body).group(0)


def test_it_answers_in_english_by_default(reader_user):
    headers, body = html(reader_user)
    assert 'lang="en" dir="ltr"' in html_tag(body) and headers["Content-Language"] == "en"
    assert ">Library</a>" in body and ">Sign out</button>" in body


def test_it_follows_the_browsers_accept_language(admin, guest):
    headers, body = html(guest, "/login/", {"Accept-Language": "ar-EG,ar;q=0.9,en;q=0.5"})
    assert 'lang="ar" dir="rtl"' in html_tag(body) and headers["Content-Language"] == "ar"
    assert "تسجيل الدخول" in body and ">Sign in<" not in body
    headers, body = html(guest, "/login/", {"Accept-Language": "tlh, eo;q=0.8"})  # none offered
    assert headers["Content-Language"] == "en" and 'lang="en"' in html_tag(body)


@pytest.mark.parametrize("code", [c for c in languages.OFFERED if c != "en"])
def test_every_offered_language_makes_the_library_page_in_it(reader_user, code):
    headers, body = html(reader_user, "/", {"Accept-Language": f"{code};q=0.9, en;q=0.1"})
    assert headers["Content-Language"] == code and f'lang="{code}"' in html_tag(body)
    assert ">Library</a>" not in body and ">Sign out</button>" not in body and "Sort by" not in body


def test_the_users_setting_wins_over_the_browser(reader_user):
    status, _, data = reader_user.post("/api/settings", {"language": "ja"})
    assert status == 200 and data["settings"]["language"] == "ja"
    headers, body = html(reader_user, "/", {"Accept-Language": "ar"})
    assert 'lang="ja" dir="ltr"' in html_tag(body) and headers["Content-Language"] == "ja"
    assert ">ライブラリ</a>" in body
    assert reader_user.post("/api/settings", {"language": ""})[0] == 200  # automatic again
    assert html(reader_user, "/", {"Accept-Language": "ar"})[0]["Content-Language"] == "ar"


def test_it_refuses_a_language_it_does_not_offer(reader_user):
    for value in ("xx", "fr-FR", "EN", 3, None):
        status, _, data = reader_user.post("/api/settings", {"language": value})
        assert status == 400 and "language must be" in data["error"], data


def test_the_reading_settings_save_the_language_and_show_the_next_page_in_it(reader_user):
    _, body = html(reader_user, "/settings/user/reading/")
    assert '<option value="ja" lang="ja">日本語</option>' in body
    status, _, _ = post_form(reader_user, "/settings/user/reading/", {"action": "language", "language": "ar"})
    assert status in (200, 302)
    _, body = html(reader_user, "/settings/user/reading/")
    assert 'lang="ar" dir="rtl"' in html_tag(body) and '<option value="ar" lang="ar" selected>' in body


def test_the_catalog_script_is_kept_a_year_and_named_by_its_content(guest):
    _, body = html(guest, "/login/", JA)
    src = re.search(r'<script src="(/jsi18n/ja\.[0-9a-f]+\.js)" defer></script>', body).group(1)
    assert body.index(src) < body.index("/static/js/common.js")  # before the scripts that use it
    assert src == jsi18n.url("ja")
    status, headers, script = guest.get(src)
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert headers["Cache-Control"] == "public, max-age=31536000, immutable"
    assert b"django.gettext" in script and b"ngettext" in script and b"interpolate" in script
    assert guest.get(src.replace(".js", "0.js"))[0] == 404  # another version's hash
    assert guest.get("/jsi18n/xx.0123456789abcdef.js")[0] == 404
    assert jsi18n.url("ja") != jsi18n.url("ar")


def test_the_cached_library_page_is_sent_to_each_user_in_their_own_language(server, admin, reader_user):
    wait_for_library(admin, 2)
    assert admin.post("/api/settings", {"language": "ar"})[0] == 200
    assert reader_user.post("/api/settings", {"language": "ja"})[0] == 200
    for _ in range(2):  # the first visit sets the CSRF cookie; the second is kept
        html(admin)
        html(reader_user)
    before = pagecache.stats["hits"]
    _, arabic = html(admin)
    _, japanese = html(reader_user)
    assert pagecache.stats["hits"] == before + 2  # both sent from the cache
    assert 'lang="ar"' in html_tag(arabic) and "الفصول: 2" in arabic and "chapters" not in arabic
    assert 'lang="ja"' in html_tag(japanese) and "全 2 話" in japanese and "chapters" not in japanese


def test_a_tile_made_in_one_language_is_not_reused_in_another(reader_user):
    card = {"name": "Moon Garden", "title": "Moon Garden", "url": "manga/Moon%20Garden/", "cover": None,
            "chapters": 3, "read": 0, "following": False, "unread": 3}
    with translation.override("ja"):
        japanese = tiles.tile(card, "/")
    with translation.override("en"):
        english = tiles.tile(card, "/")
    assert "全 3 話" in japanese and "3 chapters" in english


def test_pages_say_they_vary_with_the_browsers_language_and_the_api_does_not(reader_user):
    headers, _ = html(reader_user)
    assert "Accept-Language" in headers["Vary"]
    status, headers, _ = reader_user.get("/api/me")
    assert status == 200 and "Accept-Language" not in (headers["Vary"] or "")
