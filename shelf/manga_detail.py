"""One manga as one user sees it: metadata, books and chapters with their ranked versions, the user's
read state and the continue target (the data of GET /api/manga and of the manga page)."""
from urllib.parse import urlsplit

from catalog import overrides, provided
from library import faults
from library import meta as library_meta
from library.model import stamp_ms
from mangacircus.memo import per_language
from reader import lookup, progress, social, votes

from . import collections, related, story
from .library import continue_target

STATUSES = ("ongoing", "completed", "hiatus", "cancelled")


def _strings(value, limit=50):
    if isinstance(value, str):
        value = [value]
    return [v.strip() for v in value if isinstance(v, str) and v.strip()][:limit] if isinstance(value, list) else []


def _text(value, max_length=10_000):
    return value.strip()[:max_length] if isinstance(value, str) and value.strip() else None


def safe_link(url):
    """The URL when it is an absolute http(s) URL with a host, else None (no javascript: and friends)."""
    if not isinstance(url, str) or len(url) > 2000:
        return None
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    return url.strip() if parts.scheme in ("http", "https") and parts.netloc else None


def clean_meta(meta):
    """The displayable part of manga.json: each field of the expected type or left out."""
    meta = meta if isinstance(meta, dict) else {}
    year = meta.get("year")
    links = meta.get("links") if isinstance(meta.get("links"), dict) else {}
    status = _text(meta.get("status"), 40)
    return {
        "altTitles": _strings(meta.get("altTitles")),
        "authors": _strings(meta.get("authors")),
        "artists": _strings(meta.get("artists")),
        "status": status.lower() if status and status.lower() in STATUSES else status,
        "year": year if isinstance(year, int) and not isinstance(year, bool) else _text(year, 20),
        "tags": _strings(meta.get("tags"), 100),
        "genres": _strings(meta.get("genres"), 100),
        "description": _text(meta.get("description")),
        "links": [{"name": str(name)[:100], "url": safe_link(url)}
                  for name, url in links.items() if safe_link(url)][:20],
    }


def provider_notes(manga, admin):
    """The attribution of the provider whose data the page shows ({name, attribution, home, url}),
    and for admins where each field comes from (catalog.provided.provenance); None without a layer."""
    layer = provided.get(manga.name)
    if not layer:
        return None
    found = {**provided.provider(layer.get("provider", "")), "url": safe_link(layer.get("url"))}
    if admin:
        found["fields"] = provided.provenance(clean_meta(manga.meta), layer, overrides.get(manga.name))
    return found


def catalog_sections(name, user=None):
    """Relations and groups of a manga (shelf/related.py), without the members hidden from `user`."""
    return related.sections(name, user=user)


def detail(user, manga):
    """{name, title, url, cover, direction, directionFrom, meta, following, rating, wantToRead, collections,
    counts, continue, books, relations, groups, story}: directionFrom says where the direction comes from
    (library.meta.DIRECTION_SOURCES); rating, wantToRead and collections are shelf/collections.py's; story
    (and each chapter row's activeMs) only when the user's Reading Story is on and has history. `books` are
    the runs of Manga.runs(), in reading order: `whole` when a run holds all of its book's chapters,
    `download` on the run under which the book's download link goes (its last)."""
    entries = progress.manga_progress(user, manga.name)
    all_votes = votes.manga_votes(manga.name)
    books = []
    read = 0
    for base, chapters in static_rows(manga):
        rows = []
        for fixed, versions in chapters:
            entry = entries.get(fixed["id"])
            chapter_votes = all_votes.get(fixed["id"])
            shown = votes.ranked(versions, chapter_votes, user) if chapter_votes else [
                {**v, "score": 0, "mine": 0} for v in versions]
            row = {**fixed, "read": bool(entry and entry.get("done")), "progress": entry, "versions": shown,
                   "pages": shown[0]["pages"], "hasPrevious": bool(books or rows)}
            read += row["read"]
            rows.append(row)
        books.append({**base, "chapters": rows})
    total = sum(len(b["chapters"]) for b in books)
    times = story.chapter_times(user, manga.name)
    if times:
        for book in books:
            for row in book["chapters"]:
                row["activeMs"] = times.get(row["id"], 0)
    override = overrides.get(manga.name)
    direction, source = overrides.manga_direction(manga)
    return {
        "name": manga.name, "title": override.get("title") or manga.title, "url": lookup.manga_url(manga.name),
        "cover": lookup.cover_url(manga), "direction": direction, "directionFrom": source,
        "meta": overrides.merge(provided.merge(clean_meta(manga.meta), provided.get(manga.name)), override),
        "following": social.is_following(user, manga.name), **collections.of_manga({"name": user}, manga.name),
        "counts": {"chapters": total, "read": read, "unread": total - read},
        "continue": continue_target(manga, entries), "books": books, **catalog_sections(manga.name, user),
        "story": {"totalMs": sum(times.values()), "chapters": sum(1 for ms in times.values() if ms)} if times else None,
    }


