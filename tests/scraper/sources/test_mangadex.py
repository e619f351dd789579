"""The mangadex module: its pure parsers on documents shaped like the API's, and whole jobs of the
in-process daemon against the fake MangaDex (bench/fakedex.py)."""
import json

import pytest

from bench.fakedex import NO_GROUP, FakeDex, Group
from library.names import ArchiveName, BookName, ChapterName, key_order, parse_chapter, parse_entry
from scraper import queue
from scraper.errors import InvalidInput, SourceChanged
from scraper.http import USER_AGENT
from scraper.sources import mangadex
from tests.scraper import fakesite
from tests.scraper.conftest import drain


def chapter_entity(**attrs):
    base = {"volume": None, "chapter": "1", "title": None, "translatedLanguage": "en", "externalUrl": None,
            "pages": 5, "publishAt": "2024-01-01T00:00:00+00:00", "zzNew": 1}
    return {"id": "0f3a6a2e-1111-4222-8333-444455556666", "type": "chapter", "attributes": {**base, **attrs},
            "relationships": []}


def folders(library, manga="Moon Garden"):
    root = library / manga
    return sorted(str(p.relative_to(root)) for p in [*root.glob("*/chapter.json"), *root.glob("*/*/chapter.json")])


def add(daemon, dex, name="garden", lang="en", auto=None):
    job, _ = queue.add_job(daemon.queue, "add", "mangadex", dex.ids[name], lang=lang, auto=auto)
    drain(daemon)
    return job


# Pure parsers

def test_chapter_numbers_stay_strings():
    assert mangadex.parse_chapter(chapter_entity(chapter="3.10"), "en").number == "3.10"
    assert mangadex.parse_chapter(chapter_entity(chapter=None), "en").number is None
    assert mangadex.parse_chapter(chapter_entity(volume="2"), "en").volume == "2"


def test_external_and_unavailable_chapters_carry_a_reason():
    external = mangadex.parse_chapter(chapter_entity(externalUrl="https://mangaplus.example/1", pages=0), "en")
    assert external.skip.startswith("only on an external site (https://mangaplus.example/1")
    assert "unavailable" in mangadex.parse_chapter(chapter_entity(isUnavailable=True), "en").skip
    assert mangadex.parse_chapter(chapter_entity(), "en").skip == ""


def test_groups_come_from_relationships_without_the_legacy_no_group():
    entity = chapter_entity()
    entity["relationships"] = [
        {"id": "a", "type": "scanlation_group", "attributes": {"name": "Fans"}},
        {"id": NO_GROUP, "type": "scanlation_group", "attributes": {"name": "No Group"}},
        {"id": "b", "type": "scanlation_group", "attributes": {"name": "Joint"}},
        {"id": "u", "type": "user", "attributes": {"username": "up"}}]
    assert mangadex.group_name(entity) == "Fans & Joint"
    entity["relationships"] = entity["relationships"][1:2] + entity["relationships"][3:]
    assert mangadex.group_name(entity) == "up"


def test_direction_from_original_language_and_format():
    assert mangadex.direction_for("ja", ("Romance",)) == "rtl"
    assert mangadex.direction_for("ko", ("Long Strip",)) == "ttb"
    assert mangadex.direction_for("zh", ("Long Strip", "Action")) == "ttb"
    assert mangadex.direction_for("en", ()) == "ltr"


def test_title_is_english_then_romanised_then_original_whatever_the_language():
    titles, alt = {"ja-ro": "Tsuki no Niwa"}, [{"fr": "Le Jardin"}, {"en": "Moon Garden"}]
    assert mangadex.pick_title(titles, alt, "fr", "ja") == "Moon Garden"
    assert mangadex.pick_title(titles, alt, "de", "ja") == "Moon Garden"
    assert mangadex.pick_title(titles, [], "de", "ja") == "Tsuki no Niwa"
    assert mangadex.pick_title({"ja": "月の庭"}, [], "en", "ja") == "月の庭"


def test_following_in_another_language_keeps_the_title_and_adds_that_language_as_an_alternative():
    """Mob Psycho 100 followed in Russian: it was renamed "Моб Психо 100" and its English title lost."""
    entity = {"id": "3e1c2f5a-0b6d-4e8f-9a1b-2c3d4e5f6a7b", "type": "manga", "relationships": [], "attributes": {
        "title": {"en": "Mob Psycho 100"}, "originalLanguage": "ja", "description": {"en": "About Mob."},
        "altTitles": [{"ja": "モブサイコ100"}, {"ru": "Моб Психо 100"}, {"ja-ro": "Mob Saiko Hyaku"}],
        "tags": [], "status": "completed", "year": 2012, "contentRating": "safe", "links": {}}}
    info = mangadex.parse_manga(entity, "https://uploads.example", lang="ru")
    assert info.title == "Mob Psycho 100"
    assert info.alt_titles[0] == "Моб Психо 100"
    assert set(info.alt_titles) == {"Моб Психо 100", "モブサイコ100", "Mob Saiko Hyaku"}


