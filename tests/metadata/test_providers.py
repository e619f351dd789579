"""Each provider module on its documented answers (tests/metadata/answers.py), through the client."""
import pytest

from metadata import lookup, providers
from metadata.client import Client
from scraper.errors import Refused

from . import answers


@pytest.fixture
def moved(settings, fake, tmp_path):
    settings.DATA = tmp_path / "data"
    env = fake.env()
    settings.ANILIST_API_URL, settings.MANGAUPDATES_API_URL = env["ANILIST_API_URL"], env["MANGAUPDATES_API_URL"]
    settings.MANGADEX_API_URL = env["MANGADEX_API_URL"]
    return {cls.key: cls() for cls in providers.KINDS.values()}


def client():
    return Client(pace_for=lambda source: 0)


def test_anilist_keeps_genres_and_tags_apart_and_leaves_spoiler_tags_out(moved):
    record = moved["anilist"].fetch(client(), "105398")
    assert (record.title, record.format, record.year, record.status) == ("Solo Leveling", "manhwa", 2018, "completed")
    assert record.authors == ["Chugong"] and record.artists == ["DUBU"]
    assert record.genres == ["Drama"] and record.tags == ["Tragedy"]
    assert record.description.startswith("The story of Solo Leveling.\n\n(Source")
    assert record.relations == [{"type": "source", "id": "105399", "title": "Solo Leveling",
                                 "url": "https://anilist.co/manga/105399"}]
    assert record.links["AniList"] == "https://anilist.co/manga/105398"


def test_mangaupdates_search_results_are_incomplete_and_the_series_fills_the_rest(moved):
    found = moved["mangaupdates"].search(client(), "Solo Leveling")
    assert [(r.id, r.format, r.year, r.complete, r.authors) for r in found] == [
        ("55099564912", "manhwa", 2018, False, [])]
    record = moved["mangaupdates"].fetch(client(), "55099564912")
    assert record.authors == ["Chugong"] and record.artists == ["DUBU (REDICE STUDIO)"]
    assert record.titles == ["Solo Leveling", "Na Honjaman Level Up", "나 혼자만 레벨업"]
    assert record.tags == ["Weak to Strong", "Dungeons"] and record.genres == ["Action", "Fantasy"]
    assert record.status == "completed" and record.description.startswith('10 years ago, after "the Gate"')
    assert record.relations[0]["type"] == "source"
    assert moved["mangaupdates"].id_in("https://www.mangaupdates.com/series/pb8uwds/solo-leveling") == "55099564912"


def test_mangadex_reads_bare_relationships_in_a_search_and_expanded_ones_in_the_entry(moved):
    bare = moved["mangadex"].search(client(), "Solo Leveling")[0]
    assert (bare.authors, bare.complete, bare.relations[0]["title"]) == ([], False, "")
    whole = moved["mangadex"].fetch(client(), answers.DEX_ID)
    assert (whole.authors, whole.artists, whole.format) == (["Chugong"], ["DUBU"], "manhwa")
    assert whole.genres == ["Action"] and whole.tags == ["Long Strip", "Monsters"]
    assert whole.relations == [{"type": "sequel", "id": answers.DEX_SEQUEL, "title": "Solo Leveling: Ragnarok",
                                "url": f"https://mangadex.org/title/{answers.DEX_SEQUEL}"}]
    assert whole.cover_url.endswith(f"/covers/{answers.DEX_ID}/cover.png.512.jpg")
    assert "Na Honjaman Level Up" in whole.titles


def test_a_mangadex_link_as_comicinfo_web_gives_it_names_the_entry(moved):
    item = {"name": "Solo", "titles": ["Something else entirely"], "year": None, "authors": [], "kind": "comic",
            "ids": {}, "links": [f"https://mangadex.org/title/{answers.DEX_ID}/solo-leveling"], "match": None}
    result = lookup.look_up(item, [moved["anilist"], moved["mangadex"]], client(), 0.85)
    assert (result["outcome"], result["how"], result["record"]["id"]) == ("matched", "id", answers.DEX_ID)
    assert result["record"]["cover"].endswith(".png")


def test_a_provider_at_the_public_address_never_reaches_loopback(settings, fake):
    provider = providers.KINDS["anilist"]()
    assert provider.base == "https://graphql.anilist.co"
    with pytest.raises(Refused, match="loopback, private or link-local"):
        Client(pace_for=lambda source: 0).get_json(provider, f"{fake.base}/covers/x.png")
    assert fake.log == []
