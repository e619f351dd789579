"""What an import reads from another server, in one shape whatever the server: its users, their
positions, and what it holds that is not imported (each with its reason)."""
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

    def skip(self, kind, what, reason):
        self.skipped.append({"kind": kind, "what": what, "reason": reason})

    def not_imported(self, kind, what, reason):
        self.ignored.append({"kind": kind, "what": what, "reason": reason})
