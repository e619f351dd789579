"""The `dismissed` section of db.json: dismissed[user][manga] = ms, what the user took out of their
discovery feed (newest MAX kept). Undoing a dismissal removes the entry."""
from __future__ import annotations

from mangacircus import db
from mangacircus import moves as moved
from mangacircus.clock import now_ms
from mangacircus.moves import Move

MAX = 1000


def forget_user(name: str) -> None:
    db.section("dismissed").pop(name, None)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock())."""
    moved.per_user(db.section("dismissed"), moves, nested=False)


def dismissed(user: str) -> dict[str, int]:
    with db.lock():
        return dict(db.section("dismissed").get(user, {}))


def dismiss(user: str, manga: str, on: bool = True) -> bool:
    """Dismiss (on) or bring back (not on) a manga; returns whether it is dismissed now."""
    with db.lock():
        everyone = db.section("dismissed")
        mine = everyone.setdefault(user, {})
        if on:
            mine[manga] = now_ms()
            for old in sorted(mine, key=mine.get)[:-MAX]:
                del mine[old]
        else:
            mine.pop(manga, None)
            if not mine:
                everyone.pop(user, None)
        db.touch()
    return on
