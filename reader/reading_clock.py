"""The opt-in Active Reading Clock on the server (docs/reader.md, "Reading clock"; docs/api.md).

db.json keeps, per user, manga and chapter id, a compact derived record:
  {schema, totalActiveMs, loadingMs, sessions, completedPasses, inputMs {mouse, touch, keyboard},
   currentPass {version, seenRanges [[a, b] ...], activeMs[, complete]}, days {"YYYY-MM-DD": active ms}}
stored apart from ordinary progress.

A pulse from the reader is believed only as far as the server saw time pass: its time is clamped
to the interval since the previous pulse of the same reader session (plus a small slack), and never
more than MAX_PULSE_MS. Pulses are de-duplicated by (session, seq). One device at a time holds a
15-second per-user lease; a pulse from another device while it is held is refused (409). Tabs of
one browser share a device id and take the lease over from each other.

Leases and the per-session sequence state live in memory only (one server process): a restart
costs at most one pulse of time. Everything is guarded by db.lock().
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus import moves as moved
from mangacircus.clock import now_ms
from mangacircus.errors import Conflict, Invalid
from mangacircus.http import field, text_field
from mangacircus.moves import Move

if TYPE_CHECKING:
    from library.model import Version

SCHEMA = 1
LEASE_MS = 15_000
MAX_PULSE_MS = 15_000
SLACK_MS = 1_000  # network and timer jitter between the reader's interval and the server's
SESSION_IDLE_MS = 3_600_000
INPUTS = ("mouse", "touch", "keyboard")
NOT_REQUIRED = ("cover", "extra")  # pages a pass may skip (the reader can hide them)
MAX_RANGES = 1000
DAYS_KEPT = 400

_leases: dict[str, dict[str, Any]] = {}  # user → {"device", "session", "until"}
# (user, session) → {"seq", "at", "chapters": set of (manga, cid)}
_sessions: dict[tuple[str, str], dict[str, Any]] = {}
clock: Callable[[], float] = time.monotonic  # seconds; a test replaces it to move time without sleeping


class Pulse(TypedDict):
    """A pulse from the reader, checked (check_pulse): what pulse() merges."""
    session: str            # the reader session that sent it
    device: str             # the browser; the session when the reader sent none
    seq: int                # increases with each pulse of the session: a repeat is a duplicate
    activeMs: int           # active reading time claimed since the previous pulse
    loadingMs: int          # time spent waiting for pages
    input: dict[str, int]   # ms per input kind (INPUTS); scaled down to the accepted active time
    pages: list[list[int]]  # [first, last] ranges of the pages seen, merged
    release: bool           # the reader is leaving: give the lease up


def _now() -> int:
    return int(clock() * 1000)


# ---- checking a pulse ---------------------------------------------------------------------------

def _token(data: dict[str, Any], name: str) -> str:
    value = text_field(data, name, max_length=64)
    if len(value) < 8 or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value):
        raise Invalid(_("%(name)s must be 8-64 letters, digits, '-' or '_'") % {"name": name})
    return value


def _ms(data: dict[str, Any], name: str) -> int:
    value = field(data, name, int, required=False, default=0)
    if not 0 <= value <= 86_400_000:
        raise Invalid(_("%(name)s must be a number of milliseconds from 0 to 86400000") % {"name": name})
    return value


def check_pulse(data: dict[str, Any], page_count: int) -> Pulse:
    """The validated fields of a pulse body (m, c, v are checked against the index by the caller)."""
    seq = field(data, "seq", int)
    if not 0 <= seq < 2**53:
        raise Invalid(_("seq must be a whole number from 0"))
    inputs = field(data, "input", dict, required=False, default={})
    for kind in inputs:
        if kind not in INPUTS:
            raise Invalid(_("input.%(kind)s is not an input kind (%(kinds)s)")
                          % {"kind": kind, "kinds": ', '.join(INPUTS)})
    pages = field(data, "pages", list, required=False, default=[])
    if len(pages) > MAX_RANGES:
        raise Invalid(_("pages has more than %(max_ranges)s ranges") % {"max_ranges": MAX_RANGES})
    last = page_count - 1
    for pair in pages:
        if (not isinstance(pair, list) or len(pair) != 2
                or any(isinstance(i, bool) or not isinstance(i, int) for i in pair)
                or not 0 <= pair[0] <= pair[1] <= last):
            raise Invalid(_("pages must be a list of [first, last] page indices from 0 to %(last)s") % {"last": last})
    session = _token(data, "session")
    return {
        "session": session,
        "device": _token(data, "device") if "device" in data else session,
        "seq": seq,
        "activeMs": _ms(data, "activeMs"),
        "loadingMs": _ms(data, "loadingMs"),
        "input": {kind: _ms(inputs, kind) for kind in INPUTS},
        "pages": merge_ranges([], pages),
        "release": field(data, "release", bool, required=False, default=False),
    }


# ---- page ranges ------------------------------------------------------------------------------------

def merge_ranges(ranges: Iterable[Sequence[int]], more: Iterable[Sequence[int]]) -> list[list[int]]:
    """The union of two lists of [a, b] ranges, sorted, with touching ranges joined."""
    merged: list[list[int]] = []
    for a, b in sorted([list(r) for r in ranges] + [list(r) for r in more]):
        if merged and a <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return merged


def _covers(ranges: Iterable[Sequence[int]], pages: Iterable[int]) -> bool:
    return all(any(a <= i <= b for a, b in ranges) for i in pages)


def required_pages(version: Version) -> list[int]:
    """The pages a complete pass has verified: all but covers and extras (all when that is none)."""
    pages = version.pages()
    wanted = [i for i, p in enumerate(pages) if not any(t in NOT_REQUIRED for t in p.tags)]
    return wanted or list(range(len(pages)))


# ---- the pulse ------------------------------------------------------------------------------------------

def pulse(user: str, manga: str, cid: str, version: Version, p: Pulse, now: int | None = None) -> dict[str, Any]:
    """Merge one checked pulse (check_pulse) for `version` (an index Version); returns the answer
    for the reader: what was accepted, the lease and the chapter's summary."""
    now = _now() if now is None else now
    with db.lock():
        _prune(now)
        lease = _leases.get(user)
        if lease and lease["until"] > now and lease["device"] != p["device"]:
            wait = -(-(lease["until"] - now) // 1000)
            raise Conflict(_("the reading clock is running on another device"), retry_after=wait)
        key = (user, p["session"])
        session = _sessions.get(key)
        if session and p["seq"] <= session["seq"]:
            return {"duplicate": True, "accepted": {"activeMs": 0, "loadingMs": 0},
                    "lease": _lease_answer(user, p), "clock": _summary(_entry(user, manga, cid))}
        # The server's view of the interval since this session's previous pulse.
        allowed = min(MAX_PULSE_MS, now - session["at"] + SLACK_MS) if session else SLACK_MS
        active = min(p["activeMs"], allowed)
        loading = min(p["loadingMs"], allowed - active)
        if session is None:
            session = _sessions[key] = {"seq": p["seq"], "at": now, "chapters": set()}
        session["seq"], session["at"] = p["seq"], now
        if active or loading or p["pages"]:
            _record(user, manga, cid, version, p, active, loading, session)
        if p["release"]:
            if lease and lease["session"] == p["session"]:
                del _leases[user]
        else:
            _leases[user] = {"device": p["device"], "session": p["session"], "until": now + LEASE_MS}
        return {"duplicate": False, "accepted": {"activeMs": active, "loadingMs": loading},
                "lease": _lease_answer(user, p), "clock": _summary(_entry(user, manga, cid))}


def _lease_answer(user: str, p: Pulse) -> dict[str, Any]:
    lease = _leases.get(user)
    held = bool(lease and lease["session"] == p["session"])
    return {"held": held, "ms": LEASE_MS if held else 0}


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): the reading history follows a renamed manga or chapter."""
    moved.per_user(db.section("reading"), moves)


def _entry(user: str, manga: str, cid: str) -> dict[str, Any] | None:
    return db.section("reading").get(user, {}).get(manga, {}).get(cid)


def _record(user: str, manga: str, cid: str, version: Version, p: Pulse, active: int, loading: int,
            session: dict[str, Any]) -> None:
    chapters = db.section("reading").setdefault(user, {}).setdefault(manga, {})
    entry = chapters.setdefault(cid, {
        "schema": SCHEMA, "totalActiveMs": 0, "loadingMs": 0, "sessions": 0, "completedPasses": 0,
        "inputMs": {kind: 0 for kind in INPUTS}, "currentPass": None,
    })
    new_session = (manga, cid) not in session["chapters"]
    if new_session:
        session["chapters"].add((manga, cid))
        entry["sessions"] += 1
    current = entry.get("currentPass")
    if not current or current.get("version") != version.name or (new_session and current.get("complete")):
        current = entry["currentPass"] = {"version": version.name, "seenRanges": [], "activeMs": 0}
    entry["totalActiveMs"] += active
    entry["loadingMs"] += loading
    if active:
        _add_day(entry, active)
    current["activeMs"] += active
    # Input time is a share of the accepted active time, never more.
    claimed = sum(p["input"].values())
    scale = min(1.0, active / claimed) if claimed else 0
    for kind in INPUTS:
        entry["inputMs"][kind] = entry["inputMs"].get(kind, 0) + int(p["input"][kind] * scale)
    if p["pages"]:
        current["seenRanges"] = merge_ranges(current["seenRanges"], p["pages"])
        if not current.get("complete") and _covers(current["seenRanges"], required_pages(version)):
            current["complete"] = True
            entry["completedPasses"] += 1
    db.touch()


def day_key(ms: int) -> str:
    """The server's local calendar day of a wall-clock time: what the Reading Story counts by."""
    return time.strftime("%Y-%m-%d", time.localtime(ms / 1000))


