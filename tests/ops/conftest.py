import pytest

from tests.scraper import fake_source
from tests.scraper.fakesite import FakeSite


@pytest.fixture
def site():
    """The scraper tests' fake remote site, for a real scraper beside the reader."""
    site = FakeSite().start()
    fake_source.SOURCE.base = site.url
    yield site
    site.stop()
