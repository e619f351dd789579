"""A chapter as the apps see it for one user: the version whose pages they get, the progress
record mapped to Komga's read progress, and the writes (the same records the web reader resumes
from, reader/progress.py).

The version is the one the user's progress names while it still exists, else the top-ranked one
(votes, priority, folder order): the same rule for the book's page count, its page list and the
images, so the three always agree.
"""
from mangacircus.errors import Invalid
from reader import progress, votes

from . import numbering


def chosen_version(user, manga, chapter, entry=None):
    if entry and entry.get("v"):
        for v in chapter.versions:
            if v.name == entry["v"]:
                return v
    if len(chapter.versions) == 1:
        return chapter.versions[0]
    top = votes.ranked_versions(manga.name, chapter, user)[0]["name"]
    return next(v for v in chapter.versions if v.name == top)


def status(entry):
    if not entry:
        return "UNREAD"
    return "READ" if entry.get("done") else "IN_PROGRESS"


def page_of(entry, version):
    """Komga's 1-based page for a progress record, in the chosen version."""
    count = max(version.page_count, 1)
    page = entry.get("p", 0) if isinstance(entry.get("p"), int) else 0
    if entry.get("v") != version.name and isinstance(entry.get("n"), int):
        page = progress.map_page(page, entry["n"], count)
    return min(max(page + 1, 1), count)


def set_page(user, manga, chapter, page):
    """PATCH {"page": N}: page N (1-based) of the chosen version; done when it is the last page
    (and it stays done, as in the web reader)."""
    old = progress.chapter_progress(user, manga.name, chapter.id)
    version = chosen_version(user, manga, chapter, old)
    count = version.page_count
    if isinstance(page, bool) or not isinstance(page, int) or not 1 <= page <= count:
        raise Invalid(f"page must be a whole number from 1 to {count}")
    shift = (old or {}).get("shift", []) if (old or {}).get("v") == version.name else []
    progress.save(user, manga.name, chapter.id, version=version.name, page=page - 1, pages=count,
                  done=page == count, shift=shift)


def set_completed(user, manga, chapter):
    old = progress.chapter_progress(user, manga.name, chapter.id)
    version = chosen_version(user, manga, chapter, old)
    shift = (old or {}).get("shift", []) if (old or {}).get("v") == version.name else []
    progress.save(user, manga.name, chapter.id, version=version.name, page=max(version.page_count - 1, 0),
                  pages=version.page_count, done=True, shift=shift)


def forget(user, manga, chapter):
    progress.forget(user, manga.name, chapter.id)


def mark_up_to(user, manga, last_read):
    """The Mihon tracker's PUT: every chapter with numberSort ≤ last_read (compared after float32
    rounding, as Mihon sends a float back as a double) is marked done; nothing is un-marked;
    last_read ≤ 0 is ignored (Mihon sends 0 when nothing is read)."""
    if last_read <= 0:
        return
    limit = numbering.f32(last_read)
    sorts = numbering.number_sorts(manga)
    entries = progress.manga_progress(user, manga.name)
    for chapter in manga.chapters():
        if numbering.f32(sorts[chapter.id]) <= limit and not (entries.get(chapter.id) or {}).get("done"):
            version = chosen_version(user, manga, chapter, entries.get(chapter.id))
            progress.mark_done(user, manga.name, chapter.id, version.name, version.page_count)


def tachiyomi_progress(user, manga):
    entries = progress.manga_progress(user, manga.name)
    sorts = numbering.number_sorts(manga)
    chapters = manga.chapters()
    read = sum(1 for c in chapters if (entries.get(c.id) or {}).get("done"))
    started = sum(1 for c in chapters if c.id in entries and not entries[c.id].get("done"))
    continuous = 0.0
    for c in chapters:
        if not (entries.get(c.id) or {}).get("done"):
            break
        continuous = sorts[c.id]
    return {"booksCount": len(chapters), "booksReadCount": read, "booksUnreadCount": len(chapters) - read - started,
            "booksInProgressCount": started, "lastReadContinuousNumberSort": numbering.number(continuous),
            "maxNumberSort": numbering.number(max(sorts.values(), default=0))}
