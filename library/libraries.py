"""The libraries: LIBRARIES (or the one LIBRARY, named "Library"), each a folder of manga folders
with its own default direction, scan, snapshot and availability (docs/library.md, "Several libraries").

A manga's id is its folder name in every library, so ids stay unique across libraries by a rule
the scan keeps: a folder whose name an earlier library (in LIBRARIES' order) already holds is
left out, with a `duplicate-name` warning naming both. Which library holds a manga is the
index's `library_of` (Index.library_of_manga); the files of a manga are looked up under its
library's folder only.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from . import index


@dataclass(frozen=True)
class Library:
    name: str
    root: Path
    direction: str
    position: int  # in LIBRARIES' order, from 0

    @property
    def slug(self) -> str:
        """What names its files in DATA and its ids in the apps: the first library keeps the names of
        a single-library install (library-index.json, the Komga id "mangacircus"), so adding a second
        library changes nothing for the first."""
        if self.position == 0:
            return ""
        return f"{self.position}-" + (re.sub(r"[^a-z0-9]+", "-", self.name.casefold()).strip("-") or "library")

    def data_file(self, stem: str) -> str:
        """`library-index.json` → `library-index-1-comics.json` for the second library, and so on."""
        return f"{stem}.json" if not self.slug else f"{stem}-{self.slug}.json"


_made: tuple[tuple[object, ...], list[Library]] | None = None


def all() -> list[Library]:
    """The libraries in LIBRARIES' order. One library is LIBRARY itself, read now: what a single
    folder install (or a test) sets there is what is scanned. Made again only when the settings
    change (it is asked on every /lib/ request)."""
    global _made
    configured = getattr(settings, "LIBRARIES", None) or {}
    directions = getattr(settings, "LIBRARY_DIRECTIONS", None) or {}
    key = (settings.LIBRARY, settings.DEFAULT_DIRECTION, tuple(configured.items()), tuple(directions.items()))
    if _made is not None and _made[0] == key:
        return list(_made[1])
    if len(configured) <= 1:
        name = next(iter(configured), "Library")
        made = [] if settings.LIBRARY is None else [
            Library(name, Path(settings.LIBRARY), directions.get(name, settings.DEFAULT_DIRECTION), 0)]
    else:
        made = [Library(name, Path(root), directions.get(name, settings.DEFAULT_DIRECTION), i)
                for i, (name, root) in enumerate(configured.items())]
    _made = (key, made)
    return list(made)


def several() -> bool:
    return len(all()) > 1


def get(name: object) -> Library | None:
    return next((lib for lib in all() if lib.name == name), None) if isinstance(name, str) else None


def of(manga_name: str, current: index.Index | None = None) -> Library | None:
    """The library holding the manga (the first library for a name the index does not know:
    a path is then looked up there, and found only if it is there)."""
    libraries = all()
    if not libraries:
        return None
    held = (current or index.current()).library_of.get(manga_name)
    return next((lib for lib in libraries if lib.name == held), libraries[0])


def root_of(manga_name: str) -> Path | None:
    lib = of(manga_name)
    return lib.root if lib else None
