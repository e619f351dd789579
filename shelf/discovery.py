"""The discovery feed (docs/discovery.md): suggestions for one user, from that user's own reading,
the catalog, the library's metadata, and aggregates of at least MIN_USERS users. Made here, on
request; nothing is sent anywhere.

Deterministic: the same data gives the same items in the same order (score, then title, then
name). Every item says why it is there. Nothing the user has started and nothing they dismissed
is suggested; at most LIMIT items.
"""
import threading
import time

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from catalog import groups, overrides, relations, store
from reader import access, dismissals, lookup, prefs, progress, social

from . import summaries

LIMIT = 50
MIN_USERS = 3  # another user's reading counts only inside an aggregate of at least this many users
TOP_READ = 10  # "what the user read most": the manga whose authors and tags are looked for
COMMON_TAG = (50, 20)  # a tag on more than max(50, 1/20 of the library) manga is too common to suggest by
REASONS_SHOWN = 3

WEIGHTS = {"finished": 100, "follows": 90, "group": 50, "author": 30, "tag": 6, "popular": 4}
# The reason a relation gives, whole for each kind of anchor, so that a translation can reorder it:
# {(relation type, anchor kind): text with the anchor's title as %(other)s}.
RELATION_TEXT = {
    ("sequel", "finished"): gettext_lazy("Sequel to %(other)s, which you finished"),
    ("sequel", "follows"): gettext_lazy("Sequel to %(other)s, which you follow"),
    ("prequel", "finished"): gettext_lazy("Prequel to %(other)s, which you finished"),
    ("prequel", "follows"): gettext_lazy("Prequel to %(other)s, which you follow"),
    ("side-story", "finished"): gettext_lazy("Side story of %(other)s, which you finished"),
    ("side-story", "follows"): gettext_lazy("Side story of %(other)s, which you follow"),
    ("spin-off", "finished"): gettext_lazy("Spin-off of %(other)s, which you finished"),
    ("spin-off", "follows"): gettext_lazy("Spin-off of %(other)s, which you follow"),
    ("parent", "finished"): gettext_lazy("The story that %(other)s comes from, which you finished"),
    ("parent", "follows"): gettext_lazy("The story that %(other)s comes from, which you follow"),
    ("alternate", "finished"): gettext_lazy("Alternate version of %(other)s, which you finished"),
    ("alternate", "follows"): gettext_lazy("Alternate version of %(other)s, which you follow"),
    ("adaptation", "finished"): gettext_lazy("Adaptation of %(other)s, which you finished"),
    ("adaptation", "follows"): gettext_lazy("Adaptation of %(other)s, which you follow"),
    ("source", "finished"): gettext_lazy("Source of %(other)s, which you finished"),
    ("source", "follows"): gettext_lazy("Source of %(other)s, which you follow"),
    ("same-universe", "finished"): gettext_lazy("Set in the same universe as %(other)s, which you finished"),
    ("same-universe", "follows"): gettext_lazy("Set in the same universe as %(other)s, which you follow"),
}

POPULAR_TTL = 30
_popular = (None, {})
_cache_lock = threading.Lock()
_features = (None, None, {}, {}, {})  # (index, catalog rev, {name: (authors, tags)}, by author, by tag)


def _strings(value):
    return [v.strip() for v in value if isinstance(v, str) and v.strip()] if isinstance(value, list) else []


def features(index):
    """({name: (authors, tags)}, {author: names}, {tag: names}) of the index, with overrides applied."""
    global _features
    rev = store.revision()
    cached = _features
    if cached[0] is index and cached[1] == rev:
        return cached[2:]
    with _cache_lock:
        by_name, by_author, by_tag = {}, {}, {}
        for name, manga in index.manga.items():
            meta = manga.meta if isinstance(manga.meta, dict) else {}
            override = overrides.get(name)
            hidden = set(override.get("hiddenTags", ()))
            authors = frozenset(a.casefold() for a in _strings(meta.get("authors")) + _strings(meta.get("artists")))
            # genres count as tags here: ComicInfo libraries say what a manga is about in Genre
            tags = frozenset(t.casefold() for t in _strings(meta.get("tags")) + _strings(meta.get("genres"))
                             + override.get("tags", []) if t not in hidden)
            by_name[name] = (authors, tags)
            for a in authors:
                by_author.setdefault(a, []).append(name)
            for t in tags:
                by_tag.setdefault(t, []).append(name)
        _features = (index, rev, by_name, by_author, by_tag)
        return _features[2:]


def _readers():
    """progress.readers_per_manga(MIN_USERS), reused for POPULAR_TTL seconds: a count of many users
    need not follow every page turn, and it walks everyone's progress."""
    global _popular
    now = time.monotonic()
    at, counts = _popular
    if at is None or now - at >= POPULAR_TTL:
        counts = progress.readers_per_manga(MIN_USERS)
        _popular = (now, counts)
    return counts


def reset():
    """Forget the cached counts (at start: they belong to the data of the previous start)."""
    global _popular
    _popular = (None, {})


