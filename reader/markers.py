"""Read markers brought from elsewhere (a MangaDex account: docs/scraper.md, "Your MangaDex account"):
the chapters a user read there become finished chapters in their progress here."""
from __future__ import annotations

from typing import Any

from . import access, progress


def on_read_markers(user: str, matches: dict[str, list[tuple[str, str, int]]], result: dict[str, Any]) -> None:
    """Mark the matched chapters finished, in manga the user may see; a chapter already finished, or
    read part-way, keeps its position (progress.mark_many)."""
    sees = access.visible(user)
    marked = already = hidden = 0
    for manga, chapters in matches.items():
        if not sees(manga):
            hidden += len(chapters)
            continue
        done = {cid for cid, entry in progress.manga_progress(user, manga).items() if entry.get("done")}
        new = [c for c in chapters if c[0] not in done]
        already += len(chapters) - len(new)
        if new:
            progress.mark_many(user, manga, new)
            marked += len(new)
    result.update(marked=result.get("marked", 0) + marked, already=result.get("already", 0) + already,
                  hidden=result.get("hidden", 0) + hidden)
