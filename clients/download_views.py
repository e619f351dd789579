"""Downloads for offline reading: a chapter (in the version the user reads) or a whole book as
CBZ (clients/cbz.py), when the admin allows downloads (Settings → Admin → Apps)."""
from django.views.decorators.http import require_safe

from mangacircus.errors import NotFound
from mangacircus.pages import page
from reader import access, lookup, progress, serverprefs

from . import cbz
from .komga import state


def _manga(user, name):
    if not serverprefs.downloads_allowed():
        raise NotFound("downloads are turned off on this server")
    manga = lookup.manga_or_404(name)
    if not access.can_see(user, manga.name):
        raise NotFound(f"no manga named {name}")
    return manga


def _version(user, manga, chapter):
    return state.chosen_version(user, manga, chapter, progress.chapter_progress(user, manga.name, chapter.id))


@page()
@require_safe
def chapter(request, manga, book, chapter):
    user = request.account["name"]
    found = _manga(user, manga)
    ch = lookup.chapter_or_404(found, f"{book}/{chapter}")
    return cbz.chapter_response(request, found, ch, _version(user, found, ch))


@page()
@require_safe
def book(request, manga, book):
    user = request.account["name"]
    found = _manga(user, manga)
    bk = found.book(book)
    if bk is None:
        raise NotFound(f"{found.title} has no book {book}")
    return cbz.book_response(request, found, bk, [(c, _version(user, found, c)) for c in bk.chapters])
