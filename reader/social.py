"""The `follows` section of db.json: follows[user][manga] = true.

Callers check that a manga exists in the index before following it, so db.json holds real names.
Notifications are reader/notes.py's.
"""
from __future__ import annotations

from mangacircus import db
from mangacircus import moves as moved
from mangacircus.moves import Move


def forget_user(name: str) -> None:
    db.section("follows").pop(name, None)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): a follow follows the renamed manga."""
    moved.per_user(db.section("follows"), moves, nested=False)


def follow(user: str, manga: str, on: bool) -> bool:
    """Start (on=True) or stop following a manga; returns the new state."""
    with db.lock():
        everyone = db.section("follows")
        mine = everyone.setdefault(user, {})
        if on:
            mine[manga] = True
        else:
            mine.pop(manga, None)
            if not mine:
                everyone.pop(user, None)
        db.touch()
    return bool(on)


def follows(user: str) -> set[str]:
    """The names of the manga the user follows."""
    with db.lock():
        return {name for name, on in db.section("follows").get(user, {}).items() if on}


def is_following(user: str, manga: str) -> bool:
    with db.lock():
        return bool(db.section("follows").get(user, {}).get(manga))


def followers(manga: str) -> list[str]:
    """The users who follow a manga."""
    with db.lock():
        return [user for user, mine in db.section("follows").items()
                if isinstance(mine, dict) and mine.get(manga) is True]
