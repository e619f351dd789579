"""The metadata providers, by key, in the order METADATA_PROVIDERS names them."""
from django.conf import settings

from .anilist import AniList
from .base import Provider, Record
from .mangadex import MangaDex
from .mangaupdates import MangaUpdates

KINDS = {"anilist": AniList, "mangaupdates": MangaUpdates, "mangadex": MangaDex}
ALL = tuple(KINDS)

__all__ = ["ALL", "KINDS", "Provider", "Record", "chosen", "describe"]


def chosen():
    """Providers made from the settings now (their bases are read when they are made)."""
    return [KINDS[key]() for key in settings.METADATA_PROVIDERS]


def describe():
    """{key: {name, attribution, home}} of every provider, for catalog.provided's registry."""
    return {key: {"name": cls.name, "attribution": cls.attribution, "home": cls.home} for key, cls in KINDS.items()}
