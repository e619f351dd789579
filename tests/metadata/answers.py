"""Provider answers written by hand in the shapes the providers document.

- AniList: the Media type of its GraphQL schema (https://docs.anilist.co/reference/object/media,
  fields id, siteUrl, title{romaji,english,native}, format, countryOfOrigin, status, startDate,
  description, genres, tags, coverImage, staff.edges{role,node.name.full}, relations.edges
  {relationType,node}, externalLinks), as answered under {"data": {"Page": {"media": [...]}}} and
  {"data": {"Media": {...}}}.
- MangaUpdates: v1 `POST /series/search` results ({"total_hits", "page", "per_page", "results":
  [{"record": {...}, "hit_title"}]}) and `GET /series/{id}` (series_id, title, url, associated,
  description, image.url, type, year, genres, categories, status, completed, authors,
  related_series) from https://api.mangaupdates.com/ (its OpenAPI description).
- MangaDex: `GET /manga` with `includes[]=cover_art` (author and artist relationships bare:
  {"id", "type"}) and `GET /manga/{id}` with author, artist, cover_art and manga expanded
  (relationships carry "attributes"), from https://api.mangadex.org/docs/ (Manga, Relationship).
"""

COVER = "/covers/{}.png"  # served by the fake as a PNG


def media(mid, english, romaji, *, year, fmt="MANGA", country="JP", staff=(), relations=(), base="",
          description="", synonyms=(), genres=("Drama",), tags=("Tragedy",)):
    """One AniList Media object."""
    return {
        "id": mid, "siteUrl": f"https://anilist.co/manga/{mid}", "format": fmt, "countryOfOrigin": country,
        "status": "FINISHED", "title": {"romaji": romaji, "english": english, "native": None},
        "synonyms": list(synonyms), "startDate": {"year": year},
        "description": description or f"The story of {english or romaji}.<br><br><i>(Source: a publisher)</i>",
        "genres": list(genres),
        "tags": [{"name": t, "isMediaSpoiler": False} for t in tags]
        + [{"name": "Twist ending", "isMediaSpoiler": True}],
        "coverImage": {"extraLarge": f"{base}{COVER.format(f'al{mid}')}", "large": None},
        "staff": {"edges": [{"role": role, "node": {"name": {"full": name}}} for role, name in staff]},
        "relations": {"edges": [{"relationType": kind, "node": {
            "id": other, "type": "MANGA" if kind != "ADAPTATION_ANIME" else "ANIME",
            "siteUrl": f"https://anilist.co/manga/{other}", "title": {"romaji": title, "english": title}}}
            for kind, other, title in relations]},
        "externalLinks": [{"site": "Official site", "url": "https://publisher.example/series"}],
    }


def anilist_library(base):
    """The AniList entries the fake knows: the ambiguous cases of docs/metadata.md."""
    return [
        media(30001, "Monster", "Monster", year=1994, base=base, staff=[("Story & Art", "Naoki Urasawa")]),
        media(30002, "Monster", "Monster", year=2021, base=base, staff=[("Story", "Someone Else")]),
        media(53390, "Attack on Titan", "Shingeki no Kyojin", year=2009, base=base,
              staff=[("Story & Art", "Hajime Isayama")], relations=[("SEQUEL", 99001, "Attack on Titan: Next")]),
        media(105398, "Solo Leveling", "Na Honjaman Level Up", year=2018, country="KR", base=base,
              staff=[("Story", "Chugong"), ("Art", "DUBU")], relations=[("SOURCE", 105399, "Solo Leveling")]),
        media(105399, "Solo Leveling", "Na Honjaman Level Up", year=2016, fmt="NOVEL", country="KR", base=base,
              staff=[("Story", "Chugong")], relations=[("ADAPTATION", 105398, "Solo Leveling")]),
        media(77001, "Lantern Fields", "Touro no Hara", year=2015, base=base, description="Lanterns over the fields."),
        media(77002, "Lantern Fields Deluxe", "Touro no Hara DX", year=2019, base=base),
    ]


