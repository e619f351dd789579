"""One manga looked up at the providers, in the worker: the steps of docs/metadata.md, "Matching".

1. A match already made (by an admin, an id or an earlier search) is fetched again by its id.
2. Else an id the folder names wins: manga.json `ids` ({"anilist": 30002}) or a link to the
   provider's page in manga.json `links` or ComicInfo's `Web`, in METADATA_PROVIDERS order.
3. Else each provider in turn is searched by the manga's titles (the first three), candidates
   scored (metadata/matching.py); the first provider with a candidate to take stops the search.
4. A taken candidate that came from a search without every field is fetched whole, and its
   cover is fetched; the best candidates otherwise are kept, with their covers, for an admin.

A provider that fails (offline, refusing, answering nonsense) leaves a warning and the next
provider is asked; only a stop of the worker (Interrupted) ends the lookup early.
"""
from scraper.errors import Interrupted, ScraperError

from . import matching

SEARCHED_TITLES = 3
KEPT_CANDIDATES = 5


def _problem(provider, e):
    return f"{provider.name}: {getattr(e, 'message', None) or e}"


def look_up(item, providers, client, threshold):
    """-> the result the reader records (metadata/matches.py `record`)."""
    by_key = {p.key: p for p in providers}
    warnings = []

    def attempt(call, provider):
        try:
            return call()
        except Interrupted:
            raise
        except (ScraperError, ValueError) as e:
            warnings.append(_problem(provider, e))
            return None

    known = item.get("match") or {}
    if known.get("provider") in by_key:
        provider = by_key[known["provider"]]
        record = attempt(lambda: provider.fetch(client, known["id"]), provider)
        if record is not None:
            return _matched(item, record, known.get("how") or "id", known.get("score"), client, provider, warnings)
        return _result(item, "failed", warnings=warnings)
    for provider in providers:
        entry_id = (item.get("ids") or {}).get(provider.key) or next(
            (found for found in map(provider.id_in, item.get("links") or []) if found), None)
        if entry_id:
            record = attempt(lambda p=provider, i=entry_id: p.fetch(client, str(i)), provider)
            if record is not None:
                return _matched(item, record, "id", 1.0, client, provider, warnings)
    pool = {}
    for provider in providers:
        found = {}
        for title in (item.get("titles") or [])[:SEARCHED_TITLES]:
            for record in attempt(lambda p=provider, t=title: p.search(client, t), provider) or []:
                found.setdefault(record.id, record)
        scored = sorted(((matching.score(item, r.as_dict()), r) for r in found.values()), key=lambda x: -x[0])
        taken = matching.choose(scored, threshold)
        if taken:
            score, record = taken
            if not record.complete:
                record = attempt(lambda p=provider, r=record: p.fetch(client, r.id), provider) or record
            return _matched(item, record, "auto", score, client, provider, warnings)
        for score, record in scored:
            pool[(provider.key, record.id)] = (score, record, provider)
    best = sorted(pool.values(), key=lambda x: -x[0])[:KEPT_CANDIDATES]
    candidates = []
    for score, record, provider in best:
        data = record.as_dict()
        data["cover"] = _cover(record, client, provider, warnings)
        candidates.append({"score": score, "record": data})
    outcome = "review" if candidates else "failed" if warnings else "unmatched"
    return _result(item, outcome, candidates=candidates, warnings=warnings)


def _cover(record, client, provider, warnings):
    if not record.cover_url:
        return None
    source = getattr(provider, "source", provider)
    try:
        return client.cover(source, record.cover_url)
    except Interrupted:
        raise
    except (ScraperError, ValueError) as e:
        warnings.append(_problem(provider, e))
        return None


def _matched(item, record, how, score, client, provider, warnings):
    data = record.as_dict()
    data["cover"] = _cover(record, client, provider, warnings)
    return _result(item, "matched", how=how, score=score, record=data, warnings=warnings)


def _result(item, outcome, **fields):
    return {"name": item["name"], "outcome": outcome, "how": None, "score": None, "record": None,
            "candidates": [], "warnings": [], **fields}
