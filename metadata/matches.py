"""DATA/metadata.json: each manga's match with a provider, in the reader (docs/metadata.md).

    {"schema": 1, "manga": {name: {"state", "provider", "id", "how", "score", "looked",
                                   "candidates": [{score, record}], "warnings": [...], "offered": [...]}}}

state: "matched" (how: "id", "auto" or "admin"), "review" (candidates wait for an admin),
"unmatched" (no provider knows it), "failed" (every provider asked failed: looked at again within
the hour), "ignored" (an admin said no provider is right: never searched again until asked).

The reader is the only writer. `runmetadata` asks `due()` for work and hands each result to
`record()`, both through the local-admin channel (metadata-next, metadata-result); admins accept
candidates through `accept()`. What a match fills is metadata/apply.py's.
"""
from __future__ import annotations

import threading
import time
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from catalog import overrides, provided
from library import index as library_index
from mangacircus.clock import now_ms
from mangacircus.errors import Invalid, NotFound
from mangacircus.moves import Move
from mangacircus.store import Document, Store

from . import apply

SCHEMA = 1
FILE = "metadata.json"
STATES = ("matched", "review", "unmatched", "failed", "ignored")
FAILED_RETRY_MS = 3600_000
HANDED_OUT_SECONDS = 600  # an item handed to the worker is not handed out again this long
MAX_WARNINGS = 20

_handed: dict[str, float] = {}  # name -> monotonic time it was handed to the worker
_handed_lock = threading.Lock()


def empty() -> Document:
    return {"schema": SCHEMA, "manga": {}}


def validate(data: Document) -> None:
    schema = data.get("schema", SCHEMA)
    if not isinstance(schema, int) or schema > SCHEMA:
        raise ValueError(f"it has schema {schema!r}, not the {SCHEMA} this version reads")
    if not isinstance(data.get("manga", {}), dict):
        raise ValueError('"manga" must be an object')


STATE = Store(FILE, empty=empty, validate=validate)