@per_language
def static_rows(manga):
    """What of the chapter list is the same for every user, made once per Manga object (the index
    never changes one, a scan makes a new one): [(book {key, title, heading, extra, whole, download},
    [(chapter row without the user's state, [version {name, source, title, pages, priority, url}
    in folder order, by priority first])])] in reading order (book "0" may come in several runs,
    docs/library.md "Order"; `whole` when a run holds all of its book's chapters, `download` on the
    run under which the book's download link goes, its last)."""
    runs = manga.runs()
    last_run = {book.key: i for i, (book, _) in enumerate(runs)}
    made = []
    for i, (book, chapters) in enumerate(runs):
        base = {"key": book.key, "title": book.title, "heading": lookup.book_heading(book), "extra": book.extra,
                "whole": len(chapters) == len(book.chapters), "download": last_run[book.key] == i}
        rows = []
        for chapter in chapters:
            fixed = {"id": chapter.id, "key": chapter.key, "label": lookup.chapter_label(chapter),
                     "title": chapter.title, "url": lookup.read_url(manga.name, chapter), "added": added(chapter),
                     "tags": chapter_tags(chapter)}
            versions = [{"name": v.name, "source": v.source, "title": v.title, "pages": v.page_count,
                         "priority": v.priority, "url": lookup.read_url(manga.name, chapter, v.name)}
                        for v in chapter.versions]
            versions.sort(key=lambda v: -v["priority"])  # ranked_versions without votes (stable: folder order)
            rows.append((fixed, versions))
        made.append((base, rows))
    return made


SHOWN_UNREAD = 200


def unread_files(manga):
    """What of the manga its last scan could not read, for admins: {"files": the first SHOWN_UNREAD
    as {kind, path, message}, "count": all of them}."""
    found = faults.unread(manga.warnings)
    return {"files": [{"kind": k, "path": p, "message": m} for k, p, m in found[:SHOWN_UNREAD]],
            "count": len(found)}


def chapter_row(user, manga, chapter, entry):
    versions = versions_of(user, manga, chapter)
    return {
        "id": chapter.id, "key": chapter.key, "label": lookup.chapter_label(chapter), "title": chapter.title,
        "url": lookup.read_url(manga.name, chapter), "read": bool(entry and entry.get("done")),
        "progress": entry, "versions": versions, "pages": versions[0]["pages"], "added": added(chapter),
        "tags": chapter_tags(chapter),
    }


def chapter_tags(chapter):
    """The tags of a chapter's versions (ComicInfo Tags, chapter.json `tags`), each once."""
    found = {}
    for v in chapter.versions:
        for tag in library_meta.version_tags(v):
            found.setdefault(tag.casefold(), tag)
    return list(found.values())


def added(chapter):
    """When the chapter came: its oldest version folder's modification time (ms), as the scan saw it."""
    return min(stamp_ms(v.stamp) for v in chapter.versions) if chapter.versions else None


def versions_of(user, manga, chapter):
    """reader.votes.ranked_versions, each with the URL that opens that version."""
    ranked = votes.ranked_versions(manga.name, chapter, user)
    for item in ranked:
        item["url"] = lookup.read_url(manga.name, chapter, item["name"])
    return ranked


def mark_many(user, manga, read, before=None):
    """Mark every chapter read or unread, or only those before `before` (a chapter), in reading
    order; answers the new rows of every chapter, the continue target and the counts."""
    chapters = manga.chapters()
    if before is not None:
        chapters = chapters[:next(i for i, c in enumerate(chapters) if c.id == before.id)]
    _mark(user, manga, chapters, read)
    entries = progress.manga_progress(user, manga.name)
    rows = [{"id": c.id, "label": lookup.chapter_label(c), "read": bool(entries.get(c.id, {}).get("done")),
             "progress": entries.get(c.id)} for c in manga.chapters()]
    read_count = sum(1 for r in rows if r["read"])
    return {"chapters": rows, "continue": continue_target(manga, entries), "marked": len(chapters),
            "counts": {"chapters": len(rows), "read": read_count, "unread": len(rows) - read_count}}


def mark_series(user, mangas, read):
    """Every chapter of each of these manga read or unread (the library grid's selection): the
    number of chapters it applied to."""
    for manga in mangas:
        _mark(user, manga, manga.chapters(), read)
    return sum(len(m.chapters()) for m in mangas)


def _mark(user, manga, chapters, read):
    if read:
        tops = [(c, votes.ranked_versions(manga.name, c, user)[0]) for c in chapters]
        progress.mark_many(user, manga.name, [(c.id, top["name"], top["pages"]) for c, top in tops])
    else:
        progress.forget_many(user, manga.name, [c.id for c in chapters])


def chapter_state(user, manga, chapter):
    """After marking a chapter read or unread: its row and the manga's new continue target and counts."""
    entries = progress.manga_progress(user, manga.name)
    ids = {c.id for c in manga.chapters()}
    read = sum(1 for cid, e in entries.items() if cid in ids and e.get("done"))
    return {
        "chapter": chapter_row(user, manga, chapter, entries.get(chapter.id)),
        "continue": continue_target(manga, entries),
        "counts": {"chapters": len(ids), "read": read, "unread": len(ids) - read},
    }
