"""MangaDex as a metadata provider, through the downloader's own module (scraper/sources/mangadex.py).

The base, the covers' address, the hosts a moved base may be on and the pace (0.5 s, under the
documented 5 requests a second) are the scraper source's, and requests are made as that source, so
they share its pacing key and Retry-After handling (X-RateLimit-Retry-After as well). Its parser
reads the common fields; this module adds what a manga page fills and the downloader does not
need: genres apart from tags, the format, and relations. A search result's relationships are
not expanded (authors are bare ids: `complete` False); the entry is fetched with them expanded.
"""
import re
from urllib.parse import urlencode

from scraper.errors import InvalidInput, SourceChanged
from scraper.sources import mangadex as dex

from .base import Provider, Record, strings

FORMAT = {"ja": "manga", "ko": "manhwa", "zh": "manhua", "zh-hk": "manhua"}
RELATION = {"sequel": "sequel", "prequel": "prequel", "side_story": "side-story", "spin_off": "spin-off",
            "adapted_from": "source", "alternate_story": "alternate", "alternate_version": "alternate"}
SEARCH_LIMIT = 10
_LINK = re.compile(r"mangadex\.org/title/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")


def parse_entity(entity, uploads, complete=True):
    """A manga entity (relationships expanded or not) -> Record; ValueError when it is not one."""
    try:
        info = dex.parse_manga(entity, uploads)
    except SourceChanged as e:
        raise ValueError(e.message) from None
    attrs = entity["attributes"]
    genres, tags = [], []
    for tag in attrs.get("tags") or []:
        attributes = tag.get("attributes") if isinstance(tag, dict) else None
        name = (attributes.get("name") or {}).get("en") if isinstance(attributes, dict) else None
        if isinstance(name, str) and name:
            (genres if attributes.get("group") == "genre" else tags).append(name)
    relations = []
    for rel in entity.get("relationships") or []:
        kind = RELATION.get(rel.get("related")) if isinstance(rel, dict) and rel.get("type") == "manga" else None
        if kind and isinstance(rel.get("id"), str):
            attributes = rel.get("attributes") if isinstance(rel.get("attributes"), dict) else {}
            titles = attributes.get("title") if isinstance(attributes.get("title"), dict) else {}
            relations.append({"type": kind, "id": rel["id"], "title": dex.pick_title(titles, [], None, "") or "",
                              "url": f"https://mangadex.org/title/{rel['id']}"})
    return Record(
        provider="mangadex", id=info.id, url=info.url or f"https://mangadex.org/title/{info.id}", title=info.title,
        titles=strings([info.title, *info.alt_titles]), year=info.year,
        format=FORMAT.get(info.language or "", "comic"), authors=list(info.authors), artists=list(info.artists),
        description=info.description, genres=strings(genres), tags=strings(tags), status=info.status,
        links=dict(info.links), cover_url=f"{info.cover_url}.512.jpg" if info.cover_url else None,
        relations=relations, complete=complete)


class MangaDex(Provider):
    key = "mangadex"
    name = "MangaDex"
    home = "https://mangadex.org"
    attribution = "data from the MangaDex API; descriptions and covers belong to their authors and publishers"

    def __init__(self):
        self.source = dex.MangaDex()  # reads MANGADEX_API_URL, as the downloader does
        self.base, self.pace = self.source.base, self.source.pace

    def search(self, client, title):
        params = [("title", title), ("limit", SEARCH_LIMIT), ("includes[]", "cover_art"),
                  ("order[relevance]", "desc"), *(("contentRating[]", r) for r in dex.RATINGS)]
        data = client.get_json(self.source, f"{self.base}/manga?{urlencode(params)}")
        try:
            entities = dex.check_envelope(data, "the search").get("data")
        except SourceChanged as e:
            raise ValueError(e.message) from None
        if not isinstance(entities, list):
            raise ValueError("MangaDex answered a search without data")
        return [parse_entity(e, self.source.uploads, complete=False) for e in entities]

    def fetch(self, client, entry_id):
        try:
            entry_id = self.source.check_id(None, entry_id)
        except InvalidInput as e:
            raise ValueError(e.message) from None
        params = [("includes[]", kind) for kind in ("author", "artist", "cover_art", "manga")]
        data = client.get_json(self.source, f"{self.base}/manga/{entry_id}?{urlencode(params)}")
        if not isinstance(data, dict) or data.get("result") != "ok" or not isinstance(data.get("data"), dict):
            raise ValueError("MangaDex answered an unexpected document for a manga")
        return parse_entity(data["data"], self.source.uploads)

    def id_in(self, url):
        found = _LINK.search(url.lower()) if isinstance(url, str) else None
        return found.group(1) if found else None

    def allows(self, host, port, ip):
        return self.source.allows(host, port, ip)
