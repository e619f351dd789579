"""The store helper (mangacircus/store.py) behind catalog.json, peers.json and backup.json: one set of
names, and an edit that leaves nothing half-made when it is refused or cannot be written."""
import orjson
import pytest

from mangacircus.errors import Invalid, Unavailable
from mangacircus.jsonfile import StateFileError
from mangacircus.store import Store


def validate(data):
    if not isinstance(data.get("items", []), list):
        raise ValueError('"items" must be a list')


@pytest.fixture
def store(tmp_path):
    s = Store("things.json", empty=lambda: {"items": [], "rev": 0}, validate=validate)
    s.open(tmp_path)
    yield s
    s.close()


def on_disk(store, tmp_path):
    store.file.flush()
    return orjson.loads((tmp_path / "things.json").read_bytes())


def test_it_opens_with_the_keys_of_empty_and_keeps_what_the_file_has(tmp_path):
    (tmp_path / "things.json").write_bytes(orjson.dumps({"items": [1], "extra": "kept"}))
    s = Store("things.json", empty=lambda: {"items": [], "rev": 0}, validate=validate)
    assert not s.is_open() and s.snapshot() is None and s.changes() == 0
    s.open(tmp_path)
    with s.read() as data:
        assert data == {"items": [1], "extra": "kept", "rev": 0}
    assert s.open(tmp_path) is s.file  # once
    s.close()
    assert not s.is_open()


def test_check_refuses_a_file_that_fails_validation_and_leaves_it(tmp_path):
    (tmp_path / "things.json").write_bytes(b'{"items": {}}')
    s = Store("things.json", validate=validate)
    with pytest.raises(StateFileError, match="items"):
        s.check(tmp_path)
    assert (tmp_path / "things.json").read_bytes() == b'{"items": {}}'


def test_an_edit_is_written_and_counted(store, tmp_path):
    before = store.changes()
    with store.edit() as data:
        data["items"].append("a")
    assert store.changes() == before + 1
    assert on_disk(store, tmp_path)["items"] == ["a"]


def test_an_edit_that_changes_nothing_is_not_counted(store):
    before = store.changes()
    with store.edit() as data:
        data["rev"] = data["rev"]
    assert store.changes() == before


def test_an_edit_whose_body_raises_leaves_the_document_as_it_was(store, tmp_path):
    with store.edit() as data:
        data["items"].append("kept")
    with pytest.raises(Invalid):
        with store.edit() as data:
            data["items"].append("half-made")
            data["rev"] = 9
            raise Invalid("refused after changing")
    with store.read() as data:
        assert data == {"items": ["kept"], "rev": 0}
    assert on_disk(store, tmp_path) == {"items": ["kept"], "rev": 0}


def test_nested_edits_roll_back_to_the_outermost_start(store):
    with pytest.raises(Invalid):
        with store.edit() as outer:
            outer["items"].append("outer")
            with store.edit() as inner:
                inner["items"].append("inner")
            raise Invalid("the outer body refuses")
    with store.read() as data:
        assert data["items"] == []


def test_an_immediate_edit_whose_write_fails_raises_and_changes_nothing(store, tmp_path):
    with store.edit(immediate=True) as data:
        data["items"].append("on disk")
    (tmp_path / "things.json.tmp").mkdir()  # every write fails from now on
    try:
        with pytest.raises(Unavailable, match="nothing was changed"):
            with store.edit(immediate=True) as data:
                data["items"].append("never written")
        with store.read() as data:
            assert data["items"] == ["on disk"]
    finally:
        (tmp_path / "things.json.tmp").rmdir()
    store.file.flush()
    assert orjson.loads((tmp_path / "things.json").read_bytes())["items"] == ["on disk"]


def test_an_immediate_edit_is_on_disk_when_it_returns(store, tmp_path):
    with store.edit(immediate=True) as data:
        data["rev"] = 3
    assert orjson.loads((tmp_path / "things.json").read_bytes())["rev"] == 3


def test_using_a_closed_store_names_the_file(tmp_path):
    s = Store("things.json")
    with pytest.raises(RuntimeError, match="things.json is not open"):
        with s.edit() as data:
            data["never"] = "written"
