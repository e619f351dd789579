"""Automatic keeping for followed manga (docs/offline.md): which chapters a browser keeps offline by
itself for a user whose setting offlineFollowed is on. The browser keeps them (static/js/offline-keep.js);
the server only says which."""
from reader import access, lookup, prefs, progress, social

from .library import continue_target

MAX_CHAPTERS = 60  # in all, per round: a user following 200 manga would otherwise keep gigabytes at once


def followed_ahead(user):
    """{on, chapters: [{m, c, url, label}]}: for each manga the user follows and may see, in title
    order, the next offlineAhead unread chapters from where Continue leads (none when caught up),
    MAX_CHAPTERS at most; no chapters while the setting is off.

    1. Continue's target is the chapter read last when unfinished, else the first unfinished one after
       it, else the first chapter (shelf.library.continue_target).
    2. From there on, in reading order, the chapters not finished are taken, offlineAhead of them.
    """
    settings = prefs.get_settings(user)
    if not settings["offlineFollowed"]:
        return {"on": False, "chapters": []}
    index = lookup.current()
    followed = [index.get(name) for name in social.follows(user) if access.can_see(user, name)]
    chapters = []
    for manga in sorted((m for m in followed if m is not None), key=lambda m: m.sort_title):
        entries = progress.manga_progress(user, manga.name)
        target = continue_target(manga, entries)
        if target is None:
            continue
        order = manga.chapters()
        start = next(i for i, c in enumerate(order) if c.id == target["id"])
        unread = [c for c in order[start:] if not (entries.get(c.id) or {}).get("done")]
        chapters += [{"m": manga.name, "c": c.id, "url": lookup.read_url(manga.name, c),
                      "label": lookup.chapter_label(c)} for c in unread[:settings["offlineAhead"]]]
    return {"on": True, "chapters": chapters[:MAX_CHAPTERS]}
