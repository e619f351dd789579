"""Overrides: a curator's metadata for a manga, kept in catalog.json so LIBRARY can stay read-only.

{"title", "description", "direction", "altTitles": [...], "tags": [extra], "hiddenTags": [...],
 "cover": {"c": chapter id, "v": version, "p": page index}} — every key optional. The manga page,
the library page's filter and /api/library and /api/manga read them through `merge()`; the cover
thumbnail through `cover_path()` (registered with library.thumbs at start).
"""
from django.conf import settings
from django.utils.translation import gettext as _

from library import meta as library_meta
from mangacircus.errors import Invalid

from . import provided, store

MAX_ITEMS = 100
TEXT_LIMITS = {"title": 500, "description": 10_000}


def _strings(value, field):
    if isinstance(value, str):
        value = value.splitlines()
    if not isinstance(value, list):
        raise Invalid(_("%(field)s must be a list of strings") % {"field": field})
    out = []
    for item in value:
        if not isinstance(item, str):
            raise Invalid(_("%(field)s must be a list of strings") % {"field": field})
        item = item.strip()
        if len(item) > 200:
            raise Invalid(_("%(field)s: “%(item)s…” is longer than 200 characters")
                          % {"field": field, "item": item[:40]})
        if item and item not in out:
            out.append(item)
    if len(out) > MAX_ITEMS:
        raise Invalid(_("%(field)s has more than %(max)s entries") % {"field": field, "max": MAX_ITEMS})
    return out


def clean(fields, manga=None):
    """The override to store from a curator's fields (empty values are left out)."""
    out = {}
    for key, limit in TEXT_LIMITS.items():
        value = fields.get(key, "")
        if not isinstance(value, str):
            raise Invalid(_("%(field)s must be text") % {"field": key})
        if len(value.strip()) > limit:
            raise Invalid(_("%(field)s is longer than %(limit)s characters") % {"field": key, "limit": limit})
        if value.strip():
            out[key] = value.strip()
    direction = fields.get("direction", "")
    if direction:
        if direction not in library_meta.DIRECTIONS:
            raise Invalid(_("direction must be one of %(values)s") % {"values": ", ".join(library_meta.DIRECTIONS)})
        out["direction"] = direction
    for key in ("altTitles", "tags", "hiddenTags"):
        values = _strings(fields.get(key, []), key)
        if values:
            out[key] = values
    cover = fields.get("cover")
    if cover:
        out["cover"] = _cover(cover, manga)
    return out


def _cover(cover, manga):
    if not isinstance(cover, dict):
        raise Invalid(_("cover must be {c, v, p}: a chapter id, a version and a page index"))
    c, v, p = cover.get("c"), cover.get("v"), cover.get("p")
    if not isinstance(c, str) or not isinstance(v, str) or not isinstance(p, int) or isinstance(p, bool):
        raise Invalid(_("cover must be {c, v, p}: a chapter id, a version and a page index"))
    if manga is not None and page_path(manga, {"c": c, "v": v, "p": p}) is None:
        raise Invalid(_("cover: %(manga)s has no page %(page)s in chapter %(chapter)s, version %(version)s")
                      % {"manga": manga.name, "page": p + 1, "chapter": c, "version": v})
    return {"c": c, "v": v, "p": p}


def page_path(manga, cover):
    """The LIBRARY-relative path of the chosen cover page, or None when it is not in the index."""
    chapter = manga.chapter(cover.get("c"))
    version = next((x for x in chapter.versions if x.name == cover.get("v")), None) if chapter else None
    files = version.files() if version else []
    p = cover.get("p")
    if not isinstance(p, int) or not 0 <= p < len(files):
        return None
    return f"{version.path}/{files[p]}"


def set_override(by, name, fields, manga=None, rev=None):
    """Replace the override of `name` (an empty one removes it)."""
    value = clean(fields, manga)
    with store.edit(by, rev) as change:
        overrides = change.data["overrides"]
        if value:
            overrides[name] = {**{k: v for k, v in overrides.get(name, {}).items() if k not in _KNOWN}, **value}
        else:
            overrides.pop(name, None)
        change.what = f"edited the metadata of {name}" if value else f"removed the metadata edits of {name}"
        change.names = {name}
    return value


_KNOWN = ("title", "description", "direction", "altTitles", "tags", "hiddenTags", "cover")


def get(name):
    """The override of `name` ({} when none); a copy."""
    if not store.STATE.is_open():
        return {}
    with store.read() as data:
        found = data["overrides"].get(name)
        return {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                for k, v in found.items()} if isinstance(found, dict) else {}


def merge(meta, override):
    """Cleaned manga.json metadata (shelf.manga_detail.clean_meta) with the override applied."""
    if not override:
        return meta
    merged = dict(meta)
    hidden = set(override.get("hiddenTags", ()))
    tags = [t for t in meta.get("tags", []) if t not in hidden]
    merged["tags"] = tags + [t for t in override.get("tags", []) if t not in tags]
    alt = list(meta.get("altTitles", []))
    merged["altTitles"] = alt + [t for t in override.get("altTitles", []) if t not in alt]
    if override.get("description"):
        merged["description"] = override["description"]
    return merged


def title(manga):
    return get(manga.name).get("title") or manga.title


def manga_direction(manga):
    """(direction, where it comes from) of a manga, the catalog's override first (library.meta)."""
    return library_meta.manga_direction(manga, get(manga.name).get("direction"), settings.DEFAULT_DIRECTION)


def version_direction(manga, version):
    """The direction one version of `manga` is read in: its chapter.json, then the override, then the
    folder's files (library.meta.version_direction)."""
    return library_meta.version_direction(version, manga, get(manga.name).get("direction"))


def cover_path(manga):
    """For library.thumbs: the chosen cover page's path, else a provider's cover file in DATA
    (catalog/provided.py), else None (the folder's cover then)."""
    cover = get(manga.name).get("cover")
    chosen = page_path(manga, cover) if cover else None
    return chosen or provided.cover_file(manga.name)


def search_words(name):
    """Extra words for the library filter: the override's title, alternative titles and tags."""
    found = get(name)
    return [found.get("title", "")] + found.get("altTitles", []) + found.get("tags", [])
