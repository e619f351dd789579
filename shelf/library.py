"""The library as one user sees it: filtered, sorted cards with read counts, and the
continue-reading row. Built from the cached summaries plus the user's own progress and follows.
"""
import heapq

from django.utils.translation import gettext_lazy

from reader import access, lookup, notes, progress, ratings, social

from . import filters, summaries

SORTS = {  # the labels are translated when shown (docs/translating.md)
    "title": gettext_lazy("Title"),
    "last": gettext_lazy("Last read"),
    "added": gettext_lazy("Recently added"),
    "unread": gettext_lazy("Unread chapters"),
    "rating": gettext_lazy("Rating (everyone's)"),
    "myrating": gettext_lazy("My rating"),
}
CONTINUE_ROW = 12
RECENT_ROW = 12


def continue_target(manga, entries):
    """Where "Continue" leads in a manga, given the user's progress {chapter id: entry}.

    The chapter read last, if it is not finished (resumed in the version that was read); else the
    first unfinished chapter after it; with no progress, the first chapter. None when caught up.
    """
    chapters = manga.chapters()
    if not chapters:
        return None
    known = {c.id: i for i, c in enumerate(chapters)}
    read = [(e.get("t") or 0, known[cid], cid) for cid, e in entries.items() if cid in known]
    if not read:
        return _target(manga, chapters[0], "start", None)
    _, position, cid = max(read)
    entry = entries[cid]
    if not entry.get("done"):
        chapter = chapters[position]
        version = entry.get("v") if any(v.name == entry.get("v") for v in chapter.versions) else None
        target = _target(manga, chapter, "resume", version)
        target["page"], target["pages"] = entry.get("p", 0), entry.get("n")
        return target
    for chapter in chapters[position + 1:]:
        if not (entries.get(chapter.id) or {}).get("done"):
            return _target(manga, chapter, "next", None)
    return None


def _target(manga, chapter, action, version):
    return {"action": action, "id": chapter.id, "title": lookup.chapter_name(chapter),
            "url": lookup.read_url(manga.name, chapter, version), "version": version}


_states = {}  # user → (progress stamp, access rule, state, index), for the index in _states_index
_states_index = [None]


def _user_state(user, index, rule):
    """{manga: (read count, last read ms)} for the manga the user has progress in and may see (do
    not change it); `rule` is access.rule(user).

    Kept per user until the user's progress is written, the index changes or the user's restrictions
    change (a new rule object): the stamp is read before the progress, so a write in between only
    makes the next request compute it again."""
    stamp = progress.stamp(user)
    if _states_index[0] is not index:
        _states.clear()  # drop the old index with the states made from it
        _states_index[0] = index
    hit = _states.get(user)
    if (hit is not None and hit[0][0] == stamp[0] and hit[0][1] is stamp[1] and hit[1] is rule
            and hit[3] is index):
        return hit[2]
    state = _compute_state(user, index, access.predicate(rule))
    _states[user] = (stamp, rule, state, index)
    return state


def _compute_state(user, index, sees):
    by_name = summaries.by_name(index)

    def chapters_of(name):
        summary = by_name.get(name)
        return summary.chapter_set if summary is not None and sees(name) else None

    return progress.read_state(user, chapters_of)


_views = {}  # id(rule) → (rule, visible, derived), for the ordering in _views_ordered
_views_ordered = [None]
MAX_VIEWS = 256
MAX_DERIVED = 64


def _visible(ordered, rule):
    """The summaries of `ordered` that `rule` lets through, and a dict for what is derived from them
    alone (the Recently added row, the facets of a filter), shared by the users of one rule.

    Both are kept while `ordered` (a new tuple after a scan that changed something or a catalog
    change) and the rule object (a new one when the restrictions change) are the same: the facets
    and the row were a third of the library page's time, and a progress write changes neither."""
    if _views_ordered[0] is not ordered or len(_views) >= MAX_VIEWS:
        _views.clear()  # drop what an older index or catalog made
        _views_ordered[0] = ordered
    hit = _views.get(id(rule))
    if hit is not None and hit[0] is rule:
        return hit[1], hit[2]
    if rule is None:
        visible = ordered
    else:
        sees = access.predicate(rule)
        visible = [s for s in ordered if sees(s.name)]
    derived = {}
    _views[id(rule)] = (rule, visible, derived)
    return visible, derived


