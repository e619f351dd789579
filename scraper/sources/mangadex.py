"""MangaDex, over its public JSON API (https://api.mangadex.org/docs/).

Requests go through the daemon's client like every source's: one at a time, `pace` apart (0.5 s,
well under the documented 5 requests a second per IP), and the at-home endpoint in its own bucket
(2 s apart: it allows 40 a minute). Page URLs come from the at-home server and are valid for 15
minutes; the daemon asks again when they are older (`PageInfo.expires`). Every image fetched from
an at-home node is reported (`POST /report`), as MangaDex asks, with a short deadline and no retry.

MANGADEX_API_URL points the module at another base (a mirror, a caching proxy, a test server):
covers (`<base>/covers/…`) and the report (`<base>/report`) then use the same base, and its
host:port is allowed although it may be a loopback or private address. Page hosts come from the
at-home answer and pass the client's address guard like any other URL.

Parsers are pure functions of the decoded JSON (`parse_*`); an answer without a field they need
raises SourceChanged, which fails the job at once with the field named instead of writing junk.
"""
import re
import time
from urllib.parse import quote, urlencode, urlsplit

from django.conf import settings

from ..errors import InvalidInput, ScraperError, SourceChanged
from . import register
from .base import ChapterInfo, PageInfo, SeriesInfo, Source

PUBLIC_API = "https://api.mangadex.org"
PUBLIC_UPLOADS = "https://uploads.mangadex.org"
PUBLIC_REPORT = "https://api.mangadex.network/report"
PUBLIC_AUTH = "https://auth.mangadex.org"
FEED_LIMIT = 500                 # the feed's largest page
SEARCH_LIMIT = 20
WINDOW = 10_000                  # offset + limit past this is refused (400 "Result window is too large")
AT_HOME_SECONDS = 2.0            # 30 a minute, under the documented 40
PAGES_VALID_MS = 14 * 60 * 1000  # at-home URLs are guaranteed for 15 minutes
NO_GROUP = "00e03853-1b96-4f41-9542-c71b8692033b"   # the legacy "no group" group
RATINGS = ("safe", "suggestive", "erotica")
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_LANG = re.compile(r"^[a-z]{2,3}(-[a-z]{2,4})?$")
_LINKS = {"al": ("AniList", "https://anilist.co/manga/{}"), "mu": ("MangaUpdates", "https://www.mangaupdates.com/series.html?id={}"),
          "mal": ("MyAnimeList", "https://myanimelist.net/manga/{}"), "raw": ("Raw", "{}"),
          "engtl": ("Official English", "{}")}


def _need(obj, key, kind, where):
    """obj[key] of the given type, else SourceChanged naming it."""
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise SourceChanged(f"MangaDex answered without a valid {where}.{key}: the mangadex module needs an update")
    return value


def _optional(obj, key, kind):
    value = obj.get(key)
    return value if isinstance(value, kind) and not isinstance(value, bool) else None


def check_envelope(data, where):
    if not isinstance(data, dict) or data.get("result") != "ok":
        raise SourceChanged(f"MangaDex answered an unexpected document for {where}")
    return data


def pick_title(titles, alt_titles, lang, original):
    """The series' title whatever language its chapters are read in (docs/source-modules.md): English,
    else the romanised original, else the original, else any. `lang` does not choose it: following
    a series in Russian must not rename it; its Russian title is one of the alternative titles."""
    candidates = ["en", f"{original}-ro", original]
    for wanted in candidates:
        if wanted and titles.get(wanted):
            return titles[wanted]
        for alt in alt_titles:
            if wanted and isinstance(alt, dict) and alt.get(wanted):
                return alt[wanted]
    return next((t for t in titles.values() if isinstance(t, str) and t), None)


def direction_for(original, tags):
    """Long strips (webtoons, most Korean and Chinese series) scroll; Japanese reads right to left."""
    if "long strip" in (t.lower() for t in tags):
        return "ttb"
    if original == "ja":
        return "rtl"
    return "ltr"


def _related(entity, kind):
    return [r for r in entity.get("relationships") or [] if isinstance(r, dict) and r.get("type") == kind]


