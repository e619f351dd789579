"""The dry run: what a Source would change here, each line with its reason (docs/import.md).

A plan lists what is matched (an account that exists, a position that lands on a chapter here),
what is created (a new account, a position where there was none or an older one), what is
unchanged (already so here: a second import of the same file changes nothing), what was not found
and what is not imported. `writes` and `accounts` are what apply.py hands to the owners.
"""
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from accounts import users
from catalog import overrides as catalog_overrides
from library import index as library_index
from mangacircus.errors import Conflict, Invalid
from reader import access, lookup, progress

from . import plan_lists

SHOWN = 300  # lines per list in the plan; the counts are always whole


def _fold(text):
    return unicodedata.normalize("NFKC", str(text)).casefold().strip()


@dataclass
class Plan:
    source: str
    file: str
    lists: dict[str, list[dict[str, str]]] = field(
        default_factory=lambda: {"matched": [], "created": [], "not_found": [], "not_imported": []})
    counts: dict[str, int] = field(
        default_factory=lambda: {"matched": 0, "created": 0, "unchanged": 0, "not_found": 0, "not_imported": 0})
    accounts: list[dict[str, Any]] = field(default_factory=list)       # new ones: {name, label}
    writes: list[tuple[str, str, str, dict[str, Any]]] = field(default_factory=list)
    overrides: list[tuple[Any, dict[str, Any]]] = field(default_factory=list)  # (Manga, the whole override)
    collections: list[dict[str, Any]] = field(default_factory=list)  # new ones, or {id, members} to add
    ratings: list[tuple[str, str, int]] = field(default_factory=list)  # (user, manga, stars)
    wants: list[tuple[str, str]] = field(default_factory=list)         # (user, manga)
    readlists: list[dict[str, Any]] = field(default_factory=list)  # as collections, items [(manga, chapter id)]

    def line(self, kind, what, target, reason):
        self.counts[kind] += 1
        if len(self.lists[kind]) < SHOWN:
            self.lists[kind].append({"what": what, "target": target, "reason": reason})

    @property
    def changes(self):
        return (len(self.accounts) + len(self.writes) + len(self.overrides) + len(self.collections)
                + len(self.ratings) + len(self.wants) + len(self.readlists))

    def as_dict(self):
        return {"source": self.source, "file": self.file, "counts": dict(self.counts), "changes": self.changes,
                "shown": SHOWN, **{k: list(v) for k, v in self.lists.items()}}


class Library:
    """The index looked up the three ways an import needs: a file's path, a manga's name or title,
    and a chapter's number in one manga."""

    def __init__(self, index):
        self.by_path, self.by_name, self.by_folded_path, self.by_mangadex, self.by_chapter = {}, {}, {}, {}, {}
        for manga in index.sorted():
            for name in (manga.name, manga.title):
                self.by_name.setdefault(_fold(name), manga)
            sources = manga.meta.get("sources") if isinstance(manga.meta, dict) else None
            if isinstance(sources, dict) and isinstance(sources.get("mangadex"), str):
                self.by_mangadex.setdefault(sources["mangadex"], manga)
            for chapter in manga.chapters():
                for version in chapter.versions:
                    module = version.meta.get("module", version.meta.get("source"))
                    if module == "mangadex" and isinstance(version.meta.get("sourceId"), str):
                        self.by_chapter.setdefault((manga.name, version.meta.get("sourceId")), (chapter, version))
                    for path in {version.path, version.archive} - {None}:
                        self.by_path.setdefault(path, (manga, chapter, version))
                        self.by_folded_path.setdefault(_fold(path), (manga, chapter, version))

    def manga_named(self, name):
        return self.by_name.get(_fold(name))

    def find(self, entry):
        """((manga, chapter, version or None), how) or (None, why not)."""
        if entry["path"]:
            hit = self.by_path.get(entry["path"]) or self.by_folded_path.get(_fold(entry["path"]))
            if hit:
                return hit, "by file path"
        manga = self.by_mangadex.get(entry.get("mangadex"))
        how = "by MangaDex id"
        if manga is None:
            how = "by title"
            manga = self.by_name.get(_fold(entry["series"])) or (
                self.by_name.get(_fold(entry["title"])) if entry.get("title") else None)
        if manga is None:
            missing = f"no file {entry['path']} here, and" if entry["path"] else "no manga with its MangaDex id, and"
            return None, f"{missing} no manga named {entry['series']}"
        hit = self.by_chapter.get((manga.name, entry.get("chapter")))
        if hit:
            return (manga, *hit), f"{how}, the chapter by its MangaDex id"
        wanted = _number(entry["number"])
        if wanted is None:
            return None, f"no chapter of {manga.name} has its id, and it has no number"
        chapters = [c for c in manga.chapters() if not c.key.startswith("x") and _number(c.key) == wanted]
        if len(chapters) != 1:
            why = "no chapter" if not chapters else f"{len(chapters)} chapters"
            return None, f"{why} numbered {entry['number']} in {manga.name}"
        return (manga, chapters[0], None), "by series name and number" if entry["path"] else f"{how} and number"


