"""db.json's collections, readlists, ratings and wanttoread sections are checked at start (mangacircus/db.py,
the owners' validate()): a damaged one stops the start naming it, and the file is left as it was."""
import json

import pytest

from mangacircus import db
from mangacircus.jsonfile import StateFileError

GOOD = {"id": "c" + "a" * 20, "name": "Ghibli", "summary": "", "ordered": True, "owner": "admin", "shared": True,
        "members": ["Moon Garden"], "cover": None, "created": 1, "modified": 1}

LIST = {"id": "r" + "a" * 20, "name": "Crossover", "summary": "", "owner": "admin", "shared": True,
        "items": [["Moon Garden", "1/2"], ["Long Scroll", "1/1"]], "created": 1, "modified": 1}


@pytest.mark.parametrize("sections, words", [
    ({"collections": {"cwrong": GOOD}}, 'collections["cwrong"]'),
    ({"collections": {GOOD["id"]: {**GOOD, "members": "Moon Garden"}}}, "a list of members"),
    ({"collections": []}, '"collections" must be an object'),
    ({"ratings": {"Moon Garden": {"reader": 7}}}, "1 to 5 stars"),
    ({"ratings": {"Moon Garden": {"reader": True}}}, "1 to 5 stars"),
    ({"wanttoread": {"reader": ["Moon Garden"]}}, "want-to-read list"),
    ({"readlists": {"rwrong": LIST}}, 'readlists["rwrong"]'),
    ({"readlists": {LIST["id"]: {**LIST, "items": [["Moon Garden"]]}}}, "[manga, chapter] items"),
    ({"readlists": {LIST["id"]: {**LIST, "items": [["Moon Garden", 3]]}}}, "[manga, chapter] items"),
])
def test_a_damaged_section_stops_the_start_naming_it(tmp_path, sections, words):
    path = tmp_path / "db.json"
    path.write_text(json.dumps(sections))
    before = path.read_bytes()
    with pytest.raises(StateFileError, match=words.replace("[", r"\[").replace("]", r"\]")):
        db.check(path)
    assert path.read_bytes() == before


def test_good_sections_load(tmp_path):
    path = tmp_path / "db.json"
    path.write_text(json.dumps({"collections": {GOOD["id"]: GOOD}, "ratings": {"Moon Garden": {"reader": 5}},
                                "wanttoread": {"reader": {"Moon Garden": 1}},
                                "readlists": {LIST["id"]: LIST}}))
    db.check(path)