@pytest.mark.parametrize("drop", ["chapter", "pages", "volume"])
def test_a_chapter_without_a_needed_field_is_schema_drift(drop):
    entity = chapter_entity()
    del entity["attributes"][drop]
    with pytest.raises(SourceChanged, match="needs an update"):
        mangadex.parse_chapter(entity, "en")


def test_a_feed_without_total_is_schema_drift():
    with pytest.raises(SourceChanged, match="feed.total"):
        mangadex.parse_feed({"result": "ok", "data": []}, "en")


def test_series_ids_are_uuids_or_title_links():
    source = mangadex.MangaDex()
    uid = "32d76d19-8a05-4db0-9fc2-e0b0648fe9d0"
    assert source.check_id(None, f"https://mangadex.org/title/{uid}/moon-garden") == uid
    with pytest.raises(InvalidInput, match="UUID"):
        source.check_id(None, "moon-garden")


def test_the_public_api_allows_no_private_host_and_another_base_does(settings):
    assert mangadex.MangaDex().private_hosts == ()
    other = mangadex.MangaDex("http://10.0.0.5:8080/")
    assert other.private_hosts == ("10.0.0.5:8080",)
    assert other.report_url == "http://10.0.0.5:8080/report" and other.uploads == "http://10.0.0.5:8080"


# Whole jobs against the fake MangaDex

def test_add_writes_the_manga_and_its_chapters_as_the_library_expects(dexd, dex, library):
    job = add(dexd, dex)
    meta = json.loads((library / "Moon Garden" / "manga.json").read_text())
    assert meta["title"] == "Moon Garden" and meta["direction"] == "rtl"
    assert meta["altTitles"] == ["月の庭", "Le Jardin de Lune"] and meta["authors"] == ["A. Writer"]
    assert meta["description"] == "About Moon Garden." and meta["sources"] == {"mangadex": dex.ids["garden"]}
    assert meta["links"]["MangaDex"] == f"https://mangadex.org/title/{dex.ids['garden']}"
    assert meta["links"]["AniList"] == "https://anilist.co/manga/12345"
    assert (library / "Moon Garden" / "cover.png").stat().st_size > 0
    assert folders(library) == [
        "SP01 Oneshot [MangaDex]/chapter.json",
        "Vol. 1/c0001 Roots [Fans]/chapter.json", "Vol. 1/c0001 Roots [Moon Scans]/chapter.json",
        "Vol. 1/c0002 Stems [Fans & Joint Team]/chapter.json",
        "c0003.10 Tenth [Fans]/chapter.json", "c0003.9 Ninth [Fans]/chapter.json",
        "c0010.5 Extra [kind_reader]/chapter.json"]
    # The library reads 3.9 and 3.10 as two chapters, in that order, and the oneshot as a special.
    keys = [parse_chapter(f.split("/")[0]).key for f in folders(library) if f.startswith("c")]
    assert sorted(keys, key=key_order) == ["3.9", "3.10", "10.5"]
    assert parse_entry("SP01 Oneshot [MangaDex]", ("Moon Garden",)) == ArchiveName(
        BookName("x1", None), ChapterName("1", "Oneshot", "MangaDex"))
    chapter = json.loads((library / "Moon Garden" / "c0003.10 Tenth [Fans]" / "chapter.json").read_text())
    assert chapter["number"] == "3.10" and chapter["sourceId"] == dex.ids["c3.10"]
    assert chapter["module"] == "mangadex" and chapter["source"] == "Fans"  # the module, and the [bracket] label
    assert dexd.queue.data["revision"] == 7
    history = [j for j in queue.list_jobs(dexd.queue) if j["id"] == job["id"]][0]
    assert any("chapter 4 (Fans) skipped: only on an external site" in w for w in history["warnings"])
    assert any("chapter 5 (Fans) skipped: unavailable" in w for w in history["warnings"])
    assert dex.user_agents == {USER_AGENT}
    # Every image from an at-home node was reported, as a success.
    assert len(dex.reports) == len(dex.image_requests()) == 7 * 3
    assert all(r["success"] and r["bytes"] > 0 and r["url"].startswith(dex.url + "/node/") for r in dex.reports)


def test_add_takes_the_language_and_auto_setting(dexd, dex, library):
    add(dexd, dex, lang="fr", auto=False)
    entry = queue.list_series(dexd.queue)[0]
    assert entry["lang"] == "fr" and entry["auto"] is False
    # followed in French: the French chapters, under the series' own title, its French title first of the others
    assert folders(library, "Moon Garden") == ["Vol. 1/c0001 Racines [Fans]/chapter.json"]
    meta = json.loads((library / "Moon Garden" / "manga.json").read_text())
    assert meta["title"] == "Moon Garden" and meta["altTitles"][0] == "Le Jardin de Lune"


def test_manga_json_and_cover_are_there_before_the_first_chapter(dexd, dex, library):
    dex.kind_always["node"] = fakesite.status(404)
    add(dexd, dex)
    assert sorted(p.name for p in (library / "Moon Garden").iterdir()) == ["cover.png", "manga.json"]


def test_a_long_strip_reads_top_to_bottom(dexd, dex, library):
    add(dexd, dex, "strip")
    assert json.loads((library / "Night Strip" / "manga.json").read_text())["direction"] == "ttb"


