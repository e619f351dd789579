"""Per-user restrictions, for a shared household: the `restrictions` section of db.json.

restrictions[user] = {"only": [manga names] (absent: every manga), "excludeTags": [tags],
                     "libraries": [library names] (absent: every library)}.
An admin sets them (Settings → Admin → Users → Access); a user without an entry sees everything.

`can_see(user, manga_name)` is the one rule every route asks, directly or through
`lookup.manga_or_404(name, user=...)`, and /lib/ and /thumb/ through the hook this module registers
with library.guard. A manga the user may not see is answered exactly like a missing one (404).
It is called once per manga in lists, so it is cheap: a user without restrictions costs one dict
lookup; a restricted user's rule is compiled once per stored rule and library index (the names
their tags hide, found once), after which a call is two set lookups. For a whole list,
`visible(user)` returns the predicate once. Figures: `python -m bench.access_bench`.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from accounts import users as accounts_users
from library import index as library_index
from library import libraries as library_libraries
from library import meta as library_meta
from mangacircus import db
from mangacircus import moves as moved
from mangacircus.errors import Invalid
from mangacircus.moves import Move

if TYPE_CHECKING:
    from accounts.users import User
    from library.index import Index
    from library.model import Manga

    UserRef = str | User  # a user's name, or the request's account dict

# A compiled rule: (the names allowed, or None for all but the hidden ones; the names hidden by their tags).
Rule = tuple[frozenset[str] | None, frozenset[str]]

MAX_NAMES = 10_000
MAX_TAGS = 200

_compiled: dict[str, tuple[dict[str, Any], Index, Rule]] = {}  # user → (the stored rule, the Index, its Rule)
_tags: dict[str, tuple[Manga, frozenset[str]]] = {}  # manga name → (Manga object, its casefolded tags)
_tags_lock = threading.Lock()


def forget_user(name: str) -> None:
    db.section("restrictions").pop(name, None)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved (under db.lock()): a user allowed only some manga keeps them renamed."""
    for stored in db.section("restrictions").values():
        if isinstance(stored, dict) and isinstance(stored.get("only"), list) and moved.names(stored["only"], moves):
            stored["only"].sort()
    _compiled.clear()


def validate(data: dict[str, Any]) -> None:
    for name, rule in data.get("restrictions", {}).items():
        if not isinstance(rule, dict):
            raise ValueError(f'the restrictions of "{name}" must be an object')


def _name(user: UserRef) -> str:
    return user.get("name") if isinstance(user, dict) else user


def _rule(user: UserRef) -> Rule | None:
    """(the names allowed, or None for all but the hidden ones; the names hidden by their tags)
    of the user, or None without restrictions."""
    name = _name(user)
    with db.lock():
        stored = db.section("restrictions").get(name)
    if not stored:
        return None
    current = library_index.current()
    hit = _compiled.get(name)
    if hit is not None and hit[0] is stored and hit[1] is current:
        return hit[2]
    only = stored.get("only")
    excluded = frozenset(t.casefold() for t in stored.get("excludeTags") or () if isinstance(t, str))
    hidden = frozenset(m.name for m in current.manga.values() if manga_tags(m) & excluded) if excluded else frozenset()
    if isinstance(stored.get("libraries"), list):
        shelves = set(stored["libraries"])
        hidden |= frozenset(n for n in current.manga if getattr(library_libraries.of(n, current), "name", None)
                            not in shelves)
    rule = (frozenset(only) - hidden if isinstance(only, list) else None, hidden)
    _compiled[name] = (stored, current, rule)
    return rule


def manga_tags(manga: Manga) -> frozenset[str]:
    """The manga's tags, genres and its chapters' tags, casefolded, cached per Manga object (the index
    never changes one). Genres count: a hidden "Adult" hides the manga whichever list says it."""
    hit = _tags.get(manga.name)
    if hit is not None and hit[0] is manga:
        return hit[1]
    meta = manga.meta if isinstance(manga.meta, dict) else {}
    tags = frozenset(t.casefold() for t in library_meta.strings(meta, "tags") + library_meta.genres(meta)
                     + library_meta.chapter_tags(meta))
    with _tags_lock:
        _tags[manga.name] = (manga, tags)
    return tags