def parse_manga(entity, base_uploads, lang=None):
    """A manga entity -> SeriesInfo."""
    series_id = _need(entity, "id", str, "manga")
    attrs = _need(entity, "attributes", dict, "manga")
    titles = _need(attrs, "title", dict, "manga.attributes")
    alt = [a for a in attrs.get("altTitles") or [] if isinstance(a, dict)]
    original = _optional(attrs, "originalLanguage", str) or ""
    tags = tuple(t["attributes"]["name"].get("en") for t in attrs.get("tags") or []
                 if isinstance(t, dict) and isinstance(t.get("attributes"), dict)
                 and isinstance(t["attributes"].get("name"), dict) and t["attributes"]["name"].get("en"))
    title = pick_title(titles, alt, lang, original)
    if not title:
        raise SourceChanged("MangaDex answered a manga without any title: the mangadex module needs an update")
    # every other title, the main one in other languages too: the subscription's language first
    others = [titles.get(lang), *(a.get(lang) for a in alt), *titles.values(), *(v for a in alt for v in a.values())]
    alt_titles = tuple(dict.fromkeys(v for v in others if isinstance(v, str) and v and v != title))
    description = _optional(attrs, "description", dict) or {}
    names = {kind: tuple(r["attributes"]["name"] for r in _related(entity, kind)
                         if isinstance(r.get("attributes"), dict) and isinstance(r["attributes"].get("name"), str))
             for kind in ("author", "artist")}
    cover = next((r["attributes"].get("fileName") for r in _related(entity, "cover_art")
                  if isinstance(r.get("attributes"), dict)), None)
    links = {"MangaDex": f"https://mangadex.org/title/{series_id}"}
    for key, value in (_optional(attrs, "links", dict) or {}).items():
        if key in _LINKS and isinstance(value, str) and value:
            name, pattern = _LINKS[key]
            url = pattern.format(value)
            if url.startswith(("https://", "http://")):
                links[name] = url
    return SeriesInfo(
        id=series_id, title=title, authors=names["author"], artists=names["artist"],
        description=description.get(lang) or description.get("en") or next(iter(description.values()), "") or "",
        cover_url=f"{base_uploads}/covers/{series_id}/{quote(cover)}" if isinstance(cover, str) and cover else None,
        direction=direction_for(original, tags), status=_optional(attrs, "status", str),
        language=original or None, url=links["MangaDex"], alt_titles=alt_titles, tags=tags, links=links,
        content_rating=_optional(attrs, "contentRating", str), year=_optional(attrs, "year", int),
        languages=tuple(x for x in attrs.get("availableTranslatedLanguages") or [] if isinstance(x, str)),
    )


def parse_search(data, base_uploads):
    check_envelope(data, "the search")
    return [parse_manga(e, base_uploads) for e in _need(data, "data", list, "search")]


def parse_follows(data, base_uploads):
    """One page of `/user/follows/manga` -> (SeriesInfo list, total)."""
    check_envelope(data, "the follows list")
    entities = _need(data, "data", list, "follows")
    return [parse_manga(e, base_uploads) for e in entities], _need(data, "total", int, "follows")


def parse_read(data):
    """`/manga/read?ids[]=…` (or `/manga/{id}/read`) -> the chapter ids marked read."""
    check_envelope(data, "the read markers")
    ids = _need(data, "data", list, "read markers")
    if not all(isinstance(i, str) and _UUID.fullmatch(i) for i in ids):
        raise SourceChanged("MangaDex answered read markers that are not chapter ids: "
                            "the mangadex module needs an update")
    return ids


def group_name(entity):
    """Group names joined with ' & ' (the legacy no-group left out), else the uploader, else ''."""
    groups = [r["attributes"]["name"] for r in _related(entity, "scanlation_group")
              if r.get("id") != NO_GROUP and isinstance(r.get("attributes"), dict)
              and isinstance(r["attributes"].get("name"), str)]
    if groups:
        return " & ".join(groups)
    users = [r["attributes"]["username"] for r in _related(entity, "user")
             if isinstance(r.get("attributes"), dict) and isinstance(r["attributes"].get("username"), str)]
    return users[0] if users else ""