def test_an_update_queues_nothing_twice_and_a_changed_id_is_recognised(dexd, dex, library):
    add(dexd, dex)
    images = len(dex.image_requests())
    # The source re-issued chapter 3.9 under a new id: same number and group, so not fetched again.
    feed = dex.feeds[dex.ids["garden"]]
    old = next(c for c in feed if c["id"] == dex.ids["c3.9"])
    old["id"] = "11111111-2222-4333-8444-555555555555"
    queue.add_job(dexd.queue, "update", "mangadex", dex.ids["garden"])
    drain(dexd)
    assert len(dex.image_requests()) == images and dexd.queue.data["revision"] == 7
    assert not queue.list_jobs(dexd.queue, "queued")


def test_a_new_chapter_arrives_through_the_nightly_discover_run(dexd, dex, library):
    add(dexd, dex)
    dex.add_chapter(dex.ids["garden"], "11", "3", "Later", (Group("Fans"),))
    queue.add_job(dexd.queue, "discover", "all")
    drain(dexd)
    assert "Vol. 3/c0011 Later [Fans]/chapter.json" in folders(library)
    assert dexd.queue.data["revision"] == 8
    assert [p["chapter"] for p in dexd.queue.data["published"][-1:]] == ["Vol. 3/c0011 Later [Fans]"]


def test_a_1234_chapter_feed_is_read_across_three_pages(dex):
    manga = dex.add_manga("Very Long", original="ja")
    dex.add_many(manga, 1234)
    http = _client().for_source(mangadex.SOURCE)
    listed = mangadex.SOURCE.chapters(http, manga, "en")
    assert len(listed) == len({c.id for c in listed}) == 1234
    assert dex.hits[f"/manga/{manga}/feed"] == 3


def test_the_10000_result_window_is_never_crossed(dex):
    manga = dex.add_manga("Endless", original="ja")
    dex.add_many(manga, 10_250)
    http = _client().for_source(mangadex.SOURCE)
    listed = mangadex.SOURCE.chapters(http, manga, "en")
    assert len({c.id for c in listed}) == 10_250
    # 20 pages oldest first reach the window; one page newest first brings the rest; no 400 seen.
    assert dex.hits[f"/manga/{manga}/feed"] == 21


def test_search_answers_cover_year_status_and_languages(dex):
    http = _client().for_source(mangadex.SOURCE)
    [hit] = mangadex.SOURCE.search(http, "moon")
    assert hit.title == "Moon Garden" and hit.year == 2019 and hit.status == "ongoing"
    assert hit.languages == ("en", "fr") and hit.cover_url == f"{dex.url}/covers/{dex.ids['garden']}/cover-1.png"


def _client():
    import threading

    from scraper.http import HttpClient
    from scraper.watchdog import Progress
    from tests.scraper.conftest import FAST

    client = HttpClient(FAST, Progress(), threading.Event(), pace_for=lambda source: source.pace)
    client.worker = threading.get_ident()
    return client


def test_fake_dex_enforces_the_documented_limits():
    dex = FakeDex().start()
    try:
        manga = dex.add_manga("X")
        code, body, _ = dex.route("GET", f"/manga/{manga}/feed", {"limit": ["501"]})
        assert code == 400
        code, body, _ = dex.route("GET", f"/manga/{manga}/feed", {"limit": ["500"], "offset": ["9600"]})
        assert code == 400 and b"Result window is too large" in body
    finally:
        dex.stop()


def test_an_external_chapter_queued_by_id_is_skipped_with_its_reason(dexd, dex, library):
    add(dexd, dex, "strip")
    job, _ = queue.add_job(dexd.queue, "chapters", "mangadex", dex.ids["strip"], [dex.ids["c4"]])
    drain(dexd)
    job = next(j for j in queue.list_jobs(dexd.queue) if j["id"] == job["id"])
    # Not a chapter of this series at all: dropped with a warning; nothing downloaded.
    assert job["state"] == "done" and job["warnings"]
    garden_external, _ = queue.add_job(dexd.queue, "chapters", "mangadex", dex.ids["garden"], [dex.ids["c4"]])
    drain(dexd)
    done = next(j for j in queue.list_jobs(dexd.queue) if j["id"] == garden_external["id"])
    assert done["state"] == "done" and any("skipped: only on an external site" in w for w in done["warnings"])
    assert not (library / "Moon Garden" / "Vol. 2").exists()


def test_numbers_that_restart_per_volume_and_two_oneshots_are_all_downloaded(dexd, dex, library):
    manga = dex.add_manga("Restarts", original="ja")
    fans = Group("Fans")
    for number, volume in (("1", "1"), ("1", "2"), (None, None), (None, None)):
        dex.add_chapter(manga, number, volume, "", (fans,))
    queue.add_job(dexd.queue, "add", "mangadex", manga, lang="en")
    drain(dexd)
    found = folders(library, "Restarts")
    assert len(found) == 4
    assert {"Vol. 1/c0001 [Fans]/chapter.json", "Vol. 2/c0001 [Fans]/chapter.json"} <= set(found)
    assert dexd.queue.data["revision"] == 4
