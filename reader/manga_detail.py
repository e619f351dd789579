"""One manga as one user sees it: metadata, books and chapters with their ranked versions, the user's
read state and the continue target (the data of GET /api/manga and of the manga page)."""
from urllib.parse import urlsplit

from catalog import overrides

from . import lookup, progress, related, social, story, votes
from .shelf import continue_target

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
        "description": _text(meta.get("description")),
        "links": [{"name": str(name)[:100], "url": safe_link(url)}
                  for name, url in links.items() if safe_link(url)][:20],
    }


def catalog_sections(name):
    """Relations and groups of a manga (reader/related.py)."""
    return related.sections(name)


def detail(user, manga):
    """{name, title, url, cover, direction, meta, following, counts, continue, books, relations, groups, story}:
    story (and each chapter row's activeMs) only when the user's Reading Story is on and has history."""
    entries = progress.manga_progress(user, manga.name)
    books = []
    read = 0
    for book in manga.books:
        rows = []
        for chapter in book.chapters:
            row = chapter_row(user, manga, chapter, entries.get(chapter.id))
            read += row["read"]
            rows.append(row)
        books.append({"key": book.key, "title": book.title, "heading": lookup.book_heading(book),
                      "extra": book.extra, "chapters": rows})
    total = sum(len(b["chapters"]) for b in books)
    times = story.chapter_times(user, manga.name)
    if times:
        for book in books:
            for row in book["chapters"]:
                row["activeMs"] = times.get(row["id"], 0)
    override = overrides.get(manga.name)
    return {
        "name": manga.name, "title": override.get("title") or manga.title, "url": lookup.manga_url(manga.name),
        "cover": lookup.cover_url(manga), "direction": override.get("direction") or manga.direction,
        "meta": overrides.merge(clean_meta(manga.meta), override),
        "following": social.is_following(user, manga.name),
        "counts": {"chapters": total, "read": read, "unread": total - read},
        "continue": continue_target(manga, entries), "books": books, **catalog_sections(manga.name),
        "story": {"totalMs": sum(times.values()), "chapters": sum(1 for ms in times.values() if ms)} if times else None,
    }


def chapter_row(user, manga, chapter, entry):
    versions = versions_of(user, manga, chapter)
    return {
        "id": chapter.id, "key": chapter.key, "label": lookup.chapter_label(chapter), "title": chapter.title,
        "url": lookup.read_url(manga.name, chapter), "read": bool(entry and entry.get("done")),
        "progress": entry, "versions": versions,
    }


def versions_of(user, manga, chapter):
    """reader.votes.ranked_versions, each with the URL that opens that version."""
    ranked = votes.ranked_versions(manga.name, chapter, user)
    for item in ranked:
        item["url"] = lookup.read_url(manga.name, chapter, item["name"])
    return ranked


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