def parse_chapter(entity, lang):
    """A chapter entity -> ChapterInfo; external-only and unavailable ones carry why in `skip`."""
    chapter_id = _need(entity, "id", str, "chapter")
    attrs = _need(entity, "attributes", dict, "chapter")
    if "chapter" not in attrs or "volume" not in attrs or "pages" not in attrs:
        raise SourceChanged("MangaDex answered a chapter without chapter, volume or pages: "
                            "the mangadex module needs an update")
    number = attrs["chapter"] if isinstance(attrs["chapter"], str) and attrs["chapter"].strip() else None
    volume = attrs["volume"] if isinstance(attrs["volume"], str) and attrs["volume"].strip() else None
    pages = _optional(attrs, "pages", int) or 0
    skip = ""
    if attrs.get("isUnavailable") is True:
        skip = "unavailable on MangaDex"
    elif isinstance(attrs.get("externalUrl"), str) and attrs["externalUrl"]:
        skip = f"only on an external site ({attrs['externalUrl'][:200]})"
    elif pages == 0:
        skip = "no pages on MangaDex"
    return ChapterInfo(
        id=chapter_id, number=number.strip() if number else None, title=_optional(attrs, "title", str) or "",
        volume=volume.strip() if volume else None, group=group_name(entity),
        language=_optional(attrs, "translatedLanguage", str) or lang,
        published=_optional(attrs, "publishAt", str), url=f"https://mangadex.org/chapter/{chapter_id}", skip=skip)


def parse_feed(data, lang):
    """One feed page -> (chapters, total)."""
    check_envelope(data, "the chapter feed")
    entities = _need(data, "data", list, "feed")
    total = _need(data, "total", int, "feed")
    return [parse_chapter(e, lang) for e in entities], total


def parse_at_home(data, now_ms, data_saver=False):
    """The at-home answer -> list of PageInfo, valid for PAGES_VALID_MS: the full-size images
    (`data/`, `chapter.data`), or with `data_saver` the smaller ones (`data-saver/`, `chapter.dataSaver`)."""
    if not isinstance(data, dict) or data.get("result") != "ok":
        raise SourceChanged("MangaDex answered an unexpected document for the at-home server")
    base = _need(data, "baseUrl", str, "at-home").rstrip("/")
    chapter = _need(data, "chapter", dict, "at-home")
    digest = _need(chapter, "hash", str, "at-home.chapter")
    files = _need(chapter, "dataSaver" if data_saver else "data", list, "at-home.chapter")
    good_files = all(isinstance(f, str) and f and "/" not in f for f in files)
    if not base.startswith(("https://", "http://")) or not good_files:
        raise SourceChanged("MangaDex answered an at-home server with a bad base URL or file name")
    expires = now_ms + PAGES_VALID_MS
    folder = "data-saver" if data_saver else "data"
    return [PageInfo(url=f"{base}/{folder}/{quote(digest)}/{quote(f)}", expires=expires) for f in files]


