"""What a tracker is told of a manga: chapters read by number or by position, the volume, the
status, and the chapters an imported count covers."""
import pytest

from library import index
from tests.conftest import PASSWORD, make_page
from tests.support.app import AppServer
from tests.support.pages import wait_for_library
from trackers import reading

from .conftest import finish


@pytest.fixture
def shelf(tmp_path):
    root = tmp_path / "library"
    for folder in ("c0001 A", "c0002 B", "c0002.5 Side", "c0003 C", "x01 Extra"):
        make_page(root / "Numbered" / folder / "001.png")
    for folder in ("b01 One/c0001 A", "b01 One/c0002 B", "b02 Two/c0001 C", "b02 Two/c0002 D"):
        make_page(root / "Restarting" / folder / "001.png")
    (root / "Restarting" / "manga.json").write_text('{"status": "ongoing"}')
    return root


@pytest.fixture
def reader_client(tmp_path, shelf):
    srv = AppServer(tmp_path / "data", shelf).start()
    client = srv.client().signup("admin", PASSWORD)
    wait_for_library(client, 2)
    yield client
    srv.stop()


def _chapters(name):
    return {c.id: c.ranked()[0].name for c in index.current().get(name).chapters()}


def test_it_counts_the_largest_whole_number_finished(reader_client):
    versions = _chapters("Numbered")
    for cid in ("0/1", "0/2.5"):
        finish(reader_client, "Numbered", cid, versions[cid])
    state = reading.state("admin", "Numbered")
    assert (state.chapters, state.volumes, state.status) == (2, None, "reading")
    assert state.started and state.finished is None


def test_it_counts_positions_when_numbering_restarts_and_names_the_volume(reader_client):
    versions = _chapters("Restarting")
    for cid in ("1/1", "1/2", "2/1"):
        finish(reader_client, "Restarting", cid, versions[cid])
    state = reading.state("admin", "Restarting")
    assert (state.chapters, state.volumes) == (3, 2)
    finish(reader_client, "Restarting", "2/2", versions["2/2"])
    assert reading.state("admin", "Restarting").status == "reading"  # all read, but the series goes on


def test_an_imported_count_covers_the_chapters_up_to_it(reader_client):
    numbered, restarting = index.current().get("Numbered"), index.current().get("Restarting")
    assert [c for c, _, _ in reading.read_up_to(numbered, 2)] == ["0/1", "0/2"]
    assert [c for c, _, _ in reading.read_up_to(numbered, 3)] == ["0/1", "0/2", "0/2.5", "0/3"]
    assert [c for c, _, _ in reading.read_up_to(restarting, 3)] == ["1/1", "1/2", "2/1"]
    assert reading.read_up_to(numbered, 0) == []
