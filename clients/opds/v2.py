"""OPDS 2.0 documents (JSON) and the Divina manifest of a chapter: plain dicts, built from the
index and the user's state, for clients/opds/v2_views.py (docs/apps.md, "OPDS 2.0").

A manga is a navigation link (to its feed), a chapter a publication whose acquisition links are
its Divina manifest (streamed page by page) and, when downloads are allowed, its CBZ."""
import re

from django.urls import reverse
from django.utils.translation import gettext as _

from catalog import overrides
from library import files as library_files
from reader import serverprefs

from ..komga import dto, ids, state
from . import feed

OPDS2 = "application/opds+json"
DIVINA = "application/divina+json"
DIVINA_PROFILE = "https://readium.org/webpub-manifest/profiles/divina"
CONTEXT = "https://readium.org/webpub-manifest/context.jsonld"
AUTHENTICATION = "application/opds-authentication+json"
BASIC = "http://opds-spec.org/auth/basic"
COVER_TYPE = "image/webp"
# A BCP 47 language tag, as metadata.language must be; manga.json's "language" may hold a name.
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")


def link(href, type_, rel=None, title=None, **extra):
    out = {"href": href, "type": type_}
    if rel:
        out["rel"] = rel
    if title:
        out["title"] = title
    return {**out, **extra}


def document(*, title, self_href, modified, paging=None, **collections):
    """A feed: `collections` are navigation, publications, groups (each left out when empty)."""
    metadata = {"title": title, "modified": modified}
    links = [link(self_href, OPDS2, "self"), link(reverse("opds2-root"), OPDS2, "start"),
             link(reverse("opds2-search") + "{?query}", OPDS2, "search", templated=True)]
    if paging:
        metadata.update(paging["metadata"])
        links += paging["links"]
    out = {"metadata": metadata, "links": links}
    out.update({name: items for name, items in collections.items() if items})
    if not any(name in out for name in ("navigation", "publications", "groups")):
        # a feed must hold one collection of one item at least: an empty shelf or search leads back
        out["navigation"] = [link(reverse("opds2-root"), OPDS2, "start", _("Nothing here: back to the start"))]
    return out


def authentication(root_url, refused):
    """The Authentication Document (Authentication for OPDS 1.0) of a 401: Basic, with the name and
    password labelled as on the sign-in form; `refused` is the 401's own {"error": …}."""
    return {"id": root_url, "title": "MangaCircus", "description": refused.get("error", ""),
            "authentication": [{"type": BASIC, "labels": {"login": _("Name"), "password": _("Password")}}],
            "links": [link(root_url, OPDS2, "start")]}


def paging(at, *, total, per_page, page):
    """OPDS 2's numbers and first/previous/next/last links; `at(n)` is page n's address."""
    last = max((total + per_page - 1) // per_page, 1)
    links = [link(at(1), OPDS2, "first"), link(at(last), OPDS2, "last")]
    if page > 1:
        links.append(link(at(page - 1), OPDS2, "previous"))
    if page < last:
        links.append(link(at(page + 1), OPDS2, "next"))
    return {"metadata": {"numberOfItems": total, "itemsPerPage": per_page, "currentPage": page},
            "links": links}


def manga_link(manga):
    return link(reverse("opds2-manga", args=[ids.series_id(manga.name)]), OPDS2, "subsection", manga.title,
                properties={"numberOfItems": len(manga.chapters())})


def language(manga):
    value = dto.text(manga.meta, "language")
    return value if LANGUAGE_TAG.fullmatch(value) else None


def layout(manga):
    """metadata's readingProgression and layout for the manga's direction: a vertical strip (ttb)
    is a scrolled publication, as the Divina profile asks of webtoons."""
    direction = overrides.manga_direction(manga)[0]
    return {"layout": "scrolled"} if direction == "ttb" else {"readingProgression": direction}


def metadata(manga, chapter, version, position):
    out = {
        "identifier": f"urn:mangacircus:book:{ids.book_id(manga.name, chapter.id)}",
        "conformsTo": DIVINA_PROFILE,
        "title": dto.chapter_title(manga, chapter),
        "modified": dto.dt(manga.updated),
        "numberOfPages": version.page_count,
        "belongsTo": {"series": [{"name": manga.title, "position": position}]},
        **layout(manga),
    }
    authors = dto.strings(manga.meta, "authors")
    if authors:
        out["author"] = authors
    artists = dto.strings(manga.meta, "artists")
    if artists:
        out["penciler"] = artists
    if language(manga):
        out["language"] = language(manga)
    if dto.text(manga.meta, "description"):
        out["description"] = dto.text(manga.meta, "description")
    if dto.genres(manga):
        out["subject"] = [{"name": g, "code": g} for g in dto.genres(manga)]
    if version.page_count == 0:
        del out["numberOfPages"]  # a count must be above 0
    return out


def publication(user, manga, chapter, position, entry):
    """A chapter as an OPDS 2 publication: `position` its 1-based place, `entry` the user's progress."""
    version = state.chosen_version(user, manga, chapter, entry)
    bid = ids.book_id(manga.name, chapter.id)
    links = [link(reverse("opds2-manifest", args=[bid]), DIVINA, feed.REL_ACQUISITION, _("Read"))]
    if serverprefs.downloads_allowed():
        links.append(link(reverse("opds-file", args=[bid]), feed.CBZ, feed.REL_ACQUISITION, _("Download CBZ")))
    out = {"metadata": metadata(manga, chapter, version, position), "links": links}
    if manga.cover:
        out["images"] = [link(reverse("opds-thumbnail", args=[ids.series_id(manga.name)]), COVER_TYPE)]
    return out


def manifest(manga, chapter, version, position, self_url):
    """The chapter's Divina manifest: its pages in reading order, each with its type and size."""
    bid = ids.book_id(manga.name, chapter.id)
    reading_order = []
    for n, page in enumerate(library_files.pages_with_sizes(version)):
        item = link(reverse("opds-page", args=[bid, n]),
                    dto.MEDIA_TYPES.get(page.file.rpartition(".")[2].casefold(), "image/jpeg"))
        if page.w and page.h:
            item.update(width=page.w, height=page.h)
        reading_order.append(item)
    links = [link(self_url, DIVINA, "self")]
    if manga.cover:
        links.append(link(reverse("opds-thumbnail", args=[ids.series_id(manga.name)]), COVER_TYPE, "cover"))
    return {"@context": CONTEXT, "metadata": metadata(manga, chapter, version, position), "links": links,
            "readingOrder": reading_order}
