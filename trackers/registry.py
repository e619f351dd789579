"""The trackers, by key, in the order Settings → Apps lists them."""
from .anilist import AniList
from .base import Tracker
from .mangaupdates import MangaUpdates
from .myanimelist import MyAnimeList

KINDS: dict[str, type[Tracker]] = {"anilist": AniList, "myanimelist": MyAnimeList, "mangaupdates": MangaUpdates}
ALL = tuple(KINDS)


def get(key: str) -> Tracker | None:
    """The tracker `key`, when it is offered on this server (its settings are read now)."""
    cls = KINDS.get(key)
    tracker = cls() if cls else None
    return tracker if tracker is not None and tracker.enabled() else None


def offered() -> list[Tracker]:
    return [t for t in (cls() for cls in KINDS.values()) if t.enabled()]