def _add_day(entry: dict[str, Any], active: int) -> None:
    """Active time per day (the Reading Story's week, month and streaks); the newest DAYS_KEPT days."""
    days = entry.setdefault("days", {})
    key = day_key(now_ms())
    days[key] = days.get(key, 0) + active
    if len(days) > DAYS_KEPT:
        for old in sorted(days)[:-DAYS_KEPT]:
            del days[old]


def _prune(now: int) -> None:
    if len(_sessions) < 256:
        return
    for key in [k for k, s in _sessions.items() if now - s["at"] > SESSION_IDLE_MS]:
        del _sessions[key]


def reset_memory() -> None:
    """Forget leases and session state (what a restart does)."""
    with db.lock():
        _leases.clear()
        _sessions.clear()


# ---- summaries, export, delete ------------------------------------------------------------------

def predominant(input_ms: dict[str, int] | None) -> str | None:
    best = max(INPUTS, key=lambda kind: (input_ms or {}).get(kind, 0))
    return best if (input_ms or {}).get(best, 0) > 0 else None


def _summary(entry: dict[str, Any] | None, seen: bool = True) -> dict[str, Any]:
    """The derived summary of one chapter; `seen` adds the current pass's verified ranges (the
    reader needs them to count pages; the export leaves them out)."""
    entry = entry or {}
    current = entry.get("currentPass")
    pass_: dict[str, Any] | None = None
    if current:
        ranges = current.get("seenRanges", [])
        pass_ = {"version": current.get("version"), "activeMs": current.get("activeMs", 0),
                 "verifiedPages": sum(b - a + 1 for a, b in ranges), "complete": bool(current.get("complete"))}
        if seen:
            pass_["seen"] = [list(r) for r in ranges]
    return {
        "totalActiveMs": entry.get("totalActiveMs", 0), "loadingMs": entry.get("loadingMs", 0),
        "sessions": entry.get("sessions", 0), "completedPasses": entry.get("completedPasses", 0),
        "predominantInput": predominant(entry.get("inputMs")), "pass": pass_,
    }


