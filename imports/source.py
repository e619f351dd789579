"""What an import reads from another server, in one shape whatever the server: its users, their
positions, collections, ratings and want-to-read, and what it holds that is not imported (each with
its reason). A series is named as the other server names it ({name, title}); the plan finds it here."""
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Source:
    kind: str                   # "komga", "mihon"
    file: str                   # what it was read from, for the plan's heading
    users: dict[str, dict[str, Any]] = field(default_factory=dict)  # key → {key, label, name, admin}
    progress: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)      # read but unusable: not found
    ignored: list[dict[str, str]] = field(default_factory=list)      # understood, not imported
    overrides: list[dict[str, Any]] = field(default_factory=list)    # {series, fields}: catalog overrides
    collections: list[dict[str, Any]] = field(default_factory=list)
    ratings: list[dict[str, Any]] = field(default_factory=list)
    wants: list[dict[str, Any]] = field(default_factory=list)
    readlists: list[dict[str, Any]] = field(default_factory=list)

    def add_user(self, key, label, name, admin=False):
        self.users[key] = {"key": key, "label": label, "name": name, "admin": bool(admin)}

    def add_progress(self, user, *, path, series, title, number, page, pages, done, t, mangadex=None, chapter=None,
                     what=None):
        """One position: `path` below the library's root (or None), `page` from 0, `t` in ms;
        `mangadex` and `chapter` the MangaDex ids of the manga and chapter when known; `what` how
        the plan names it (else the path or the series)."""
        self.progress.append({"user": user, "path": path, "series": series, "title": title, "number": number,
                              "page": page, "pages": pages, "done": done, "t": t, "mangadex": mangadex,
                              "chapter": chapter, "what": what})

    def add_override(self, series, fields):
        """Metadata edited by hand there: {title, description, direction, tags, altTitles}."""
        self.overrides.append({"series": series, "fields": fields})

    def add_collection(self, owner, name, series, *, ordered, shared, summary=""):
        """A collection: `owner` a user key, or None for one of the whole server (shared, which the
        admins edit here); `series` in its order, each a series name or title."""
        self.collections.append({"owner": owner, "name": name, "series": list(series), "ordered": bool(ordered),
                                 "shared": bool(shared), "summary": summary or ""})

    def add_readlist(self, owner, name, books, *, shared, summary=""):
        """A read list: `owner` a user key or None (the whole server's); `books` in its order, each
        {path, series, title, number} as add_progress names a chapter, and `what` for the plan."""
        self.readlists.append({"owner": owner, "name": name, "books": list(books), "shared": bool(shared),
                               "summary": summary or ""})

    def add_rating(self, user, series, stars):
        """`stars` 1 to 5 (a source's own scale converted by its reader, rounded)."""
        self.ratings.append({"user": user, "series": series, "stars": stars})

    def add_want(self, user, series):
        self.wants.append({"user": user, "series": series})

    def skip(self, kind, what, reason):
        self.skipped.append({"kind": kind, "what": what, "reason": reason})

    def not_imported(self, kind, what, reason):
        self.ignored.append({"kind": kind, "what": what, "reason": reason})
