"""The `wanttoread` section of db.json: wanttoread[user][manga] = when it was added (ms), a private
list each user has (docs/using.md, "Want to read"). Callers check the manga exists and is visible."""
from __future__ import annotations

from typing import Any

from mangacircus import db
from mangacircus import moves as moved
from mangacircus.clock import now_ms
from mangacircus.moves import Move


def validate(data: dict[str, Any]) -> None:
    for user, mine in data.get("wanttoread", {}).items():
        if not isinstance(mine, dict):
            raise ValueError(f'the want-to-read list of "{user}" must be an object')


def forget_user(name: str) -> None:
    db.section("wanttoread").pop(name, None)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock())."""
    moved.per_user(db.section("wanttoread"), moves, nested=False)


def want(user: str, manga: str, on: bool) -> bool:
    with db.lock():
        everyone = db.section("wanttoread")
        mine = everyone.setdefault(user, {})
        if on:
            mine.setdefault(manga, now_ms())
        else:
            mine.pop(manga, None)
            if not mine:
                everyone.pop(user, None)
        db.touch(user)
    return on


def import_many(entries: list[tuple[str, str]]) -> int:
    """Want-to-read entries brought from another server (imports/): [(user, manga)]; -> how many
    were added (one already on the list keeps its time)."""
    count = 0
    with db.lock():
        section = db.section("wanttoread")
        now = now_ms()
        for user, manga in entries:
            mine = section.setdefault(user, {})
            if manga not in mine:
                mine[manga] = now
                count += 1
                db.touch(user)
    return count


def wants(user: str, manga: str) -> bool:
    with db.lock():
        return manga in db.section("wanttoread").get(user, {})


def listed(user: str) -> list[str]:
    """The user's list, the manga added last first."""
    with db.lock():
        mine = dict(db.section("wanttoread").get(user, {}))
    return [name for name, _ in sorted(mine.items(), key=lambda kv: (-kv[1], kv[0]))]
