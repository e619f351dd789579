"""The library page (/) and the manga page without JavaScript: query parameters, escaping, links."""
import json
import re

import pytest

from tests.conftest import PASSWORD, make_page
from tests.support.app import AppServer
from tests.support.pages import add_notes, wait_for_library


def _html(client, path):
    status, _, body = client.get(path)
    return status, body.decode() if isinstance(body, bytes) else body


def _tiles(html):
    return re.findall(r'<li class="tile[^"]*"><a href="/manga/([^"]+)/"', html)


def test_it_filters_and_sorts_through_query_parameters(scanned, reader_user):
    status, html = _html(reader_user, "/")
    assert status == 200 and _tiles(html) == ["Long%20Scroll", "Moon%20Garden"]
    assert _tiles(_html(reader_user, "/?q=garden")[1]) == ["Moon%20Garden"]
    reader_user.post("/api/read", {"m": "Long Scroll", "c": "0/1"})
    html = _html(reader_user, "/?sort=unread")[1]
    assert _tiles(html) == ["Moon%20Garden", "Long%20Scroll"]
    assert '<option value="unread" selected>' in html
    assert "No manga match “zzz”." in _html(reader_user, "/?q=zzz")[1]


def test_it_shows_the_continue_row_and_unread_counts(scanned, reader_user):
    reader_user.post("/api/read", {"m": "Moon Garden", "c": "1/1"})
    html = _html(reader_user, "/")[1]
    assert "Continue reading" in html and 'href="/read/Moon%20Garden/1/2/"' in html
    assert 'title="1 unread chapter"' in html
    assert "Continue reading" not in _html(reader_user, "/?q=moon")[1]


def test_it_sends_visitors_to_sign_in(scanned, guest):
    for path in ("/", "/manga/Moon%20Garden/", "/notifications/"):
        status, headers, _ = guest.get(path)
        assert status == 302 and headers["Location"].startswith("/login/?next="), path


def test_it_renders_the_manga_page_with_books_chapters_and_versions(scanned, reader_user):
    status, html = _html(reader_user, "/manga/Moon%20Garden/")
    assert status == 200
    assert "<h1>Moon Garden</h1>" in html and "A. Writer" in html
    assert "Book 1 · Spring" in html and 'data-c="1/2"' in html
    assert 'data-v="c0002 Roots [MangaDex]"' in html and 'data-v="c0002 Roots [Official]"' in html
    assert 'href="/read/Moon%20Garden/1/1/"' in html and "Start reading: Ch. 1" in html
    assert _html(reader_user, "/manga/Nowhere/")[0] == 404


@pytest.fixture
def odd_server(tmp_path):
    """A library whose metadata tries markup and a javascript: link."""
    root = tmp_path / "odd"
    manga = root / "Odd <b>Name"
    make_page(manga / "c0001 First" / "001.png")
    (manga / "manga.json").write_text(json.dumps({
        "title": "<script>alert(1)</script>", "description": "line one\n<img src=x onerror=alert(2)>",
        "tags": ["<i>tag</i>"], "status": "completed", "year": "not a year but text",
        "links": {"Evil": "javascript:alert(3)", "Site": "https://example.org/a?b=1&c=2", "Data": "data:text/html,x"},
    }))
    server = AppServer(tmp_path / "data", root).start()
    admin = server.client().signup("admin", PASSWORD)
    wait_for_library(admin, 1)
    yield server, admin
    server.stop()


def test_it_escapes_metadata_and_links_only_to_http(odd_server):
    _, admin = odd_server
    html = _html(admin, "/")[1]
    assert "<script>alert(1)" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<i>tag" not in html and "&lt;i&gt;tag&lt;/i&gt;" in html  # the cached facets escape too
    status, html = _html(admin, "/manga/Odd%20%3Cb%3EName/")
    assert status == 200
    assert "<script>alert" not in html and "<img src=x" not in html and "<i>tag" not in html
    assert "line one<br>&lt;img src=x onerror=alert(2)&gt;" in html
    assert 'href="https://example.org/a?b=1&amp;c=2" rel="noopener noreferrer"' in html
    assert "javascript:" not in html and "data:text" not in html and ">Evil<" not in html
    assert "not a year but text" in html


def test_it_lists_notifications_and_marks_all_read_without_javascript(scanned, reader_user):
    add_notes(scanned, "reader", [{"id": "a", "t": 1_790_000_000_000, "m": "Moon Garden", "c": "1/2",
                                   "text": "Moon Garden · Ch. 2: Roots", "read": False}])
    html = _html(reader_user, "/notifications/")[1]
    assert 'class="note unread"' in html and 'href="/read/Moon%20Garden/1/2/"' in html
    assert '<span class="badge">1</span>' in html
