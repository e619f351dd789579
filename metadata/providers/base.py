"""The metadata provider contract (docs/source-modules.md, "Metadata providers").

A provider module describes one site's API. Like a source module it never opens a connection,
sleeps or retries: it gets a `metadata.client.Client` and calls `client.get_json(self, url)`,
`client.post_json(self, url, payload)`; pacing, Retry-After, the address guard, timeouts and the
cache live there. It answers `Record`s, plain data that cross from the worker to the reader as
JSON (`as_dict()`). Parsers are pure functions of the decoded JSON, tested on fixtures.
"""
from __future__ import annotations

import html
import re
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

STATUSES = ("ongoing", "completed", "hiatus", "cancelled")
COMIC_FORMATS = ("manga", "manhwa", "manhua", "one-shot", "comic")  # what a folder of images holds


@dataclass
class Record:
    provider: str                      # the provider's key
    id: str                            # its id there, as a string
    url: str                           # the page people open
    title: str
    titles: list[str] = field(default_factory=list)   # every title, the main one included
    year: int | None = None
    format: str = ""                   # manga, manhwa, manhua, one-shot, comic, novel, …
    authors: list[str] = field(default_factory=list)
    artists: list[str] = field(default_factory=list)
    description: str = ""
    genres: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    status: str | None = None          # one of STATUSES, or None
    links: dict[str, str] = field(default_factory=dict)
    cover_url: str | None = None
    # [{type (a catalog relation type), id, title, url}]: other entries of the same provider
    relations: list[dict[str, str]] = field(default_factory=list)
    complete: bool = True              # False for a search result that lacks fields its full entry has

    @property
    def kind(self) -> str:
        return "novel" if self.format == "novel" else "comic"

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class Provider:
    key = ""
    name = ""
    pace = 1.0          # seconds between two requests of this process to the provider
    attribution = ""    # shown wherever its data appears
    home = ""
    base = ""
    public_base = ""

    def search(self, client: Any, title: str) -> list[Record]:
        raise NotImplementedError

    def fetch(self, client: Any, entry_id: str) -> Record:
        raise NotImplementedError

    def id_in(self, url: str) -> str | None:
        """The id of this provider's entry a link names (manga.json links, ComicInfo Web), or None."""
        return None

    def allows(self, host: str, port: int, ip: Any) -> bool:
        """A non-public address only for a base moved by its setting (a test server, a LAN proxy)."""
        if self.base == self.public_base:
            return False
        parts = urlsplit(self.base)
        return host == parts.hostname and port == (parts.port or (443 if parts.scheme == "https" else 80))


def plain_text(value: Any, limit: int = 10_000) -> str:
    """A description as text: <br> as a line break, other markup dropped, entities decoded."""
    if not isinstance(value, str):
        return ""
    text = re.sub(r"(?i)<br\s*/?>", "\n", value)
    text = html.unescape(re.sub(r"<[^>]{0,500}>", "", text))
    text = re.sub(r"\n{3,}", "\n\n", text.replace("\r", ""))
    return text.strip()[:limit]


def strings(values: Any, limit: int = 100) -> list[str]:
    """Non-empty strings of a list, each once, in order."""
    out: list[str] = []
    for value in values if isinstance(values, list) else []:
        if isinstance(value, str) and value.strip() and value.strip() not in out:
            out.append(value.strip()[:200])
    return out[:limit]


def web_link(url: Any) -> str | None:
    return url if isinstance(url, str) and url.startswith(("https://", "http://")) and len(url) < 2000 else None
