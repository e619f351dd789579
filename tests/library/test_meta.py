"""library/meta.py: manga.json/chapter.json reading and direction resolution."""
import pytest

from library import meta


@pytest.mark.parametrize("content, data, problem", [
    (b'{"title": "Moon", "x-custom": [1, 2]}', {"title": "Moon", "x-custom": [1, 2]}, None),
    (b"{}", {}, None),
    (b'{"title": ', None, "is not valid JSON"),
    (b"", None, "is not valid JSON"),
    (b"[1, 2]", None, "is not a JSON object"),
    (b'"text"', None, "is not a JSON object"),
    (b"\xff\xfe{}", None, "is not valid JSON"),
])
def test_it_reads_metadata_keeping_unknown_fields(tmp_path, content, data, problem):
    path = tmp_path / "manga.json"
    path.write_bytes(content)
    got, found = meta.read(path)
    assert got == data
    assert (found or "").startswith(problem or "")
    assert (found is None) == (problem is None)


def test_it_treats_a_missing_file_as_absent_without_a_problem(tmp_path):
    assert meta.read(tmp_path / "chapter.json") == (None, None)


def test_it_refuses_files_larger_than_one_megabyte(tmp_path):
    path = tmp_path / "manga.json"
    path.write_bytes(b'{"a": "' + b"x" * (1024 * 1024) + b'"}')
    assert meta.read(path) == (None, "is larger than 1 MB")


@pytest.mark.parametrize("data, found", [
    ({"title": "A", "direction": "rtl", "priority": 3}, []),
    ({"title": 5}, ['"title" must be a string']),
    ({"direction": "up"}, ['"direction" must be one of rtl, ltr, ttb']),
    ({"priority": "high"}, ['"priority" must be a whole number']),
    ({"priority": True}, ['"priority" must be a whole number']),
])
def test_it_names_known_fields_of_the_wrong_kind(data, found):
    assert meta.problems(data) == found


@pytest.mark.parametrize("chapter, manga, sizes, default, expected", [
    ({"direction": "ltr"}, {"direction": "ttb"}, [(100, 1000)], "rtl", "ltr"),
    (None, {"direction": "ttb"}, [(100, 100)], "rtl", "ttb"),
    ({"direction": "sideways"}, {"direction": "ltr"}, [], "rtl", "ltr"),
    (None, None, [(100, 300), (100, 260), (100, 100)], "rtl", "ttb"),
    (None, None, [(100, 300), (100, 100)], "rtl", "rtl"),
    (None, None, [(100, 250), (100, 250)], "ltr", "ltr"),
    (None, None, [(None, None), (None, None), (100, 400)], "rtl", "ttb"),
    (None, None, [(None, None)], "ltr", "ltr"),
    (None, None, [], "rtl", "rtl"),
])
def test_it_resolves_the_reading_direction(chapter, manga, sizes, default, expected):
    assert meta.resolve_direction(chapter, manga, sizes, default) == expected


@pytest.mark.parametrize("data, title, prio", [
    ({"title": "  Frost  ", "priority": 2}, "Frost", 2),
    ({"title": "", "priority": 2.5}, None, 0),
    (None, None, 0),
])
def test_it_reads_text_and_priority_defensively(data, title, prio):
    assert meta.text(data, "title") == title
    assert meta.priority(data) == prio