def chapter_summary(user: str, manga: str, cid: str) -> dict[str, Any]:
    """The reader's summary of one chapter (zeros when nothing is recorded)."""
    with db.lock():
        return _summary(_entry(user, manga, cid))


def manga_totals(user: str) -> list[tuple[str, int, int]]:
    """[(manga, total active ms, chapters)] of the user's history, by manga name."""
    with db.lock():
        history = db.section("reading").get(user, {})
        return sorted((m, sum(e.get("totalActiveMs", 0) for e in chapters.values()), len(chapters))
                      for m, chapters in history.items())


def history(user: str) -> dict[str, dict[str, dict[str, Any]]]:
    """{manga: {chapter id: {"totalActiveMs", "days": {day: ms}}}} of the user (copies), for the Reading Story."""
    with db.lock():
        return {m: {cid: {"totalActiveMs": e.get("totalActiveMs", 0), "days": dict(e.get("days") or {})}
                    for cid, e in chapters.items()}
                for m, chapters in db.section("reading").get(user, {}).items()}


def chapter_times(user: str, manga: str) -> dict[str, int]:
    """{chapter id: total active ms} of one manga."""
    with db.lock():
        return {cid: e.get("totalActiveMs", 0) for cid, e in db.section("reading").get(user, {}).get(manga, {}).items()}


def export(user: str) -> dict[str, Any]:
    """The user's derived reading-time summary: no input breakdown, no page ranges."""
    with db.lock():
        history = db.section("reading").get(user, {})
        manga = {m: {cid: _summary(e, seen=False) for cid, e in sorted(chapters.items())}
                 for m, chapters in sorted(history.items())}
    return {"schema": SCHEMA, "user": user, "exportedAt": now_ms(), "manga": manga}


def has_history(user: str, manga: str) -> bool:
    with db.lock():
        return manga in db.section("reading").get(user, {})


def delete_manga(user: str, manga: str) -> int:
    """Forget one manga's reading history (progress stays). Returns the number of chapters dropped."""
    with db.lock():
        history = db.section("reading").get(user, {})
        dropped = history.pop(manga, None)
        if not history:
            db.section("reading").pop(user, None)
        _forget_sessions(user, lambda key: key[0] == manga)
        if dropped is None:
            return 0
        db.touch()
    db.flush_now()
    return len(dropped)


def delete_all(user: str) -> int:
    """Forget every manga's reading history of the user (progress stays). Returns chapters dropped."""
    with db.lock():
        history = db.section("reading").pop(user, None) or {}
        _forget_sessions(user, lambda key: True)
        if history:
            db.touch()
    db.flush_now()
    return sum(len(chapters) for chapters in history.values())


def _forget_sessions(user: str, drop: Callable[[tuple[str, str]], bool]) -> None:
    """Deleted chapters count their sessions afresh if the same reader session goes on."""
    for (owner, _session_id), session in _sessions.items():
        if owner == user:
            session["chapters"] = {key for key in session["chapters"] if not drop(key)}
