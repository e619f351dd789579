"""Read lists as one user sees them (data of /api/readlists and of the read list pages): only
chapters the user may see and that are in the library, counts included, each with its read state."""
from django.utils.translation import gettext as _

from mangacircus.errors import Invalid
from reader import lookup, progress, readlists

from . import summaries


def rows(account, item, index=None):
    """Each chapter the account sees, in the list's order: {m, c, manga, title, label, url, cover, read}."""
    index = index if index is not None else lookup.current()
    by_name = summaries.by_name(index)
    shown = readlists.items(account, item, readlists.in_index(index))
    read = {}
    for manga in {m for m, _chapter in shown}:
        read[manga] = progress.manga_progress(account["name"], manga)
    out = []
    for m, c in shown:
        manga, chapter = index.get(m), index.get(m).chapter(c)
        entry = read[m].get(c)
        out.append({"m": m, "c": c, "manga": manga.title, "title": chapter.title,
                    "label": lookup.chapter_label(chapter), "url": lookup.read_url(m, chapter) + f"?list={item['id']}",
                    "cover": by_name[m].cover if m in by_name else None, "read": bool(entry and entry.get("done"))})
    return out


def summary(account, item, shown=None):
    """{id, name, summary, shared, owner, editable, count, read, cover, url, modified}."""
    shown = shown if shown is not None else rows(account, item)
    return {"id": item["id"], "name": item["name"], "summary": item["summary"], "shared": item["shared"],
            "owner": item["owner"], "editable": readlists.can_edit(account, item), "count": len(shown),
            "read": sum(1 for r in shown if r["read"]), "cover": shown[0]["cover"] if shown else None,
            "url": f"readlists/{item['id']}/", "modified": item["modified"]}


def listing(account):
    index = lookup.current()
    return [summary(account, item, rows(account, item, index)) for item in readlists.visible(account)]


def detail(account, rid):
    item = readlists.get(account, rid)
    shown = rows(account, item)
    unread = next((r for r in shown if not r["read"]), None)
    return {**summary(account, item, shown), "items": shown,
            "next": {k: unread[k] for k in ("url", "manga", "label")} if unread else None}


def chapter_items(account, value):
    """The chapters a body's `items` names ([{m, c}] or [{m, book}] for a whole book, or [{m}] for
    every chapter), each checked (404 for one missing or hidden) -> [(manga, chapter id)]."""
    if not isinstance(value, list) or not value or not all(isinstance(i, dict) for i in value):
        raise Invalid(_("items must be a list of {m, c}, {m, book} or {m}"))
    index = lookup.current()
    out = []
    for entry in value:
        manga = lookup.manga_or_404(entry.get("m"), index, user=account["name"])
        if entry.get("c") is not None:
            out.append((manga.name, lookup.chapter_or_404(manga, entry["c"]).id))
        elif entry.get("book") is not None:
            chosen = [c for c in manga.chapters() if c.book == entry["book"]]
            if not chosen:
                raise Invalid(_("%(title)s has no book %(book)s") % {"title": manga.title, "book": entry['book']})
            out += [(manga.name, c.id) for c in chosen]
        else:
            out += [(manga.name, c.id) for c in manga.chapters()]
    return out