class MangaDex(Source):
    key = "mangadex"
    name = "MangaDex"
    pace = 0.5
    languages = ("en", "fr", "es", "es-la", "pt-br", "it", "de", "ru", "pl", "id", "vi", "tr", "ja", "ko", "zh")
    options = {"dataSaver": "Data saver: download MangaDex's smaller, more compressed images"}

    def __init__(self, base=None):
        self.configure(base)

    def configure(self, base=None, auth=None):
        base = (base or getattr(settings, "MANGADEX_API_URL", PUBLIC_API) or PUBLIC_API).rstrip("/")
        self.base = base
        public = base == PUBLIC_API
        self.uploads = PUBLIC_UPLOADS if public else base
        self.report_url = PUBLIC_REPORT if public else f"{base}/report"
        self.private_hosts = () if public else (urlsplit(base).netloc,)
        # The OAuth server of the personal API clients (scraper/mangadex_accounts.py).
        auth = (auth or getattr(settings, "MANGADEX_AUTH_URL", PUBLIC_AUTH) or PUBLIC_AUTH).rstrip("/")
        self.token_url = f"{auth}/realms/mangadex/protocol/openid-connect/token"
        if auth != PUBLIC_AUTH:
            self.private_hosts += (urlsplit(auth).netloc,)

    def check_id(self, http, series_id):
        """A manga UUID, or a mangadex.org/title/<uuid> link."""
        super().check_id(http, series_id)
        match = _UUID.search(series_id.strip().lower())
        if not match:
            raise InvalidInput("a MangaDex series is a UUID like 32d76d19-8a05-4db0-9fc2-e0b0648fe9d0, "
                               "or its mangadex.org/title/… link")
        return match.group(0)

    def bucket(self, url):
        return ("at-home", AT_HOME_SECONDS) if "/at-home/server/" in url else None

    def _get(self, http, path, params=()):
        response = http.get(f"{self.base}{path}" + (f"?{urlencode(params)}" if params else ""),
                            {"Accept": "application/json"})
        content_type = response.headers.get("content-type", "")
        if "json" not in content_type.lower():
            raise ScraperError(f"MangaDex answered {content_type or 'no content type'} instead of JSON "
                               "(a browser check or a block page); the job waits and tries again later")
        return response.json()

    def search(self, http, query):
        params = [("title", query), ("limit", SEARCH_LIMIT), ("includes[]", "cover_art"),
                  ("order[relevance]", "desc"), *(("contentRating[]", r) for r in RATINGS)]
        return parse_search(self._get(http, "/manga", params), self.uploads)

    def series(self, http, series_id, lang=None):
        series_id = self.check_id(http, series_id)
        params = [("includes[]", "author"), ("includes[]", "artist"), ("includes[]", "cover_art")]
        data = check_envelope(self._get(http, f"/manga/{series_id}", params), "a manga")
        return parse_manga(_need(data, "data", dict, "manga"), self.uploads, lang)

    def chapters(self, http, series_id, lang):
        """Every chapter in that language: pages of 500, oldest first; past the 10,000 window the
        rest is read newest first, so a series of up to 20,000 chapters per language is complete."""
        series_id = self.check_id(http, series_id)
        if not _LANG.match(lang or ""):
            raise InvalidInput(f"{lang!r} is not a language code like en or pt-br")
        found, total = self._feed(http, series_id, lang, "asc", {})
        if total > len(found):
            more, _ = self._feed(http, series_id, lang, "desc", found)
            found.update(more)
        return list(found.values())

    def _feed(self, http, series_id, lang, order, seen):
        found, offset, total = {}, 0, 0
        while offset + FEED_LIMIT <= WINDOW:
            params = [("translatedLanguage[]", lang), ("limit", FEED_LIMIT), ("offset", offset),
                      ("includes[]", "scanlation_group"), ("includes[]", "user"),
                      ("order[volume]", order), ("order[chapter]", order), ("includeFuturePublishAt", 0),
                      *(("contentRating[]", r) for r in (*RATINGS, "pornographic"))]
            chapters, total = parse_feed(self._get(http, f"/manga/{series_id}/feed", params), lang)
            for chapter in chapters:
                found.setdefault(chapter.id, chapter)
            offset += FEED_LIMIT
            if not chapters or offset >= total or (seen and any(c.id in seen for c in chapters)):
                break
        return found, total

    def pages(self, http, chapter_id):
        if not _UUID.fullmatch(chapter_id or ""):
            raise InvalidInput(f"{chapter_id!r} is not a MangaDex chapter id")
        data_saver = bool(getattr(http, "options", {}).get("dataSaver"))
        return parse_at_home(self._get(http, f"/at-home/server/{chapter_id}"), int(time.time() * 1000), data_saver)

    def thumbnail(self, cover_url):
        prefix = f"{self.uploads}/covers/"
        if not isinstance(cover_url, str) or not cover_url.startswith(prefix) or ".." in cover_url \
                or "?" in cover_url or "#" in cover_url or cover_url.count("/") != prefix.count("/") + 1:
            return None
        return f"{cover_url}.256.jpg"

    def page_fetched(self, http, page, attempts, ok):
        """One report per image request to an at-home node (never for the uploads server)."""
        host = urlsplit(page.url).netloc
        if urlsplit(self.uploads).netloc == host and self.base == PUBLIC_API:
            return
        for i, attempt in enumerate(attempts):
            last = i == len(attempts) - 1
            success = attempt["status"] == 200 and (ok or not last)
            try:
                http.post_json(self.report_url, {"url": attempt["url"], "success": success,
                                                 "cached": attempt["cached"], "bytes": attempt["bytes"],
                                                 "duration": attempt["ms"]}, retries=0, deadline=2)
            except ScraperError:
                pass  # a report that fails never fails the job


SOURCE = register(MangaDex())
