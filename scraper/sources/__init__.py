"""The source registry: built-in modules, plus the dotted modules named in SCRAPER_SOURCES.

A module registers its Source instance at import time with `register(MySource())`.
"""
import importlib

from django.conf import settings

from ..errors import InvalidInput

BUILT_IN = ("scraper.sources.folder", "scraper.sources.mangadex", "scraper.sources.peer")
_sources = {}


def register(source):
    if not source.key or not source.key.isidentifier():
        raise ValueError(f"source key {source.key!r} must be a plain identifier")
    _sources[source.key] = source
    return source


def unregister(key):
    _sources.pop(key, None)


def load():
    """Import the built-in modules and those in SCRAPER_SOURCES (each registers itself)."""
    for module in (*BUILT_IN, *settings.SCRAPER_SOURCES):
        importlib.import_module(module)


def get(key):
    try:
        return _sources[key]
    except (KeyError, TypeError):
        raise InvalidInput(f"unknown source {key!r}") from None


def all_sources():
    return [_sources[k] for k in sorted(_sources)]