def _derive(derived, key, make):
    """derived[key], made by make() the first time (do not change what it returns)."""
    value = derived.get(key)
    if value is None:
        if len(derived) >= MAX_DERIVED:
            derived.clear()
        value = derived[key] = make()
    return value


def _matches(summary, terms):
    return all(term.matches(summary) for term in terms)


def library(user, q="", sort="title", offset=0, limit=None, card=None):
    """The user's library: {total, count, offset, manga: [card], continue: [item], recent: [item],
    filters: [chip], facets: {genres, tags, statuses}, unread, unavailable}; `unavailable`: LIBRARY
    could not be read at the last scan, and this is the library as it was.

    `total` counts the manga matching `q` (shelf/filters.py: plain words, genre:, tag:, author:, status:);
    `count` is the whole library the user may see; `manga` is the slice [offset:offset+limit] in
    the chosen sort, titles breaking ties. The continue-reading and recently-added rows come only
    with the first page of an unfiltered library. `card(summary, (read, last read) or None,
    following)` makes each entry of `manga` (default: the card dict below).
    """
    card = card or _card
    index = lookup.current()
    rule = access.rule(user)
    ordered, derived = _visible(summaries.ordered(index), rule)
    state = _user_state(user, index, rule)
    following = social.follows(user)
    terms = filters.parse(q)
    rows = [(pos, s) for pos, s in enumerate(ordered) if not terms or _matches(s, terms)]

    def unread(s):
        return len(s.chapter_ids) - state.get(s.name, (0, 0))[0]

    if sort == "last":
        rows.sort(key=lambda r: (-state.get(r[1].name, (0, -1))[1], r[0]))
    elif sort == "added":
        rows.sort(key=lambda r: (-r[1].added, r[0]))
    elif sort == "unread":
        rows.sort(key=lambda r: (-unread(r[1]), r[0]))
    elif sort in ("rating", "myrating"):
        rows.sort(key=_rating_key(user, sort))
    end = None if limit is None else offset + limit
    cards = [card(s, state.get(s.name), s.name in following) for _, s in rows[offset:end]]
    first = not terms and offset == 0
    return {
        "total": len(rows), "count": len(ordered), "offset": offset, "manga": cards,
        "continue": continue_row(user, index, state) if first else [],
        "recent": _derive(derived, ("recent",), lambda: recent_row(ordered)) if first else [],
        "filters": filters.chips(terms, sort),
        "facets": (_derive(derived, ("facets", filters.text(terms), sort),
                           lambda: filters.facets((s for _, s in rows), terms, sort))
                   if offset == 0 else filters.EMPTY_FACETS),
        "unread": notes.unread_count(user),
        "unavailable": index.unavailable is not None,
    }


def _rating_key(user, sort):
    """Highest first, the unrated last; everyone's: the mean, then how many rated; mine: my stars,
    then everyone's mean; titles break ties."""
    rated = ratings.all_ratings(user)
    none = {"mine": 0, "count": 0, "mean": 0}

    def key(row):
        r = rated.get(row[1].name, none)
        if sort == "rating":
            return (-(r["mean"] or 0), -r["count"], row[0])
        return (-r["mine"], -(r["mean"] or 0), row[0])
    return key


def recent_row(ordered):
    """The manga added last, newest first (the library page's "Recently added" row)."""
    newest = heapq.nsmallest(RECENT_ROW, ordered, key=lambda s: (-s.added, s.title.casefold()))
    return [{"name": s.name, "title": s.title, "url": s.url, "cover": s.cover, "added": s.added,
             "chapters": len(s.chapter_ids)} for s in newest]


def _card(summary, state, following):
    read, last = state or (0, None)
    return {
        "name": summary.name, "title": summary.title, "url": summary.url, "cover": summary.cover,
        "chapters": len(summary.chapter_ids), "read": read, "unread": len(summary.chapter_ids) - read,
        "lastRead": last, "added": summary.added, "updated": summary.updated, "following": following,
    }


def continue_row(user, index, state):
    """The manga read most recently that have something to continue, newest first."""
    items = []
    by_name = summaries.by_name(index)
    for name, (_, last) in sorted(state.items(), key=lambda kv: -kv[1][1]):
        manga = index.get(name)
        target = continue_target(manga, progress.manga_progress(user, name)) if manga else None
        if target is None:
            continue
        summary = by_name[name]
        items.append({"name": name, "title": summary.title, "url": summary.url, "cover": summary.cover,
                      "lastRead": last, "target": target})
        if len(items) == CONTINUE_ROW:
            break
    return items
