"""The series management routes of the private API, on the in-process daemon and the fake MangaDex."""
import pytest

from mangacircus.errors import Invalid
from scraper import api, queue
from tests.scraper.conftest import drain


def call(daemon, method, path, body=None, query=None):
    view, groups = api.route(method, path)
    return view(daemon, body=body or {}, query=query or {}, **groups)


def test_a_series_is_added_with_its_language_and_auto_off(dexd, dex, library):
    status, data = call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["garden"], "lang": "fr",
                                                   "auto": False})
    assert status == 201
    drain(dexd)
    [series] = call(dexd, "GET", "/series")["series"]
    assert series["lang"] == "fr" and series["auto"] is False and series["lastCheck"]
    assert series["nextCheck"] is None and series["error"] is None
    call(dexd, "POST", f"/series/{series['key']}", {"auto": True, "lang": "en"})
    [series] = call(dexd, "GET", "/series")["series"]
    assert series["auto"] is True and series["lang"] == "en" and series["nextCheck"] > series["lastCheck"]


def test_bad_language_or_auto_are_refused(dexd, dex):
    with pytest.raises(Invalid, match="language code"):
        call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["garden"], "lang": "../x"})
    with pytest.raises(Invalid, match="auto"):
        call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["garden"], "auto": "yes"})


def test_removing_a_series_keeps_its_folders(dexd, dex, library):
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["strip"], "lang": "en"})
    drain(dexd)
    before = sorted(p.name for p in (library / "Night Strip").iterdir())
    [series] = call(dexd, "GET", "/series")["series"]
    call(dexd, "POST", f"/series/{series['key']}/remove")
    assert call(dexd, "GET", "/series")["series"] == []
    assert sorted(p.name for p in (library / "Night Strip").iterdir()) == before and "manga.json" in before


def test_a_series_shows_the_error_of_its_failing_job(dexd, dex):
    dex.drop = ("chapter", "pages")
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["strip"], "lang": "en"})
    drain(dexd)
    [series] = call(dexd, "GET", "/series")["series"]
    assert "needs an update" in series["error"]


def test_covers_come_as_data_urls_and_nothing_else_is_fetched(dexd, dex):
    cover = f"{dex.url}/covers/{dex.ids['garden']}/cover-1.png"
    data = call(dexd, "GET", "/cover", query={"source": ["mangadex"], "url": [cover]})
    assert data["image"].startswith("data:image/png;base64,")
    for url in (f"{dex.url}/manga/{dex.ids['garden']}", f"{dex.url}/covers/../report", "https://example.org/a.png",
                f"{dex.url}/covers/x/y/z.png"):
        with pytest.raises(Invalid):
            call(dexd, "GET", "/cover", query={"source": ["mangadex"], "url": [url]})
    assert dex.kinds["cover"] == 1 and dex.kinds["api"] == 0


def test_a_discover_run_updates_only_series_with_auto_on(dexd, dex):
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["strip"], "lang": "en", "auto": False})
    drain(dexd)
    queue.add_job(dexd.queue, "discover", "all")
    drain(dexd)
    assert not [j for j in queue.list_jobs(dexd.queue) if j["kind"] == "update"]


def test_the_chapters_of_a_series_are_listed_without_following_it(dexd, dex):
    """What "Choose chapters…" shows (issue 28, item 4): the source's chapters in one language, the
    ones that cannot be downloaded with their reason; nothing is subscribed or queued."""
    chapters = call(dexd, "GET", "/chapters", query={"source": ["mangadex"], "series": [dex.ids["garden"]],
                                                     "lang": ["en"]})["chapters"]
    by_id = {c["id"]: c for c in chapters}
    assert by_id[dex.ids["c3.10"]]["number"] == "3.10" and by_id[dex.ids["c4"]]["skip"].startswith("only on")
    assert dex.ids["fr1"] not in by_id and len(chapters) == 9
    assert call(dexd, "GET", "/series")["series"] == [] and call(dexd, "GET", "/jobs")["jobs"] == []
    with pytest.raises(Invalid, match="language code"):
        call(dexd, "GET", "/chapters", query={"source": ["mangadex"], "series": [dex.ids["garden"]], "lang": ["x/y"]})