def _relation_text(rel_type, other, kind):
    text = RELATION_TEXT.get((rel_type, kind))
    if text is not None:
        return text % {"other": other}
    # a relation type without its own wording
    return (_("%(type)s %(other)s, which you finished") if kind == "finished"
            else _("%(type)s %(other)s, which you follow")) % {"type": rel_type, "other": other}


def feed(user):
    """{"on": bool, "items": [{name, title, url, cover, reasons: [text], score}]}."""
    if not prefs.get_settings(user).get("discovery"):
        return {"on": False, "items": []}
    index = lookup.current()
    by_summary = summaries.by_name(index)
    done_by_manga = progress.done_ids(user)
    started = set(done_by_manga)
    follows = social.follows(user)
    skip = started | set(dismissals.dismissed(user))
    see = access.visible(user)  # a restriction hides a manga here as everywhere
    finished = set()
    weight = {}  # manga → chapters the user finished there (how much they read it)
    for name, done_ids in done_by_manga.items():
        summary = by_summary.get(name)
        if summary is None:
            continue
        done = len(summary.chapter_set.intersection(done_ids))
        weight[name] = done
        if summary.chapter_ids and done == len(summary.chapter_ids):
            finished.add(name)

    found = {}  # name → {score, reasons: [(weight, text)]}

    def suggest(name, score, text):
        if name in skip or name not in by_summary or not see(name):
            return
        item = found.setdefault(name, {"score": 0, "reasons": []})
        item["score"] += score
        item["reasons"].append((score, text))

    def title(name):
        summary = by_summary.get(name)
        return summary.title if summary else name

    anchors = [(m, "finished") for m in sorted(finished)]
    anchors += [(m, "follows") for m in sorted(follows - finished)]
    by_manga = {}  # name → the relations naming it, so each anchor looks only at its own
    for rel in relations.all_relations():
        by_manga.setdefault(rel["a"], []).append(rel)
        by_manga.setdefault(rel["b"], []).append(rel)
    for anchor, kind in anchors:
        for rel in relations.of(anchor, by_manga.get(anchor, [])):
            suggest(rel["other"], WEIGHTS[kind], _relation_text(rel["type"], title(anchor), kind))
    for name in sorted(follows - started):
        suggest(name, WEIGHTS["follows"], _("You follow it and have not started it"))
    for group in groups.all_groups():
        mine_in = [m for m in group["members"] if m in started or m in follows]
        if not mine_in:
            continue
        for member in group["members"]:
            others = [m for m in mine_in if m != member]
            if others:
                suggest(member, WEIGHTS["group"], _("In %(group)s, with %(title)s")
                        % {"group": group["name"], "title": title(others[0])})
    _by_likeness(index, weight, suggest, title)
    for name, count in sorted(_readers().items()):
        suggest(name, WEIGHTS["popular"] * min(count, 10), ngettext("Read by %(count)s people on this server",
                                                                    "Read by %(count)s people on this server", count)
                % {"count": count})

    ranked = sorted(found.items(), key=lambda kv: (-kv[1]["score"], title(kv[0]).casefold(), kv[0]))[:LIMIT]
    items = []
    for name, item in ranked:
        summary = by_summary[name]
        reasons = [text for _, text in sorted(item["reasons"], key=lambda r: (-r[0], r[1]))][:REASONS_SHOWN]
        items.append({"name": name, "title": summary.title, "url": summary.url, "cover": summary.cover,
                      "reasons": reasons, "score": round(item["score"], 2)})
    return {"on": True, "items": items}


def _by_likeness(index, weight, suggest, title):
    """Series sharing authors or tags with what the user read most, weighted by how much they read.
    Scores are summed first and each candidate gets one reason per kind: the manga read most that
    it shares an author (or a tag) with."""
    by_name, by_author, by_tag = features(index)
    top = sorted((n for n in weight if weight[n] > 0), key=lambda n: (-weight[n], n))[:TOP_READ]
    if not top:
        return
    most = weight[top[0]]
    common = max(COMMON_TAG[0], len(by_name) // COMMON_TAG[1])
    author_score, author_from, tag_score, tag_from = {}, {}, {}, {}
    for read in top:  # most read first, so the first anchor seen for a candidate is the best one
        share = weight[read] / most
        authors, tags = by_name.get(read, ((), ()))
        for author in sorted(authors):
            for other in by_author.get(author, ()):
                author_score[other] = author_score.get(other, 0) + share
                author_from.setdefault(other, read)
        for tag in sorted(tags):
            others = by_tag.get(tag, ())
            if len(others) > common:
                continue
            for other in others:
                tag_score[other] = tag_score.get(other, 0) + share
                tag_from.setdefault(other, (tag, read))
    for other, score in author_score.items():
        read = author_from[other]
        if other != read:
            suggest(other, WEIGHTS["author"] * score, _("Same author or artist as %(title)s") % {"title": title(read)})
    for other, score in tag_score.items():
        tag, read = tag_from[other]
        if other != read:
            suggest(other, WEIGHTS["tag"] * score,
                    _("Tagged %(tag)s, like %(title)s") % {"tag": tag, "title": title(read)})
