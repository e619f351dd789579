"""A source module that exists only in the tests: it reads the fake site (fakesite.py).

Registered by importing it: in-process by the fixtures, in a runscraper subprocess through
SCRAPER_SOURCES=tests.scraper.fake_source with FAKE_SOURCE_URL naming the site. It may reach its
own loopback host:port (private_hosts) and nothing else on loopback.
"""
import os
from urllib.parse import quote, urlsplit

from scraper.sources import register
from scraper.sources.base import ChapterInfo, PageInfo, SeriesInfo, Source


class FakeSource(Source):
    key = "fake"
    name = "Fake"
    pace = 0.0

    def __init__(self, base=""):
        self.base = base

    @property
    def private_hosts(self):
        return (urlsplit(self.base).netloc,) if self.base else ()

    def search(self, http, query):
        return [SeriesInfo(id=r["id"], title=r["title"]) for r in http.get_json(f"{self.base}/search?q={quote(query)}")]

    def series(self, http, series_id, lang=None):
        data = http.get_json(f"{self.base}/series/{quote(series_id)}")
        return SeriesInfo(id=data["id"], title=data["title"], authors=tuple(data["authors"]))

    def chapters(self, http, series_id, lang):
        return [ChapterInfo(id=c["id"], number=c["number"], title=c["title"], group=c["group"], language=lang)
                for c in http.get_json(f"{self.base}/series/{quote(series_id)}/chapters")]

    def pages(self, http, chapter_id):
        return [PageInfo(url=u) for u in http.get_json(f"{self.base}/chapter/{quote(chapter_id)}")["pages"]]


SOURCE = register(FakeSource(os.environ.get("FAKE_SOURCE_URL", "")))