def mangaupdates_search(base):
    return {"total_hits": 1, "page": 1, "per_page": 10, "results": [{
        "record": {
            "series_id": 55099564912, "title": "Solo Leveling",
            "url": "https://www.mangaupdates.com/series/pb8uwds/solo-leveling",
            "description": "10 years ago, after &quot;the Gate&quot; appeared...",
            "image": {"url": {"original": f"{base}/covers/mu1.png", "thumb": f"{base}/covers/mu1.png"},
                      "height": 350, "width": 250},
            "type": "Manhwa", "year": "2018", "bayesian_rating": 8.7, "rating_votes": 9000,
            "genres": [{"genre": "Action"}, {"genre": "Fantasy"}],
            "last_updated": {"timestamp": 1700000000, "as_rfc3339": "2023-11-14T22:13:20+00:00",
                             "as_string": "November 14th, 2023 10:13pm UTC"}},
        "hit_title": "Solo Leveling", "metadata": {"user_list": {}}}]}


def mangaupdates_series(base):
    return {
        "series_id": 55099564912, "title": "Solo Leveling",
        "url": "https://www.mangaupdates.com/series/pb8uwds/solo-leveling",
        "associated": [{"title": "Na Honjaman Level Up"}, {"title": "나 혼자만 레벨업"}],
        "description": "10 years ago, after &quot;the Gate&quot; appeared...<br />[From a publisher]",
        "image": {"url": {"original": f"{base}/covers/mu1.png", "thumb": f"{base}/covers/mu1.png"}},
        "type": "Manhwa", "year": "2018", "genres": [{"genre": "Action"}, {"genre": "Fantasy"}],
        "categories": [{"series_id": 55099564912, "category": "Dungeons", "votes": 40, "votes_plus": 40,
                        "votes_minus": 0, "added_by": 1},
                       {"series_id": 55099564912, "category": "Weak to Strong", "votes": 90, "votes_plus": 90,
                        "votes_minus": 0, "added_by": 1}],
        "status": "179 Chapters (Complete)", "licensed": True, "completed": True,
        "authors": [{"name": "Chugong", "author_id": 1, "type": "Author"},
                    {"name": "DUBU (REDICE STUDIO)", "author_id": 2, "type": "Artist"}],
        "related_series": [{"relation_id": 1, "relation_type": "Adapted From", "related_series_id": 15180124327,
                            "related_series_name": "Solo Leveling (Novel)", "triggered_by_relation_id": 0}],
    }


DEX_ID = "32d76d19-8a05-4db0-9fc2-e0b0648fe9d0"
DEX_SEQUEL = "a1c7c817-4e59-43b7-9365-09675a149a6f"


def _dex_tag(name, group):
    return {"id": f"tag-{name}", "type": "tag", "attributes": {"name": {"en": name}, "group": group}}


def mangadex_entity(expanded):
    """The same manga as /manga lists it (bare relationships) or as /manga/{id}?includes[]=… answers it."""
    relationships = [
        {"id": "author-1", "type": "author", **({"attributes": {"name": "Chugong"}} if expanded else {})},
        {"id": "artist-1", "type": "artist", **({"attributes": {"name": "DUBU"}} if expanded else {})},
        {"id": "cover-1", "type": "cover_art", "attributes": {"fileName": "cover.png"}},
        {"id": DEX_SEQUEL, "type": "manga", "related": "sequel",
         **({"attributes": {"title": {"en": "Solo Leveling: Ragnarok"}}} if expanded else {})},
    ]
    return {"id": DEX_ID, "type": "manga", "attributes": {
        "title": {"en": "Solo Leveling"}, "altTitles": [{"ko": "나 혼자만 레벨업"}, {"ko-ro": "Na Honjaman Level Up"}],
        "description": {"en": "10 years ago, after the Gate appeared..."}, "originalLanguage": "ko",
        "links": {"al": "105398", "mu": "pb8uwds"}, "status": "completed", "year": 2018, "contentRating": "safe",
        "tags": [_dex_tag("Action", "genre"), _dex_tag("Long Strip", "format"), _dex_tag("Monsters", "theme")],
        "availableTranslatedLanguages": ["en"]}, "relationships": relationships}


def mangadex_search():
    return {"result": "ok", "response": "collection", "data": [mangadex_entity(False)], "limit": 10, "offset": 0,
            "total": 1}


def mangadex_manga():
    return {"result": "ok", "response": "entity", "data": mangadex_entity(True)}
