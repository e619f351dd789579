"""AniList, over its GraphQL API (https://docs.anilist.co/): one POST per query to ANILIST_API_URL.

AniList allows 90 requests a minute (its docs, "Rate Limiting"), so the pace is 60/90 s; a 429
carries Retry-After, which the shared client honours. The search asks for every field the manga
page fills, so a search result is as complete as the entry itself.
"""
import re

from django.conf import settings

from .base import Provider, Record, plain_text, strings, web_link

PUBLIC_API = "https://graphql.anilist.co"
FIELDS = """id idMal siteUrl format countryOfOrigin status
  title { romaji english native } synonyms startDate { year } description(asHtml: false)
  genres tags { name isMediaSpoiler } coverImage { extraLarge large }
  staff(perPage: 25) { edges { role node { name { full } } } }
  relations { edges { relationType(version: 2) node { id type siteUrl title { romaji english } } } }
  externalLinks { site url }"""
SEARCH = "query ($search: String) { Page(perPage: 10) { media(search: $search, type: MANGA) { %s } } }" % FIELDS
ENTRY = "query ($id: Int) { Media(id: $id, type: MANGA) { %s } }" % FIELDS
STATUS = {"FINISHED": "completed", "RELEASING": "ongoing", "HIATUS": "hiatus", "CANCELLED": "cancelled"}
FORMAT = {"NOVEL": "novel", "ONE_SHOT": "one-shot"}
COUNTRY = {"JP": "manga", "KR": "manhwa", "CN": "manhua", "TW": "manhua"}
RELATION = {"SEQUEL": "sequel", "PREQUEL": "prequel", "SIDE_STORY": "side-story", "SPIN_OFF": "spin-off",
            "ADAPTATION": "adaptation", "SOURCE": "source", "ALTERNATIVE": "alternate"}
_LINK = re.compile(r"anilist\.co/manga/(\d+)")


def _title(titles):
    return titles.get("english") or titles.get("romaji") or titles.get("native") or ""


def parse_media(media):
    """One Media object -> Record; ValueError when it is not one."""
    if not isinstance(media, dict) or not isinstance(media.get("id"), int):
        raise ValueError("AniList answered a Media without an id")
    titles = media.get("title") if isinstance(media.get("title"), dict) else {}
    main = _title(titles)
    if not main:
        raise ValueError(f"AniList answered Media {media['id']} without a title")
    people = {"authors": [], "artists": []}
    for edge in (media.get("staff") or {}).get("edges") or []:
        role = (edge.get("role") or "") if isinstance(edge, dict) else ""
        name = ((edge.get("node") or {}).get("name") or {}).get("full") if isinstance(edge, dict) else None
        if not isinstance(name, str) or not name:
            continue
        if "Story" in role or "Original" in role:
            people["authors"].append(name)
        if "Art" in role:
            people["artists"].append(name)
    relations = []
    for edge in (media.get("relations") or {}).get("edges") or []:
        node = edge.get("node") if isinstance(edge, dict) else None
        kind = RELATION.get(edge.get("relationType")) if isinstance(edge, dict) else None
        if kind and isinstance(node, dict) and node.get("type") == "MANGA" and isinstance(node.get("id"), int):
            relations.append({"type": kind, "id": str(node["id"]), "title": _title(node.get("title") or {}),
                              "url": web_link(node.get("siteUrl")) or f"https://anilist.co/manga/{node['id']}"})
    url = web_link(media.get("siteUrl")) or f"https://anilist.co/manga/{media['id']}"
    links = {"AniList": url}
    if isinstance(media.get("idMal"), int):  # the same entry at MyAnimeList, for its tracker (docs/trackers.md)
        links["MyAnimeList"] = f"https://myanimelist.net/manga/{media['idMal']}"
    for link in media.get("externalLinks") or []:
        if isinstance(link, dict) and isinstance(link.get("site"), str) and web_link(link.get("url")):
            links.setdefault(link["site"], link["url"])
    fmt = media.get("format")
    cover = media.get("coverImage") if isinstance(media.get("coverImage"), dict) else {}
    year = (media.get("startDate") or {}).get("year")
    return Record(
        provider="anilist", id=str(media["id"]), url=url, title=main,
        titles=strings([titles.get("english"), titles.get("romaji"), titles.get("native"),
                        *(media.get("synonyms") or [])]),
        year=year if isinstance(year, int) else None,
        format=FORMAT.get(fmt) or COUNTRY.get(media.get("countryOfOrigin"), "comic"),
        authors=strings(people["authors"]), artists=strings(people["artists"]),
        description=plain_text(media.get("description")), genres=strings(media.get("genres")),
        tags=strings([t.get("name") for t in media.get("tags") or [] if isinstance(t, dict)
                      and not t.get("isMediaSpoiler")]),
        status=STATUS.get(media.get("status")), links=links,
        cover_url=web_link(cover.get("extraLarge")) or web_link(cover.get("large")), relations=relations)


def _data(answer, key):
    data = answer.get("data") if isinstance(answer, dict) else None
    if not isinstance(data, dict):
        errors = answer.get("errors") if isinstance(answer, dict) else None
        first = errors[0] if isinstance(errors, list) and errors and isinstance(errors[0], dict) else {}
        message = first.get("message") or ""
        raise ValueError(f"AniList answered no data{': ' + message if message else ''}")
    return data.get(key)


def parse_search(answer):
    page = _data(answer, "Page") or {}
    return [parse_media(m) for m in page.get("media") or []]


class AniList(Provider):
    key = "anilist"
    name = "AniList"
    pace = 60 / 90
    home = "https://anilist.co"
    attribution = "data from AniList's public API, used under its terms (non-commercial use, attribution)"
    public_base = PUBLIC_API

    def __init__(self):
        self.base = settings.ANILIST_API_URL.rstrip("/")

    def search(self, client, title):
        return parse_search(client.post_json(self, self.base, {"query": SEARCH, "variables": {"search": title}}))

    def fetch(self, client, entry_id):
        if not str(entry_id).isdigit():
            raise ValueError(f"{entry_id!r} is not an AniList id")
        answer = client.post_json(self, self.base, {"query": ENTRY, "variables": {"id": int(entry_id)}})
        return parse_media(_data(answer, "Media"))

    def id_in(self, url):
        found = _LINK.search(url) if isinstance(url, str) else None
        return found.group(1) if found else None