def _number(text):
    """"12", "012", "12.0" → (12, ""); "12.5" → (12, "5"); else None."""
    whole, _, fraction = str(text or "").strip().partition(".")
    if not whole.isdigit() or (fraction and not fraction.isdigit()):
        return None
    return int(whole), fraction.rstrip("0")


def build(source, names=None, index=None):
    """The Plan of `source`; `names` maps a source user (key or label) to an account here."""
    names = names or {}
    plan = Plan(source.kind, source.file)
    library = Library(index or library_index.current())
    account_of = _accounts(source, names, plan)
    positions = {}
    for entry in source.progress:
        user = account_of.get(entry["user"])
        label = source.users.get(entry["user"], {}).get("label", "?")
        what = f"{label}: {entry.get('what') or entry['path'] or entry['series']}"
        if user is None:
            plan.line("not_found", what, "", "its user is not in the database")
            continue
        hit, how = library.find(entry)
        if hit is None:
            plan.line("not_found", what, "", how)
            continue
        manga, chapter, version = hit
        if users.exists(user) and not access.visible(user)(manga.name):
            plan.line("not_found", what, "", f"{manga.name} is hidden from {user} here")
            continue
        version = version or chapter.ranked()[0]
        pages = version.page_count
        page = entry["page"] if not entry["pages"] else progress.map_page(entry["page"], entry["pages"], pages)
        new = {"v": version.name, "p": min(page, max(pages - 1, 0)), "n": pages, "t": entry["t"],
               "done": entry["done"], "shift": []}
        if user not in positions:
            positions[user] = progress.all_progress(user) if users.exists(user) else {}
        old = positions[user].get(manga.name, {}).get(chapter.id)
        merged = progress.merged(old, new)
        target = f"{user}: {manga.name} · {lookup.chapter_label(chapter)}"
        if merged is None:
            plan.counts["unchanged"] += 1
            continue
        positions[user].setdefault(manga.name, {})[chapter.id] = merged
        plan.writes.append((user, manga.name, chapter.id, new))
        kind = "created" if old is None else "matched"
        state = "finished" if merged["done"] else f"page {merged['p'] + 1} of {pages}"
        reason = f"{how}; {state}"
        plan.line(kind, what, target, reason if old is None else f"{reason}; newer than the position here")
    for wanted in source.overrides:
        _override(plan, library, wanted)
    plan_lists.plan_collections(plan, library, source, account_of)
    plan_lists.plan_ratings(plan, library, source, account_of)
    plan_lists.plan_wants(plan, library, source, account_of)
    plan_lists.plan_readlists(plan, library, source, account_of)
    for item in source.skipped:
        plan.line("not_found", f"{item['kind']}: {item['what']}", "", item["reason"])
    for item in source.ignored:
        plan.line("not_imported", f"{item['kind']}: {item['what']}", "", item["reason"])
    return plan


def _override(plan, library, wanted):
    """Metadata edited by hand there, as this manga's catalog override: each field it sets that the
    override here does not already hold (a list gains what it lacks)."""
    what = f"metadata: {wanted['series']}"
    manga = library.by_name.get(_fold(wanted["series"]))
    if manga is None:
        plan.line("not_found", what, "", f"no manga named {wanted['series']}")
        return
    existing = catalog_overrides.get(manga.name)
    merged, changed = dict(existing), []
    for key, value in wanted["fields"].items():
        if isinstance(value, list):
            value = list(existing.get(key, [])) + [v for v in value if v not in existing.get(key, [])]
        if existing.get(key) != value:
            merged[key] = value
            changed.append(key)
    if not changed:
        plan.counts["unchanged"] += 1
        return
    plan.overrides.append((manga, merged))
    fields = ", ".join({"altTitles": "alternate titles"}.get(k, k) for k in changed)
    kind = "matched" if existing else "created"
    plan.line(kind, what, f"catalog override of {manga.name}", f"edited by hand there: {fields}")


def _accounts(source, names, plan):
    """{source user key: account name here}, with the accounts' lines in the plan."""
    found = {}
    for key, user in source.users.items():
        wanted = names.get(key) or names.get(user["label"]) or user["name"]
        stored = users.stored_name(wanted)
        role = " (an admin there: not made an admin here)" if user["admin"] else ""
        if stored:
            plan.line("matched", f"user {user['label']}", f"account {stored}", "an account of that name exists")
            found[key] = stored
            continue
        try:
            name = users.check_new_name(wanted)
        except (Invalid, Conflict) as e:
            plan.line("not_found", f"user {user['label']}", "", f"no account can be named {wanted}: {e}")
            continue
        if any(users.fold(a["name"]) == users.fold(name) for a in plan.accounts):
            plan.line("matched", f"user {user['label']}", f"account {name}", "the same new account as another user")
            found[key] = name
            continue
        plan.accounts.append({"name": name, "label": user["label"]})
        plan.line("created", f"user {user['label']}", f"account {name}",
                  f"a new account; its one-time password is shown once, after the import{role}")
        found[key] = name
    return found
