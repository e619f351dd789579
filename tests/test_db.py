"""db.security_change(): written before it is seen, or undone (mangacircus/db.py)."""
import orjson
import pytest

from mangacircus import db
from mangacircus.errors import Unavailable


@pytest.fixture
def doc(tmp_path):
    opened = db.open_db(tmp_path / "db.json")
    with db.security_change():
        opened.data["users"]["ann"] = {"name": "ann", "hash": "x", "admin": True}
        opened.data["progress"]["ann"] = {"Moon Garden": {"1/1": {"page": 3}}}
    yield opened
    db.close_db()


def on_disk(doc):
    return orjson.loads(doc.path.read_bytes())


def test_it_writes_the_change_before_it_returns(doc):
    with db.security_change("users"):
        doc.data["users"]["ann"]["admin"] = False
    assert on_disk(doc)["users"]["ann"]["admin"] is False and not doc.dirty


def test_it_restores_every_section_when_the_write_fails(doc):
    before = orjson.loads(orjson.dumps(doc.data))
    blocker = doc.path.with_name("db.json.tmp")
    blocker.mkdir()
    try:
        with pytest.raises(Unavailable, match="nothing was changed"):
            with db.security_change():
                doc.data["users"].pop("ann")
                doc.data["progress"].pop("ann")
        assert doc.data == before
    finally:
        blocker.rmdir()
    assert doc.flush() and on_disk(doc) == before


def test_it_undoes_a_change_that_raises_halfway(doc):
    with pytest.raises(KeyError):
        with db.security_change("users"):
            doc.data["users"]["ann"]["admin"] = False
            doc.data["users"]["nobody"]["admin"] = True
    assert doc.data["users"]["ann"]["admin"] is True


def test_a_change_inside_another_joins_it_and_may_only_touch_its_sections(doc):
    with db.security_change("users", "sessions"):
        with db.security_change("sessions"):
            doc.data["sessions"]["d"] = {"u": "ann"}
        assert on_disk(doc)["sessions"] == {}  # the outer change writes
    assert on_disk(doc)["sessions"] == {"d": {"u": "ann"}}
    with pytest.raises(AssertionError, match="progress"):
        with db.security_change("users"):
            with db.security_change("progress"):
                pass
