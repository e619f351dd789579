"""What a tracker is told of one manga, from the user's progress here, and back (the import).

1. The chapters counted are the manga's chapters without the extras (`x1`), in reading order.
2. When their keys are numbers that rise all the way, "chapters read" is the largest whole
   number among those finished (chapter 12.5 finished: 12); else the reading position of the
   last one finished (numbering that restarts per volume: the 30th chapter is 30).
3. The volume is the book of that chapter, when it is a numbered one (not "0", chapters standing
   in the manga folder, nor an extra book).
4. The status is completed when every counted chapter is finished and the series is completed
   (manga.json's status, else the metadata match's); else reading. The start date is the day of
   the first position saved in the manga, the finish date that of the last chapter finished, both
   in the server's time zone.
"""
from __future__ import annotations

import datetime
from typing import Any

from catalog import provided
from library import index as library_index
from reader import progress

from .base import COMPLETED, READING, State


def counted(manga: Any) -> list[Any]:
    return [c for c in manga.chapters() if not (c.key.startswith("x") or c.book.startswith("x"))]


def numbers(chapters: list[Any]) -> list[float] | None:
    """The chapters' numbers when they rise all the way, else None (positions are counted)."""
    try:
        values = [float(c.key) for c in chapters]
    except ValueError:
        return None
    return values if all(a < b for a, b in zip(values, values[1:])) else None


def _day(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000).date().isoformat()


def series_completed(manga: Any) -> bool:
    status = manga.meta.get("status") if isinstance(manga.meta, dict) else None
    if not status:
        status = (provided.get(manga.name).get("fields") or {}).get("status")
    return str(status or "").strip().lower() in ("completed", "complete", "finished", "ended")


def state(user: str, name: str) -> State | None:
    """The State to send for the user's reading of manga `name`, or None when nothing is finished."""
    manga = library_index.current().get(name)
    if manga is None:
        return None
    entries = progress.manga_progress(user, name)
    chapters = counted(manga)
    finished = [(i, c) for i, c in enumerate(chapters) if c.id in entries and entries[c.id].get("done")]
    if not finished:
        return None
    values = numbers(chapters)
    if values is not None:
        position, chapter = max(finished, key=lambda f: values[f[0]])
        read = int(values[position])
    else:
        position, chapter = finished[-1]
        read = position + 1
    book = chapter.book
    volumes = int(float(book)) if book not in ("0", "") and book.replace(".", "", 1).isdigit() else None
    done = len(finished) == len(chapters) and series_completed(manga)
    times = [e.get("t") or 0 for e in entries.values() if e.get("t")]
    last_done = max((entries[c.id].get("t") or 0) for _, c in finished)
    return State(chapters=read, volumes=volumes, status=COMPLETED if done else READING,
                 started=_day(min(times)) if times else None, finished=_day(last_done) if done else None)


def read_up_to(manga: Any, chapters_read: int) -> list[tuple[str, str, int]]:
    """The chapters a tracker's "chapters read" covers, as (chapter id, version, pages) to mark finished."""
    if chapters_read <= 0:
        return []
    chapters = counted(manga)
    values = numbers(chapters)
    if values is None:
        covered = chapters[:chapters_read]
    else:
        covered = [c for c, v in zip(chapters, values) if v <= chapters_read]
    out = []
    for chapter in covered:
        top = chapter.ranked()[0]
        out.append((chapter.id, top.name, top.page_count))
    return out