def state(name: str) -> dict[str, Any]:
    with STATE.read() as data:
        found = data["manga"].get(name)
        return dict(found) if isinstance(found, dict) else {}


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    return [v for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else []


def work_item(manga: Any, current: dict[str, Any]) -> dict[str, Any]:
    """What the worker needs to look a manga up: its titles, year, authors, kind, ids and links."""
    meta = manga.meta if isinstance(manga.meta, dict) else {}
    override = overrides.get(manga.name)
    titles = list(dict.fromkeys([override.get("title") or manga.title, manga.title,
                                 *override.get("altTitles", []), *_strings(meta.get("altTitles"))]))
    links: dict[str, Any] = meta["links"] if isinstance(meta.get("links"), dict) else {}
    ids: dict[str, Any] = meta["ids"] if isinstance(meta.get("ids"), dict) else {}
    year = meta.get("year")
    kind = "novel" if str(meta.get("format", "")).strip().lower() in ("novel", "light novel") else "comic"
    item: dict[str, Any] = {"name": manga.name, "titles": titles, "year": year if isinstance(year, int) else None,
            "authors": _strings(meta.get("authors")) + _strings(meta.get("artists")), "kind": kind,
            "ids": {str(k): str(v) for k, v in ids.items() if isinstance(v, (str, int)) and not isinstance(v, bool)},
            "links": [v for v in links.values() if isinstance(v, str)], "match": None}
    if current.get("state") == "matched":
        item["match"] = {"provider": current.get("provider"), "id": current.get("id"), "how": current.get("how"),
                         "score": current.get("score")}
    return item


def _is_due(current: dict[str, Any], now: int) -> bool:
    kind = current.get("state")
    if kind is None:
        return True
    if kind == "ignored":
        return False
    looked = current.get("looked") or 0
    if kind == "failed" or current.get("stale"):
        return now - looked >= (0 if current.get("stale") else FAILED_RETRY_MS)
    return now - looked >= settings.METADATA_REFRESH_DAYS * 86_400_000


def due(limit: int = 20) -> list[dict[str, Any]]:
    """Manga to look up now: never looked at, due for a refresh, or failed an hour ago; never one
    handed out in the last HANDED_OUT_SECONDS (the worker may still be on it)."""
    index = library_index.current()
    now, clock = now_ms(), time.monotonic()
    with STATE.read() as data:
        known = {name: dict(v) for name, v in data["manga"].items() if isinstance(v, dict)}
    items: list[dict[str, Any]] = []
    with _handed_lock:
        for name in sorted(index.manga):
            if len(items) >= limit:
                break
            if clock - _handed.get(name, -HANDED_OUT_SECONDS) < HANDED_OUT_SECONDS:
                continue
            current = known.get(name, {})
            if _is_due(current, now):
                _handed[name] = clock
                items.append(work_item(index.manga[name], current))
    return items


def forget_handed_out() -> None:
    """At the reader's start: nothing is with the worker yet."""
    with _handed_lock:
        _handed.clear()


def local_name_of(provider: str, entry_id: str) -> str | None:
    """The manga of the library matched to this provider entry, if any."""
    with STATE.read() as data:
        for name, value in data["manga"].items():
            if value.get("state") == "matched" and value.get("provider") == provider and value.get("id") == entry_id:
                return name
    return None


def _warnings(values: Any) -> list[str]:
    return [str(w)[:500] for w in values if isinstance(w, str)][:MAX_WARNINGS] if isinstance(values, list) else []


def record(result: dict[str, Any]) -> dict[str, Any]:
    """A worker's result for one manga (localadmin `metadata-result`): stored, and a match filled."""
    name = result.get("name") if isinstance(result, dict) else None
    outcome = result.get("outcome") if isinstance(result, dict) else None
    if not isinstance(name, str) or outcome not in STATES:
        raise Invalid("a metadata result needs a name and an outcome (matched, review, unmatched, failed)")
    with _handed_lock:
        _handed.pop(name, None)
    if library_index.current().get(name) is None:
        return {"kept": False, "reason": f"{name} is no longer in the library"}
    current = state(name)
    if current.get("state") == "ignored":
        return {"kept": False, "reason": f"an admin set {name} aside"}
    found = result.get("record")
    record_: dict[str, Any] | None = found if isinstance(found, dict) else None
    chosen = (current.get("provider"), current.get("id"))
    same = record_ is not None and (record_.get("provider"), str(record_.get("id"))) == chosen
    if current.get("how") == "admin" and current.get("state") == "matched" and not same:
        return {"kept": False, "reason": f"an admin matched {name} meanwhile"}
    entry = {"state": outcome, "looked": now_ms(), "warnings": _warnings(result.get("warnings")),
             "offered": current.get("offered", []), "candidates": []}
    if outcome == "matched":
        if not record_ or not isinstance(record_.get("provider"), str) or not record_.get("id"):
            raise Invalid("a matched result needs its record")
        score = result.get("score")
        entry.update(provider=record_["provider"], id=str(record_["id"]), how=result.get("how") or "auto",
                     score=score if isinstance(score, (int, float)) else None)
        entry["offered"], more = apply.fill(name, record_, apply.BY, entry["offered"], local_name_of)
        entry["warnings"] += more
    elif outcome == "review":
        entry["candidates"] = [c for c in result.get("candidates") or []
                               if isinstance(c, dict) and isinstance(c.get("record"), dict)][:10]
    elif outcome == "failed" and current.get("state") == "matched":
        # A refresh that failed keeps the match and what it filled; the warning says what happened.
        entry.update({k: current[k] for k in ("provider", "id", "how", "score") if k in current}, state="matched")
    with STATE.edit() as data:
        data["manga"][name] = entry
    return {"kept": True, "state": entry["state"]}


def accept(by: str, name: str, provider: str, entry_id: str) -> dict[str, Any]:
    """An admin takes one of a manga's candidates: it fills the manga now, and when the candidate
    came from a search without every field, the worker fetches the whole entry at its next pass."""
    if library_index.current().get(name) is None:
        raise NotFound(_("there is no manga %(name)s") % {"name": name})
    current = state(name)
    found = next((c for c in current.get("candidates") or []
                  if c["record"].get("provider") == provider and str(c["record"].get("id")) == str(entry_id)), None)
    if found is None:
        raise NotFound(_("%(name)s has no candidate %(provider)s:%(id)s; search again for fresh candidates")
                       % {"name": name, "provider": provider, "id": entry_id})
    entry = {"state": "matched", "provider": provider, "id": str(entry_id), "how": "admin", "by": by,
             "score": found.get("score"), "looked": now_ms(), "stale": not found["record"].get("complete", True),
             "candidates": [], "warnings": []}
    entry["offered"], entry["warnings"] = apply.fill(name, found["record"], by, current.get("offered", []),
                                                     local_name_of)
    with STATE.edit() as data:
        data["manga"][name] = entry
    return {"name": name, "provider": provider, "id": str(entry_id)}


def accept_above(by: str, score: float) -> list[str]:
    """Accept the best candidate of every manga waiting for review whose best scores `score` or more."""
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 1:
        raise Invalid(_("score must be a number from 0 to 1"))
    with STATE.read() as data:
        waiting = [(name, v["candidates"][0]) for name, v in data["manga"].items()
                   if v.get("state") == "review" and v.get("candidates")]
    taken = []
    for name, best in sorted(waiting):
        if (best.get("score") or 0) >= score and library_index.current().get(name) is not None:
            accept(by, name, best["record"]["provider"], best["record"]["id"])
            taken.append(name)
    return taken


def set_aside(by: str, name: str) -> None:
    """No provider's entry is this manga: forget its candidates and what a match filled."""
    _known(name)
    provided.drop(name)
    with STATE.edit() as data:
        data["manga"][name] = {"state": "ignored", "by": by, "looked": now_ms(), "candidates": [], "warnings": [],
                               "offered": data["manga"].get(name, {}).get("offered", [])}


def search_again(name: str) -> None:
    """Forget the manga's match state (its provider layer stays until a new match replaces it)."""
    _known(name)
    with STATE.edit() as data:
        data["manga"].pop(name, None)
    with _handed_lock:
        _handed.pop(name, None)


def _known(name: str) -> None:
    if library_index.current().get(name) is None:
        raise NotFound(_("there is no manga %(name)s") % {"name": name})


def overview() -> dict[str, Any]:
    """Every manga's state for the admin: counts, and those that wait (review, unmatched, failed)."""
    index = library_index.current()
    with STATE.read() as data:
        known = {name: v for name, v in data["manga"].items() if isinstance(v, dict)}
        counts = {s: 0 for s in ("new", *STATES)}
        waiting = []
        for name in sorted(index.manga, key=str.casefold):
            entry = known.get(name)
            counts[entry.get("state", "new") if entry else "new"] += 1
            if entry and (entry.get("state") in ("review", "unmatched", "failed") or entry.get("warnings")):
                waiting.append({"name": name, "title": overrides.title(index.manga[name]), "state": entry["state"],
                                "how": entry.get("how"), "looked": entry.get("looked"),
                                "warnings": list(entry.get("warnings") or []),
                                "candidates": [{"score": c.get("score"), **c["record"]}
                                               for c in entry.get("candidates") or []]})
    return {"counts": counts, "waiting": waiting, "providers": list(settings.METADATA_PROVIDERS),
            "threshold": settings.METADATA_THRESHOLD}


def next_handler(payload: dict[str, Any]) -> dict[str, Any]:
    limit = payload.get("limit", 20)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= 200:
        raise Invalid("limit must be a whole number from 1 to 200")
    return {"items": due(limit)}


def on_moved(moves: list[Move]) -> None:
    renamed = {m.old: m.new for m in moves if m.old != m.new}
    if not renamed or not STATE.is_open():
        return
    with STATE.edit() as data:
        for old, new in renamed.items():
            if old in data["manga"]:
                data["manga"].setdefault(new, data["manga"].pop(old))
