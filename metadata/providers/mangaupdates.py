"""MangaUpdates, over its public v1 API (https://api.mangaupdates.com/): `POST /series/search` and
`GET /series/{id}`, no account needed.

MangaUpdates documents no rate limit for its public API, so the pace is conservative (2 s). A
search result has the title, description, type, year, genres and image, but no authors,
alternative titles or relations (`complete` False): the entry itself is fetched before it fills
a manga.
"""
import re

from django.conf import settings

from .base import Provider, Record, plain_text, strings, web_link

PUBLIC_API = "https://api.mangaupdates.com/v1"
FORMAT = {"Manga": "manga", "Manhwa": "manhwa", "Manhua": "manhua", "Novel": "novel", "OEL": "comic",
          "Doujinshi": "manga", "Artbook": "artbook"}
RELATION = {"Sequel": "sequel", "Prequel": "prequel", "Side Story": "side-story", "Spin-Off": "spin-off",
            "Adapted From": "source", "Alternate Story": "alternate", "Alternate Version": "alternate"}
_LINK = re.compile(r"mangaupdates\.com/series/([0-9a-z]+)(?:/|$)")


def _year(value):
    text = str(value or "").strip()[:4]
    return int(text) if text.isdigit() else None


def _status(series):
    if series.get("completed") is True:
        return "completed"
    text = str(series.get("status") or "").lower()
    for word, status in (("ongoing", "ongoing"), ("hiatus", "hiatus"), ("cancel", "cancelled"),
                         ("discontinued", "cancelled"), ("complete", "completed")):
        if word in text:
            return status
    return None


def parse_series(series, complete=True):
    """A series object (a search record, or GET /series/{id}) -> Record; ValueError when it is not one."""
    if not isinstance(series, dict) or not isinstance(series.get("series_id"), int):
        raise ValueError("MangaUpdates answered a series without a series_id")
    title = series.get("title")
    if not isinstance(title, str) or not title.strip():
        raise ValueError(f"MangaUpdates answered series {series['series_id']} without a title")
    sid = series["series_id"]
    url = web_link(series.get("url")) or f"https://www.mangaupdates.com/series/{_base36(sid)}"
    image = series.get("image") if isinstance(series.get("image"), dict) else {}
    urls = image.get("url") if isinstance(image.get("url"), dict) else {}
    people = {"Author": [], "Artist": []}
    for person in series.get("authors") or []:
        if isinstance(person, dict) and person.get("type") in people and isinstance(person.get("name"), str):
            people[person["type"]].append(person["name"])
    relations = [{"type": RELATION[r["relation_type"]], "id": str(r["related_series_id"]),
                  "title": str(r.get("related_series_name") or ""),
                  "url": f"https://www.mangaupdates.com/series/{_base36(r['related_series_id'])}"}
                 for r in series.get("related_series") or []
                 if isinstance(r, dict) and r.get("relation_type") in RELATION
                 and isinstance(r.get("related_series_id"), int)]
    categories = sorted((c for c in series.get("categories") or [] if isinstance(c, dict)),
                        key=lambda c: -(c.get("votes") or 0) if isinstance(c.get("votes"), int) else 0)
    return Record(
        provider="mangaupdates", id=str(sid), url=url, title=title.strip(),
        titles=strings([title, *((a.get("title") if isinstance(a, dict) else None)
                                 for a in series.get("associated") or [])]),
        year=_year(series.get("year")), format=FORMAT.get(series.get("type"), "comic"),
        authors=strings(people["Author"]), artists=strings(people["Artist"]),
        description=plain_text(series.get("description")),
        genres=strings([g.get("genre") for g in series.get("genres") or [] if isinstance(g, dict)]),
        tags=strings([c.get("category") for c in categories], limit=30),
        status=_status(series) if complete else None, links={"MangaUpdates": url},
        cover_url=web_link(urls.get("original")), relations=relations, complete=complete)


def parse_search(answer):
    results = answer.get("results") if isinstance(answer, dict) else None
    if not isinstance(results, list):
        raise ValueError("MangaUpdates answered a search without results")
    return [parse_series(r.get("record"), complete=False) for r in results if isinstance(r, dict)]


def _base36(number):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


class MangaUpdates(Provider):
    key = "mangaupdates"
    name = "MangaUpdates"
    pace = 2.0
    home = "https://www.mangaupdates.com"
    attribution = "data from the MangaUpdates public API (Baka-Updates Manga)"
    public_base = PUBLIC_API

    def __init__(self):
        self.base = settings.MANGAUPDATES_API_URL.rstrip("/")

    def search(self, client, title):
        return parse_search(client.post_json(self, f"{self.base}/series/search", {"search": title, "perpage": 10}))

    def fetch(self, client, entry_id):
        if not str(entry_id).isdigit():
            raise ValueError(f"{entry_id!r} is not a MangaUpdates series id")
        return parse_series(client.get_json(self, f"{self.base}/series/{entry_id}"))

    def id_in(self, url):
        found = _LINK.search(url) if isinstance(url, str) else None
        return str(int(found.group(1), 36)) if found else None