def _allows(rule: Rule, name: str) -> bool:
    allowed, hidden = rule
    return name in allowed if allowed is not None else name not in hidden


def on_scan(current: Index, report: dict[str, Any]) -> None:
    """Scan hook: forget the compiled rules (they hold the previous index) and removed manga's tags."""
    _compiled.clear()
    with _tags_lock:
        for name in [n for n in _tags if current.get(n) is None]:
            del _tags[name]


def can_see(user: UserRef, manga_name: str) -> bool:
    """May `user` (a name, or the request's account dict) see the manga named `manga_name`?"""
    rule = _rule(user)
    return True if rule is None else _allows(rule, manga_name)


def visible(user: UserRef) -> Callable[[str], bool]:
    """The predicate name → bool for one user, for filtering a whole list."""
    return predicate(rule(user))


def rule(user: UserRef) -> Rule | None:
    """The user's compiled rule, or None without restrictions. It is the same object while neither
    the stored rule nor the library index changes (and a new one after either), so a cache of what
    the user sees can keep it and compare it by identity."""
    return _rule(user)


def predicate(rule: Rule | None) -> Callable[[str], bool]:
    """The predicate name → bool of a rule from `rule(user)`."""
    if rule is None:
        return lambda name: True
    allowed, hidden = rule
    return allowed.__contains__ if allowed is not None else (lambda name: name not in hidden)


def restricted(user: UserRef) -> bool:
    """Whether the user has any restriction at all."""
    return _rule(user) is not None


accounts_users.on_restricted_check(restricted)  # the Users list's filter


def restrictions(user: UserRef) -> dict[str, Any]:
    """{"only": [names] or None, "excludeTags": [tags], "libraries": [names] or None} as stored (copies)."""
    with db.lock():
        stored = db.section("restrictions").get(_name(user)) or {}
        only, shelves = stored.get("only"), stored.get("libraries")
        return {"only": list(only) if isinstance(only, list) else None,
                "excludeTags": list(stored.get("excludeTags") or []),
                "libraries": list(shelves) if isinstance(shelves, list) else None}


def set_restrictions(user: str, only: list[str] | None, exclude_tags: list[str],
                     libraries: list[str] | None = None) -> dict[str, Any]:
    """Store a user's restrictions (None and [] lift them). On disk before it returns, as a
    security change. `only` names manga (the caller checks they exist); tags are any strings;
    `libraries` the libraries the user may see (None: all of them)."""
    if only is not None and (not isinstance(only, list) or len(only) > MAX_NAMES
                             or not all(isinstance(n, str) and n for n in only)):
        raise Invalid(_("only must be a list of at most %(max_names)s manga names, or null") % {"max_names": MAX_NAMES})
    if not isinstance(exclude_tags, list) or len(exclude_tags) > MAX_TAGS or not all(
            isinstance(t, str) and 0 < len(t.strip()) <= 100 for t in exclude_tags):
        raise Invalid(_("excludeTags must be a list of at most %(max_tags)s tags of 1 to 100 characters")
                      % {"max_tags": MAX_TAGS})
    names = [lib.name for lib in library_libraries.all()]
    if libraries is not None:
        if not isinstance(libraries, list) or not all(isinstance(n, str) for n in libraries):
            raise Invalid(_("libraries must be a list of library names, or null"))
        unknown = [n for n in libraries if n not in names]
        if unknown:
            raise Invalid(_("no library named %(name)s (the libraries: %(libraries)s)")
                          % {"name": unknown[0], "libraries": ', '.join(names)})
        if set(libraries) >= set(names):
            libraries = None  # every library: no restriction
    tags = sorted({t.strip() for t in exclude_tags}, key=str.casefold)
    with db.security_change("restrictions"):
        section = db.section("restrictions")
        if only is None and not tags and libraries is None:
            section.pop(user, None)
        else:
            section[user] = {**({"only": sorted(set(only))} if only is not None else {}), "excludeTags": tags,
                             **({"libraries": [n for n in names if n in libraries]} if libraries is not None else {})}
    return restrictions(user)
