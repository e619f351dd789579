"""Ids from requests → objects of the current library index, or NotFound/Invalid.

Every id a user sends is checked here before anything is stored, so db.json only ever holds keys
that name real manga, chapters and versions. Also the app-relative URLs of manga, chapters, covers.
"""
from functools import lru_cache
from urllib.parse import quote

from django.utils.translation import gettext as _

from library import index as library_index
from library import thumbs
from mangacircus.errors import NotFound
from mangacircus.http import text_field

from . import access


def current():
    return library_index.current()


def manga_or_404(name, index=None, user=None):
    """The manga, or NotFound; with `user`, also NotFound when their restrictions hide it
    (reader/access.py), in the same words, so a hidden manga cannot be told from a missing one."""
    manga = (index if index is not None else current()).get(name) if isinstance(name, str) else None
    if manga is None or (user is not None and not access.can_see(user, manga.name)):
        raise NotFound(_("no manga named %(name)s") % {"name": name} if isinstance(name, str) else _("no such manga"))
    return manga


def chapter_or_404(manga, cid):
    chapter = manga.chapter(cid) if isinstance(cid, str) else None
    if chapter is None:
        raise NotFound(_("%(title)s has no chapter %(cid)s") % {"title": manga.title, "cid": cid})
    return chapter


def version_or_404(chapter, name):
    version = next((v for v in chapter.versions if v.name == name), None)
    if version is None:
        raise NotFound(_("chapter %(id)s has no version %(name)s") % {"id": chapter.id, "name": name})
    return version


def manga_field(data, index=None, user=None):
    """The manga named by field "m" (400 when missing or not a string, 404 when unknown or hidden)."""
    return manga_or_404(text_field(data, "m", max_length=1000), index, user)


def chapter_fields(data, index=None, user=None):
    """(manga, chapter) named by fields "m" and "c"."""
    manga = manga_field(data, index, user)
    return manga, chapter_or_404(manga, text_field(data, "c", max_length=100))


# URLs, relative to the app root (no leading slash), as in the chapter payload.

@lru_cache(maxsize=4096)
def _q(text):
    # Cached: the chapter picker quotes the manga name and every book and chapter key of the
    # manga on each request; quote() was ~1/3 of GET /api/chapter's time at 200 chapters.
    return quote(str(text), safe="")


def manga_url(name):
    return f"manga/{_q(name)}/"


def read_url(name, chapter, version=None):
    url = f"read/{_q(name)}/{_q(chapter.book)}/{_q(chapter.key)}/"
    return url + (f"?v={_q(version)}" if version else "")


def note_url(index, note):
    """Where a notification leads: its chapter, else its manga, else nowhere (both gone)."""
    found = index.get(note.get("m"))
    if found is None:
        return None
    chapter = found.chapter(note.get("c")) if isinstance(note.get("c"), str) else None
    return read_url(found.name, chapter) if chapter else manga_url(found.name)


def cover_url(manga):
    """The manga's cover thumbnail (library/thumbs.py), or None when it has no cover at all. It
    names the thumbnail's file, so a proxy can keep it (docs/proxy.md), and a changed cover gets a
    new URL."""
    key = thumbs.key(manga)
    if not manga.cover and not key:  # a provider's cover (catalog/provided.py) may stand in for none
        return None
    name = quote(manga.name, safe="")
    return f"thumb/{name}/{key}.webp" if key else f"thumb/{name}"


def chapter_label(chapter):
    """ "Ch. 2", "Ch. 2.5", "Extra 1": the number part of a chapter's name, the same in the reader,
    on the manga page, in notifications and webhooks, in the reader's language ("第2話"; English
    where no request chose one). A chapter of an extras book is an extra."""
    if chapter.key.startswith("x") or chapter.book.startswith("x"):
        return _("Extra %(number)s") % {"number": chapter.key.removeprefix("x")}
    return _("Ch. %(number)s") % {"number": chapter.key}


def chapter_name(chapter):
    """ "Ch. 6: Frost" or "Ch. 6"."""
    label = chapter_label(chapter)
    return _("%(label)s: %(title)s") % {"label": label, "title": chapter.title} if chapter.title else label


def book_heading(book):
    """The heading of a book, or None for the implicit book "0" (shown without one)."""
    if book.key == "0":
        return None
    if book.extra:
        number = _("Extras %(number)s") % {"number": book.key[1:]}
    else:
        number = _("Book %(number)s") % {"number": book.key}
    return f"{number} · {book.title}" if book.title else number
