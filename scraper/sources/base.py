"""The source contract: descriptors in, descriptors out; the daemon does everything else.

A source module describes a site. It gets a transport (`http`) from the daemon and returns the
dataclasses below. It never writes files, never touches the queue, never sleeps or retries, and
never opens its own connections: pacing, timeouts, size limits, redirects, address checks and
retries live in the transport (scraper/http.py). The daemon fetches pages, verifies them as
images, stages, checkpoints and publishes.

Network sources (transport = "http") get a `SourceHttp`: `http.get(url, headers=None)` returns a
Response (`.status`, `.headers`, `.body`, `.json()`); non-2xx answers raise. The folder source
(transport = "local") gets a `LocalReader` instead (scraper/localfiles.py): read-only listing
and reading of files under SCRAPER_IMPORT_ROOTS, with the same size limits. Page bytes are
always fetched by the daemon through `transport.fetch_page(page)`, never by the source.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .. import names
from ..errors import InvalidInput

if TYPE_CHECKING:
    import ipaddress

    from ..http import SourceHttp
    from ..localfiles import LocalReader
    from ..queue import Series

    Transport = SourceHttp | LocalReader  # what the daemon hands a source, by its `transport`


@dataclass(frozen=True)
class SeriesInfo:
    id: str                          # stable id at the source (a UUID, a path); never a display name
    title: str
    authors: tuple[str, ...] = ()
    artists: tuple[str, ...] = ()
    description: str = ""
    cover_url: str | None = None
    direction: str | None = None     # rtl | ltr | ttb
    status: str | None = None        # ongoing | completed | hiatus | cancelled
    language: str | None = None
    url: str | None = None
    alt_titles: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    links: dict[str, str] = field(default_factory=dict)   # {site name: url}
    content_rating: str | None = None
    year: int | None = None
    languages: tuple[str, ...] = ()             # languages the chapters are available in


@dataclass(frozen=True)
class ChapterInfo:
    id: str                          # stable id at the source
    number: str | None               # kept as a string: "3.10" is not "3.1"; None = a oneshot
    title: str = ""
    volume: str | None = None
    group: str = ""                  # scanlation group; the folder's [bracket] (else the source name)
    language: str = ""
    published: str | None = None     # ISO date
    url: str | None = None
    skip: str = ""                   # why it cannot be downloaded (external only, unavailable): never queued


@dataclass(frozen=True)
class PageInfo:
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    expected_type: str | None = None  # a hint only: the stored type comes from the bytes
    expires: int | None = None        # ms since the epoch: after this the daemon asks pages() again
    name: str | None = None           # the file name to keep (a peer's); else 001.jpg… from the bytes
    size: int | None = None           # announced size and SHA-256: a page that differs is rejected
    sha256: str | None = None


class Source:
    key = ""                 # module key, in queue.json and chapter.json
    name = ""                # display name, and the folder bracket when a chapter has no group
    pace: float = 1.0        # minimum seconds between requests; the admin may raise it, not lower it
    transport = "http"       # "http" or "local"
    keep_alive = False       # reuse the connection between requests close together (scraper/http.py)
    private_hosts: tuple[str, ...] = ()  # "host:port" this source may reach although it is a private address
    languages: tuple[str, ...] = ("en",)
    # Switches an admin may turn on for this source (Schedule & pacing): {name: label}. The
    # daemon hands their values to the module as `http.options` ({name: bool}, unset = off).
    options: dict[str, str] = {}

    def check_id(self, http: Transport, series_id: str) -> str:
        """The series id as given by an admin, checked (no request); raise InvalidInput if it cannot be one."""
        if not isinstance(series_id, str) or not series_id.strip() or len(series_id) > 1000:
            raise InvalidInput("series id must be a non-empty string")
        return series_id.strip()

    def search(self, http: Transport, query: str) -> list[SeriesInfo]:
        """-> list[SeriesInfo]"""
        raise NotImplementedError

    def series(self, http: Transport, series_id: str, lang: str | None = None) -> SeriesInfo:
        """-> SeriesInfo; `lang` is the subscription's language, for the title when there is a choice."""
        raise NotImplementedError

    def chapters(self, http: Transport, series_id: str, lang: str) -> list[ChapterInfo]:
        """-> list[ChapterInfo], all chapters in that language"""
        raise NotImplementedError

    def pages(self, http: Transport, chapter_id: str) -> list[PageInfo]:
        """-> list[PageInfo], in reading order"""
        raise NotImplementedError

    def allows(self, host: str, port: int, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        """Whether a request may go to `host` although its address `ip` is not a public one."""
        return f"{host}:{port}" in self.private_hosts or host in self.private_hosts

    def folder_title(self, info: SeriesInfo) -> str:
        """The text the manga folder's name is made from."""
        return info.title

    def folder(self, chapter: ChapterInfo) -> str:
        """The chapter's folder name, before any collision suffix."""
        return names.chapter_folder(chapter.number, chapter.title, chapter.group or self.name)

    def book(self, chapter: ChapterInfo) -> str | None:
        """The book folder the chapter goes in (`Vol. 2`), or None for the manga folder itself."""
        return names.book_folder(chapter.volume)

    def chapter_meta(self, chapter: ChapterInfo, meta: dict[str, Any]) -> dict[str, Any]:
        """The chapter.json to publish, from the one the daemon made."""
        return meta

    def manga_meta(self, entry: Series, meta: dict[str, Any]) -> dict[str, Any]:
        """The manga.json of a new manga, from the one the daemon made."""
        return meta

    def bucket(self, url: str) -> tuple[str, float] | None:
        """-> (name, seconds) for an endpoint with its own, slower limit than `pace`, or None."""
        return None

    def thumbnail(self, cover_url: str) -> str | None:
        """-> the URL of a small version of one of this source's covers (for search results), or
        None when `cover_url` is not one of its covers: the daemon fetches nothing else for it."""
        return None

    def page_fetched(self, http: Transport, page: PageInfo, attempts: list[dict[str, Any]], ok: bool) -> None:
        """After the daemon fetched a page: `attempts` as recorded by the client (url, status, bytes,
        ms, cached), `ok` whether the page was stored. For sources that ask for reports."""

    def describe(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "pace": self.pace, "transport": self.transport,
                "languages": list(self.languages), "options": dict(self.options)}
