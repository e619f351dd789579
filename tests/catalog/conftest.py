"""A catalog.json opened in a temporary DATA, for the domain tests (no server)."""
import pytest

from catalog import store


@pytest.fixture
def catalog(settings, tmp_path):
    settings.DATA = tmp_path / "data"
    settings.DATA.mkdir()
    store.STATE.open()
    yield settings.DATA / "catalog.json"
    store.STATE.close()
