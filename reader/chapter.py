"""The chapter payload of the reader, and the checks behind saving a reading position.

The payload (GET /api/chapter and the read/ page) joins the library index with the user's data:
pages with sizes, tags and rotation; the direction; the ranked versions; the neighbours; the
progress and the page to open at; every book and chapter for the chapter picker; the settings.
All URLs in it are relative to the app root.
"""
from urllib.parse import quote

from django.utils.translation import gettext as _

from catalog import overrides
from library import files
from mangacircus.errors import Invalid
from mangacircus.http import field, text_field
from mangacircus.memo import PerObject, per_language

from . import lookup, prefs, progress, reading_clock, readlists, votes

ROTATIONS = (0, 90, 180, 270)


# ---- URLs ----------------------------------------------------------------------------------------

def image_url(version, page):
    path = f"{str(version.path).replace(chr(92), '/').strip('/')}/{page.file}"
    return "lib/" + quote(path, safe="/")


# Quoting each page's path was half of GET /api/chapter's own time.
_image_urls = PerObject(lambda version: {page.file: image_url(version, page) for page in version.pages()})


# ---- the payload -------------------------------------------------------------------------------

def start_page(entry, version, count):
    """Where to open: the saved page for the same version, mapped proportionally for another
    one, and the start for a finished chapter or none read yet."""
    if not entry or entry.get("done") or count <= 0:
        return 0
    page, pages = entry.get("p", 0), entry.get("n", 0)
    if not isinstance(page, int) or not isinstance(pages, int):
        return 0
    if entry.get("v") == version.name:
        return min(max(page, 0), count - 1)
    return progress.map_page(page, pages, count)


def _page(urls, page):
    rotation = page.rotation if page.rotation in ROTATIONS else 0
    return {"u": urls[page.file], "w": page.w, "h": page.h, "t": list(page.tags), "r": rotation}


def _neighbour(manga, chapter, in_list=None, current=None):
    """A neighbour chapter: in the manga, or (in_list: the read list's id) the list's, which may be of
    another manga (then `m` names it and its label starts with its title)."""
    if chapter is None:
        return None
    label = lookup.chapter_label(chapter)
    if in_list and manga.name != current:
        label = f"{overrides.title(manga)} · {label}"
    return {"id": chapter.id, "m": manga.name, "title": chapter.title, "label": label,
            "url": lookup.read_url(manga.name, chapter) + (f"?list={in_list}" if in_list else "")}


def _in_list(user, rid, manga, chapter):
    """The read list the reader was opened from (?list=), and the chapters around this one in it."""
    around = readlists.around(user, rid, manga.name, chapter.id, lookup.current()) if rid else None
    if around is None:
        return None, {}
    sides = {side: _neighbour(*around[side], in_list=rid, current=manga.name) if around[side] else None
             for side in ("prev", "next")}
    return {k: around[k] for k in ("id", "name", "position", "count")}, sides


_positions = PerObject(lambda manga: {c.id: i for i, c in enumerate(manga.chapters())})


@per_language
def _picker(manga):
    """What of the chapter picker is the same for every user: the runs of the reading order
    (Manga.runs(); book "0" may come more than once). Labels come from reader/lookup.py, as on the
    manga page: a chapter of an extras book is an Extra."""
    return [({"key": book.key, "title": book.title, "extra": bool(book.extra), "heading": lookup.book_heading(book)},
             [{"id": c.id, "key": c.key, "title": c.title, "label": lookup.chapter_label(c),
               "url": lookup.read_url(manga.name, c)} for c in chapters])
            for book, chapters in manga.runs()]


def _books(manga, done):
    """The chapter picker, with what `done` says this user has read."""
    return [{**book, "chapters": [{**c, "read": c["id"] in done} for c in chapters]}
            for book, chapters in _picker(manga)]


def chapter_payload(user, manga_name, cid, version_name=None, read_list=None):
    """The chapter payload for `user`; NotFound for an unknown manga, chapter or version.
    Without a version name the top-ranked version is shown (docs/api.md, GET /api/manga). With
    `read_list` (a read list's id that holds the chapter), prev and next are the list's."""
    manga = lookup.manga_or_404(manga_name, user=user)
    chapter = lookup.chapter_or_404(manga, cid)
    ranked = votes.ranked_versions(manga.name, chapter, user)
    version = lookup.version_or_404(chapter, version_name if version_name else ranked[0]["name"])
    urls = _image_urls(version)
    pages = [_page(urls, page) for page in files.pages_with_sizes(version)]
    entry = progress.chapter_progress(user, manga.name, chapter.id)
    order = manga.chapters()
    at = _positions(manga)[chapter.id]
    read = {cid for cid, e in progress.manga_progress(user, manga.name).items() if e.get("done")}
    settings = prefs.get_settings(user)
    in_list, sides = _in_list(user, read_list, manga, chapter)
    return {
        "manga": {"name": manga.name, "title": overrides.title(manga)},
        "chapter": {"id": chapter.id, "book": chapter.book, "key": chapter.key, "title": chapter.title,
                    "label": lookup.chapter_label(chapter)},
        "version": version.name,
        # chapter.json, then a curator's direction for the manga, then the folder's (docs/library.md)
        "direction": overrides.version_direction(manga, version),
        "pages": pages,
        "widths": files.widths(version),  # a PDF's pages are drawn at the width asked (?w=)
        "versions": ranked,
        "prev": sides["prev"] if in_list else _neighbour(manga, order[at - 1] if at > 0 else None),
        "next": sides["next"] if in_list else _neighbour(manga, order[at + 1] if at + 1 < len(order) else None),
        "list": in_list,
        "progress": entry,
        "start": start_page(entry, version, len(pages)),
        "books": _books(manga, read),
        "settings": settings,
        "manga_url": lookup.manga_url(manga.name),
        # The Active Reading Clock's summary of this chapter, only for users who opted in.
        "clock": reading_clock.chapter_summary(user, manga.name, chapter.id) if settings.get("readingClock") else None,
    }



# ---- saving a position ----------------------------------------------------------------------------

def save_position(user, data):
    """Validate a POST /api/progress body against the index and save it.

    m, c, v name an existing manga, chapter and version (404 otherwise); p is a page index in
    0..n-1, n the version's page count; done true/false; shift a list of page indices of the
    chapter (the first pages of Book-mode runs that start with a lone page); at, when sent, the
    time in ms the position was taken (a write queued offline: progress.save keeps the latest).
    """
    manga_name, cid, version_name = text_field(data, "m"), text_field(data, "c"), text_field(data, "v")
    page, pages = field(data, "p", int), field(data, "n", int)
    done = field(data, "done", bool, required=False, default=False)
    shift = field(data, "shift", list, required=False, default=[])
    at = field(data, "at", int, required=False)
    if at is not None and not 0 <= at < 2**53:
        raise Invalid(_("at must be a time in milliseconds since 1970"))
    manga = lookup.manga_or_404(manga_name, user=user)
    chapter = lookup.chapter_or_404(manga, cid)
    version = lookup.version_or_404(chapter, version_name)
    if pages != version.page_count:
        raise Invalid(_("n must be the version's page count (%(page_count)s)") % {"page_count": version.page_count})
    if not 0 <= page < pages:
        raise Invalid(_("p must be a page index from 0 to %(last)s") % {"last": pages - 1})
    if len(shift) > pages or any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < pages for i in shift):
        raise Invalid(_("shift must be a list of page indices from 0 to %(last)s") % {"last": pages - 1})
    return progress.save(user, manga.name, chapter.id, version=version.name, page=page, pages=pages,
                         done=done, shift=sorted(set(shift)), at=at)
