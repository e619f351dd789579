"""The research work list (export) and the proposal import, for `manage.py catalog` and the API.

Both run where data/ is written: in the reader (through mangacircus.localadmin) or, when no reader
runs, in the command under the data lock (`offline_*`), with catalog.json opened by its owner.
"""

from library import index as library_index
from library import service as library_service
from mangacircus.clock import now_ms

from . import groups, overrides, proposals, relations, store

WORK_LIST_SCHEMA = 1
BY = "research"


def _strings(value):
    if isinstance(value, str):
        value = [value]
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _links(meta):
    links = meta.get("links") if isinstance(meta.get("links"), dict) else {}
    return {str(k): v for k, v in links.items() if proposals.http_url(v)}


def work_list(index, names=None):
    """{schema, exported, manga: [...]} for `names` (every manga when None; unknown names are listed
    with "missing": true, so research can cover a manga the catalog names but the library lacks)."""
    chosen = sorted(index.manga) if not names else list(dict.fromkeys(names))
    all_rel = relations.all_relations()
    all_groups = groups.all_groups()
    items = []
    for name in chosen:
        manga = index.get(name)
        meta = manga.meta if manga is not None and isinstance(manga.meta, dict) else {}
        override = overrides.get(name)
        item = {
            "name": name,
            "title": override.get("title") or (manga.title if manga else name),
            "altTitles": _strings(meta.get("altTitles")) + override.get("altTitles", []),
            "authors": _strings(meta.get("authors")),
            "artists": _strings(meta.get("artists")),
            "links": _links(meta),
            "relations": [{"type": r["type"], "other": r["other"]} for r in relations.of(name, all_rel)],
            "groups": [{"name": g["name"], "members": g["members"]} for g in all_groups if name in g["members"]],
        }
        if manga is None:
            item["missing"] = True
        items.append(item)
    return {"schema": WORK_LIST_SCHEMA, "exported": now_ms(), "manga": items,
            "proposalKinds": list(proposals.KINDS), "relationTypes": list(relations.CANONICAL) + ["prequel", "source"]}


# -- in the reader: localadmin handlers ---------------------------------------------------------

def export_handler(payload):
    return work_list(library_index.current(), payload.get("manga") or None)


def import_handler(payload):
    """The import's answer; a refused batch answers its errors rather than raising, so the command
    can list them item by item whichever process ran it."""
    try:
        return proposals.import_batch(payload.get("by") or BY, payload.get("batch"))
    except proposals.BatchInvalid as e:
        return {"error": e.message, "errors": e.errors}


# -- in the command, when no reader runs ------------------------------------------------------

def offline_export(payload):
    store.STATE.open()
    try:
        return work_list(library_service.offline_index(), payload.get("manga") or None)
    finally:
        store.STATE.close()


def offline_import(payload):
    store.STATE.open()
    try:
        return import_handler(payload)
    finally:
        store.STATE.close()
