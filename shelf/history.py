"""Recently read: the user's reading positions across every manga, newest first (the history page
and GET /api/history). Built from the progress section, which every device of the user writes
to, so a chapter read on the phone shows up on the desktop too."""
from reader import access, lookup, progress

PAGE_SIZE = 50


def entries(user, offset=0, limit=PAGE_SIZE):
    """{total, offset, items: [{m, title, cover, manga_url, c, chapter, url, page, pages, done, t}]}.

    One item per chapter with a saved position, for manga and chapters still in the library and
    visible to the user; `url` resumes in the version that was read, `page` is 0-based.
    """
    index = lookup.current()
    sees = access.visible(user)
    found = []
    for name, chapters in progress.all_progress(user).items():
        manga = index.get(name)
        if manga is None or not sees(name):
            continue
        for cid, entry in chapters.items():
            chapter = manga.chapter(cid)
            if chapter is not None:
                found.append((entry.get("t") or 0, manga, chapter, entry))
    found.sort(key=lambda item: (-item[0], item[1].name, item[2].id))
    items = []
    for t, manga, chapter, entry in found[offset:offset + limit]:
        version = entry.get("v") if any(v.name == entry.get("v") for v in chapter.versions) else None
        items.append({
            "m": manga.name, "title": manga.title, "cover": lookup.cover_url(manga),
            "manga_url": lookup.manga_url(manga.name), "c": chapter.id, "chapter": lookup.chapter_name(chapter),
            "url": lookup.read_url(manga.name, chapter, version), "page": entry.get("p", 0),
            "pages": entry.get("n"), "done": bool(entry.get("done")), "t": t,
        })
    return {"total": len(found), "offset": offset, "items": items}
