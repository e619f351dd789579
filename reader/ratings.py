"""The `ratings` section of db.json: ratings[manga][user] = 1 to 5 stars (docs/using.md, "Ratings").

Everyone sees their own stars and, for each manga, how many users rated it and the mean.
"""
from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from mangacircus import db
from mangacircus.errors import Invalid
from mangacircus.moves import Move


def validate(data: dict[str, Any]) -> None:
    for manga, by_user in data.get("ratings", {}).items():
        if not isinstance(by_user, dict) or not all(
                type(v) is int and 1 <= v <= 5 for v in by_user.values()):
            raise ValueError(f'the ratings of "{manga}" must map users to 1 to 5 stars')


def forget_user(name: str) -> None:
    section = db.section("ratings")
    for manga in list(section):
        section[manga].pop(name, None)
        if not section[manga]:
            del section[manga]


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): where both names have a user's stars, the ones
    already there stay."""
    section = db.section("ratings")
    for move in moves:
        if move.old != move.new and move.old in section:
            there = section.setdefault(move.new, {})
            for user, stars in section.pop(move.old).items():
                there.setdefault(user, stars)


def rate(user: str, manga: str, stars: Any) -> dict[str, Any]:
    """stars 1 to 5 rates, 0 withdraws the rating; the manga's rating after it."""
    if isinstance(stars, bool) or not isinstance(stars, int) or not 0 <= stars <= 5:
        raise Invalid(_("stars must be a whole number from 0 (no rating) to 5"))
    with db.lock():
        section = db.section("ratings")
        by_user = section.setdefault(manga, {})
        if stars:
            by_user[user] = stars
        else:
            by_user.pop(user, None)
            if not by_user:
                del section[manga]
        db.touch()
    return rating(user, manga)


def import_many(entries: list[tuple[str, str, int]]) -> int:
    """Ratings brought from another server (imports/): [(user, manga, stars 1 to 5)]; a rating
    given here is kept. -> how many were written."""
    count = 0
    with db.lock():
        section = db.section("ratings")
        for user, manga, stars in entries:
            if not (type(stars) is int and 1 <= stars <= 5):
                raise Invalid(_("an imported rating must be 1 to 5 stars"))
            if section.setdefault(manga, {}).setdefault(user, stars) == stars:
                count += 1
        db.touch()
    return count


def _summary(by_user: dict[str, int], user: str) -> dict[str, Any]:
    count = len(by_user)
    return {"mine": by_user.get(user, 0), "count": count,
            "mean": round(sum(by_user.values()) / count, 2) if count else None}


def rating(user: str, manga: str) -> dict[str, Any]:
    """{"mine": 0 to 5 (0: not rated), "count": users who rated it, "mean": their mean or None}."""
    with db.lock():
        return _summary(db.section("ratings").get(manga, {}), user)


def all_ratings(user: str) -> dict[str, dict[str, Any]]:
    """{manga: rating(user, manga)} of every rated manga."""
    with db.lock():
        return {manga: _summary(by_user, user) for manga, by_user in db.section("ratings").items()}
