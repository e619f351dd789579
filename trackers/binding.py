"""Which entry of a tracker a manga is, for one user, first found wins:

1. the user's own choice (Settings → Apps, or POST /api/trackers/binding);
2. the metadata match (docs/metadata.md): the id of the matched entry, when the match is with
   the tracker's own site (AniList, MangaUpdates);
3. a link to the tracker's page: in the match's links (AniList names the MyAnimeList entry,
   MangaDex all three), then in manga.json `links` and `ids` ({"myanimelist": 2}).
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from catalog import provided
from library import index as library_index
from mangacircus.errors import Invalid
from metadata import matches

from . import store
from .base import Tracker


def _links(manga: Any) -> list[str]:
    meta: dict[str, Any] = manga.meta if isinstance(manga.meta, dict) else {}
    layer: dict[str, Any] = (provided.get(manga.name).get("fields") or {}).get("links") or {}
    folder: dict[str, Any] = meta["links"] if isinstance(meta.get("links"), dict) else {}
    return [v for v in (*layer.values(), *folder.values()) if isinstance(v, str)]


def entry_id(user: str, tracker: Tracker, name: str) -> tuple[str | None, str]:
    """-> (the entry id or None, where it came from: "you", "match", "link", "")."""
    chosen = store.binding(user, tracker.key, name)
    if chosen:
        return chosen, "you"
    if tracker.metadata_key and matches.STATE.is_open():
        match = matches.state(name)
        if match.get("state") == "matched" and match.get("provider") == tracker.metadata_key and match.get("id"):
            return str(match["id"]), "match"
    manga = library_index.current().get(name)
    if manga is None:
        return None, ""
    for url in _links(manga):
        found = tracker.id_in(url)
        if found:
            return found, "link"
    meta: dict[str, Any] = manga.meta if isinstance(manga.meta, dict) else {}
    ids: dict[str, Any] = meta["ids"] if isinstance(meta.get("ids"), dict) else {}
    value = ids.get(tracker.key)
    if isinstance(value, (int, str)) and not isinstance(value, bool) and str(value).isdigit():
        return str(value), "link"
    return None, ""


def parse(tracker: Tracker, text: str) -> str:
    """What a user typed as the entry: its id, or a link to its page."""
    text = text.strip()
    if text.isdigit():
        return text
    found = tracker.id_in(text)
    if not found:
        raise Invalid(_("give the %(tracker)s id of the manga, or the address of its page there")
                      % {"tracker": tracker.name})
    return found
