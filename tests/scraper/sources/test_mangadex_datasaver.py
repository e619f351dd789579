"""Data saver (issue 28, item 6): a per-source switch for MangaDex's smaller `dataSaver` images, kept
in queue.json's settings and used when the at-home answer is turned into page URLs."""
import pytest
from PIL import Image

from mangacircus.errors import Invalid
from scraper import api, queue
from scraper.sources.mangadex import parse_at_home
from tests.scraper.conftest import drain

AT_HOME = {"result": "ok", "baseUrl": "https://node.example.org/tok",
           "chapter": {"hash": "ab" * 16, "data": ["1-aa.png", "2-bb.png"], "dataSaver": ["1-aa.jpg", "2-bb.jpg"]}}


def call(daemon, method, path, body=None):
    view, groups = api.route(method, path)
    return view(daemon, body=body or {}, query={}, **groups)


def test_the_at_home_answer_gives_the_data_saver_path_and_file_list():
    full = parse_at_home(AT_HOME, 0)
    small = parse_at_home(AT_HOME, 0, data_saver=True)
    assert [p.url for p in full] == [f"https://node.example.org/tok/data/{'ab' * 16}/1-aa.png",
                                     f"https://node.example.org/tok/data/{'ab' * 16}/2-bb.png"]
    assert [p.url for p in small] == [f"https://node.example.org/tok/data-saver/{'ab' * 16}/1-aa.jpg",
                                      f"https://node.example.org/tok/data-saver/{'ab' * 16}/2-bb.jpg"]


def _pages(library):
    return sorted(p for p in (library / "Night Strip").rglob("0*.*"))


def test_with_data_saver_on_the_chapters_come_from_the_smaller_images(dexd, dex, library):
    described = next(s for s in call(dexd, "GET", "/sources")["sources"] if s["key"] == "mangadex")
    assert "dataSaver" in described["options"]
    settings = call(dexd, "POST", "/settings", {"options": {"mangadex": {"dataSaver": True}}})["settings"]
    assert settings["options"] == {"mangadex": {"dataSaver": True}}
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["strip"], "lang": "en"})
    drain(dexd)
    pages = _pages(library)
    assert [p.suffix for p in pages] == [".jpg"] * 3
    assert {Image.open(p).size for p in pages} == {(20, 30)}
    assert all("/data-saver/" in p for p in dex.image_requests())
    assert queue.source_options(dexd.queue, "mangadex") == {"dataSaver": True}


def test_without_it_the_full_size_images_are_downloaded(dexd, dex, library):
    call(dexd, "POST", "/settings", {"options": {"mangadex": {"dataSaver": False}}})
    call(dexd, "POST", "/series", {"source": "mangadex", "id": dex.ids["strip"], "lang": "en"})
    drain(dexd)
    pages = _pages(library)
    assert {Image.open(p).size for p in pages} == {(40, 60)} and len(pages) == 3
    assert dex.image_requests() and all("/data/" in p for p in dex.image_requests())


@pytest.mark.parametrize("options, message", [
    ({"nosuch": {"dataSaver": True}}, "unknown source"),
    ({"mangadex": {"hd": True}}, "not an option"),
    ({"mangadex": {"dataSaver": "yes"}}, "true or false"),
    ({"folder": {"dataSaver": True}}, "not an option"),
    ("on", "options must be"),
])
def test_bad_options_are_refused_with_the_field_named(dexd, options, message):
    with pytest.raises(ValueError, match=message):
        call(dexd, "POST", "/settings", {"options": options})
    assert queue.current_settings(dexd.queue)["options"] == {}


def test_the_api_answers_a_refused_option_with_400(dexd):
    with pytest.raises(ValueError) as caught:
        call(dexd, "POST", "/settings", {"options": {"mangadex": {"hd": True}}})
    assert api.error_answer(caught.value)[0] == Invalid.status
