"""DATA/provided.json: what metadata providers filled in for each manga (docs/metadata.md).

A layer between the library's own files and the curator's overrides: manga.json and ComicInfo.xml
come first, the provider fills what they leave empty (and adds to the lists), and a curator's
override (catalog/overrides.py) wins over both. So a hand edit is never touched by a refresh,
which only ever replaces this layer.

    {"schema": 1, "manga": {name: {"provider", "id", "url", "t", "by", "fields": {...}, "cover": file}}}

`fields` holds description, status, year, authors, artists, genres, tags, altTitles and links
({site: url}); `cover` names an image in DATA/metadata/covers/ (written by `runmetadata`, never
in LIBRARY). The reader is the only writer of this file: the worker hands its results to the
reader (metadata/matches.py), which calls `put()`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from mangacircus import events
from mangacircus.moves import Move
from mangacircus.store import Document, Store

SCHEMA = 1
FILE = "provided.json"
COVERS = ("metadata", "covers")  # DATA/metadata/covers/: provider covers, named by their content
COVER_NAME = re.compile(r"[0-9a-f]{32}\.(?:jpg|png|webp|gif|avif)")
SINGLE = ("description", "status", "year", "authors", "artists")  # filled only when the folder has none
ADDED = ("altTitles", "genres", "tags")  # added to the folder's
LABELS = {"description": gettext_lazy("Summary"), "authors": gettext_lazy("Authors"),
          "artists": gettext_lazy("Artists"), "genres": gettext_lazy("Genres"), "tags": gettext_lazy("Tags"),
          "status": gettext_lazy("Status"), "year": gettext_lazy("Year"),
          "altTitles": gettext_lazy("Alternative titles"), "links": gettext_lazy("Links"),
          "cover": gettext_lazy("Cover")}

_providers: dict[str, dict[str, str]] = {}  # key -> {name, attribution, home}


def empty() -> Document:
    return {"schema": SCHEMA, "manga": {}}


def validate(data: Document) -> None:
    schema = data.get("schema", SCHEMA)
    if not isinstance(schema, int) or schema > SCHEMA:
        raise ValueError(f"it has schema {schema!r}, not the {SCHEMA} this version reads")
    if not isinstance(data.get("manga", {}), dict):
        raise ValueError('"manga" must be an object')


STATE = Store(FILE, empty=empty, validate=validate)


def register_provider(key: str, name: str, attribution: str, home: str) -> None:
    """A provider's name and the attribution shown wherever its data appears (metadata/apps.py)."""
    _providers[key] = {"key": key, "name": name, "attribution": attribution, "home": home}


def provider(key: str) -> dict[str, str]:
    return _providers.get(key) or {"key": key, "name": key, "attribution": "", "home": ""}


def put(name: str, layer: dict[str, Any]) -> None:
    """Replace the provider layer of `name` (the curator's overrides are left as they are)."""
    with STATE.edit() as data:
        data["manga"][name] = layer
    events.catalog_changed.send({name})


def drop(name: str) -> None:
    with STATE.edit() as data:
        found = data["manga"].pop(name, None)
    if found is not None:
        events.catalog_changed.send({name})


def get(name: str) -> dict[str, Any]:
    """The layer of `name`, {} when none (do not change it)."""
    if not STATE.is_open():
        return {}
    with STATE.read() as data:
        found = data["manga"].get(name)
        return found if isinstance(found, dict) else {}


def _folded(values: list[str]) -> set[str]:
    return {v.casefold() for v in values}


def merge(meta: dict[str, Any], layer: dict[str, Any]) -> dict[str, Any]:
    """Cleaned folder metadata (shelf.manga_detail.clean_meta) with the provider layer under it."""
    fields = layer.get("fields") if layer else None
    if not isinstance(fields, dict):
        return meta
    merged = dict(meta)
    for key in SINGLE:
        if not merged.get(key) and fields.get(key):
            merged[key] = fields[key]
    for key in ADDED:
        have = list(merged.get(key) or [])
        seen = _folded(have)
        merged[key] = have + [v for v in fields.get(key) or [] if v.casefold() not in seen]
    links = list(merged.get("links") or [])
    urls = {link["url"] for link in links}
    for site, url in (fields.get("links") or {}).items():
        if url not in urls:
            links.append({"name": site, "url": url})
    merged["links"] = links
    return merged


def _joined(parts: list[str]) -> str:
    """One, two or three sources in a sentence: "the folder and AniList"."""
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return _("%(a)s and %(b)s") % {"a": parts[0], "b": parts[1]}
    return _("%(a)s and %(b)s and %(c)s") % {"a": parts[0], "b": parts[1], "c": parts[2]}


def provenance(meta: dict[str, Any], layer: dict[str, Any], override: dict[str, Any]) -> list[dict[str, str]]:
    """For admins: where each shown field comes from, [{field, from}]: "the folder", a provider's
    name, "the catalog" (a curator's edit), or several of them for a list filled from each."""
    fields = layer.get("fields") if layer else None
    fields = fields if isinstance(fields, dict) else {}
    source = provider(layer["provider"])["name"] if layer else ""
    rows = []
    for key, label in LABELS.items():
        folder = key != "cover" and bool(meta.get(key))
        theirs = bool(layer.get("cover") if key == "cover" else fields.get(key)) and not (key in SINGLE and folder)
        sources = ((_("the folder"), folder), (source, theirs), (_("the catalog"), key in override))
        parts = [name for name, used in sources if used]
        if key in ("description", "cover") and key in override:
            parts = [_("the catalog")]  # a curator's summary or cover replaces the others
        if parts:
            rows.append({"field": str(label), "from": _joined(parts)})
    return rows


def cover_file(name: str) -> Path | None:
    """The provider's cover of `name` in DATA, or None (library/thumbs.py then uses the folder's)."""
    cover = get(name).get("cover")
    if not isinstance(cover, str) or not COVER_NAME.fullmatch(cover):
        return None
    path = Path(settings.DATA).joinpath(*COVERS, cover)
    return path if path.is_file() else None


def search_words(name: str) -> list[str]:
    """Extra words for the library filter: the provider's alternative titles, genres and tags."""
    fields = get(name).get("fields") or {}
    return [w for key in ADDED for w in fields.get(key) or [] if isinstance(w, str)]


def on_moved(moves: list[Move]) -> None:
    """events.library_moved: a renamed manga keeps its provider layer under its new name."""
    renamed = {m.old: m.new for m in moves if m.old != m.new}
    if not renamed or not STATE.is_open():
        return
    with STATE.edit() as data:
        for old, new in renamed.items():
            if old in data["manga"]:
                data["manga"].setdefault(new, data["manga"].pop(old))
