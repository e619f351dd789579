"""The links a binding is read from: AniList's idMal, MangaUpdates' base-36 addresses."""
from metadata.providers.anilist import parse_media
from tests.metadata.answers import media
from trackers.mangaupdates import MangaUpdates
from trackers.myanimelist import MyAnimeList

from .conftest import MU_ID


def test_an_anilist_match_names_its_myanimelist_entry():
    entry = media(30001, "Monster", "Monster", year=1994)
    entry["idMal"] = 1
    assert MyAnimeList().id_in(parse_media(entry).links["MyAnimeList"]) == "1"
    del entry["idMal"]
    assert "MyAnimeList" not in parse_media(entry).links


def test_mangaupdates_addresses_name_the_series_in_base_36():
    tracker = MangaUpdates()
    assert tracker.id_in("https://www.mangaupdates.com/series/pb8uwds/solo-leveling") == str(MU_ID)
    assert tracker.id_in("https://www.mangaupdates.com/series.html?id=pb8uwds") == str(MU_ID)  # MangaDex's `mu`
    assert tracker.id_in("https://www.mangaupdates.com/series.html?id=12345") is None  # the old numbering
