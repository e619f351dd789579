"""Votes on chapter versions and the ranking they give (docs/using.md, "Versions and votes").

votes[manga][chapter id][version][user] = 1 | -1. Everybody sees totals and their own vote.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mangacircus import db
from mangacircus import moves as moved
from mangacircus.moves import Move

if TYPE_CHECKING:
    from library.model import Chapter


def forget_user(name: str) -> None:
    for chapters in db.section("votes").values():
        for versions in chapters.values():
            for voters in versions.values():
                voters.pop(name, None)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): votes[manga][chapter id] follow; where a version has
    votes in both, those already there stay."""
    for move in moves:
        moved.manga_key(db.section("votes"), move)


def vote(user: str, manga: str, cid: str, version: str, value: int) -> None:
    """value 1 or -1 records a vote, 0 withdraws it."""
    with db.lock():
        voters = (db.section("votes").setdefault(manga, {}).setdefault(cid, {}).setdefault(version, {}))
        if value:
            voters[user] = value
        else:
            voters.pop(user, None)
        db.touch()


def chapter_votes(manga: str, cid: str) -> dict[str, dict[str, int]]:
    """{version: {user: value}} (copies)."""
    with db.lock():
        return {v: dict(users) for v, users in db.section("votes").get(manga, {}).get(cid, {}).items()}


def manga_votes(manga: str) -> dict[str, dict[str, dict[str, int]]]:
    """{chapter id: {version: {user: value}}} of one manga (copies), for a whole chapter list at once."""
    with db.lock():
        return {cid: {v: dict(users) for v, users in versions.items()}
                for cid, versions in db.section("votes").get(manga, {}).items()}


def ranked(items: list[dict[str, Any]], votes: dict[str, dict[str, int]], user: str) -> list[dict[str, Any]]:
    """`items` ({name, priority, …} in folder order) as ranked_versions ranks them, each a new dict
    with its score and the user's own vote."""
    out = []
    for item in items:
        voters = votes.get(item["name"], {})
        out.append({**item, "score": sum(voters.values()), "mine": voters.get(user, 0)})
    out.sort(key=lambda i: (-i["score"], -i["priority"]))  # stable: folder order breaks ties
    return out


def ranked_versions(manga: str, chapter: Chapter, user: str) -> list[dict[str, Any]]:
    """The chapter's versions, best first.

    1. the sum of all users' votes, highest first;
    2. then chapter.json priority, highest first;
    3. then folder order (the index keeps versions in folder order).
    Each item: name, source, title, pages, score, mine (the user's own vote), priority.
    """
    items = [{"name": v.name, "source": v.source, "title": v.title, "pages": v.page_count, "priority": v.priority}
             for v in chapter.versions]
    return ranked(items, chapter_votes(manga, chapter.id), user)
