"""Scoring a provider's candidates against a manga of the library (docs/metadata.md, "Matching").

1. Titles are normalised: Unicode compatibility forms, accents dropped, case folded, "&" read as
   "and", punctuation as spaces. The title score is the best similarity (difflib's ratio) of any
   of the manga's titles (folder or curator title, alternative titles) with any of the
   candidate's (main, English, romanised, native, synonyms), so "Shingeki no Kyojin" on disk
   meets "Attack on Titan" through the candidate's romanised title.
2. The year, the format and the authors adjust it: each counts for its weight when it agrees,
   for nothing when it disagrees, and for half when either side does not say.
3. A candidate is taken without an admin only at THRESHOLD or above and MARGIN ahead of the next
   one: two entries of the same title and no year to tell them apart wait for an admin.
"""
import difflib
import re
import unicodedata

WEIGHTS = {"title": 0.6, "year": 0.15, "format": 0.15, "authors": 0.1}
MARGIN = 0.05
_WORD = re.compile(r"[^\w]+")


def normalise(text):
    text = unicodedata.normalize("NFKD", str(text or ""))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold().replace("&", " and ")
    return " ".join(_WORD.sub(" ", text).replace("_", " ").split())


def title_score(mine, theirs):
    best = 0.0
    for a in {normalise(t) for t in mine} - {""}:
        for b in {normalise(t) for t in theirs} - {""}:
            best = max(best, 1.0 if a == b else difflib.SequenceMatcher(None, a, b).ratio())
    return best


def year_score(mine, theirs):
    if not isinstance(mine, int) or not isinstance(theirs, int):
        return 0.5
    return {0: 1.0, 1: 0.7, 2: 0.3, 3: 0.3}.get(abs(mine - theirs), 0.0)


def _person(name):
    return frozenset(normalise(name).split())


def author_score(mine, theirs):
    """Agreement when one name is the same words in any order ("Oda Eiichirou" / "Eiichirou Oda")."""
    if not mine or not theirs:
        return 0.5
    return 1.0 if {_person(n) for n in mine} & {_person(n) for n in theirs} else 0.0


def score(wanted, record):
    """0..1 for a candidate (a Record's dict) against `wanted` {titles, year, authors, kind}."""
    kind = "novel" if record.get("format") == "novel" else "comic"
    parts = {
        "title": title_score(wanted.get("titles") or [], record.get("titles") or [record.get("title")]),
        "year": year_score(wanted.get("year"), record.get("year")),
        "format": 1.0 if kind == (wanted.get("kind") or "comic") else 0.0,
        "authors": author_score(wanted.get("authors"), (record.get("authors") or []) + (record.get("artists") or [])),
    }
    return round(sum(WEIGHTS[k] * v for k, v in parts.items()), 3)


def choose(scored, threshold):
    """The (score, record) to take without an admin from a list sorted best first, or None."""
    if not scored or scored[0][0] < threshold:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < MARGIN:
        return None
    return scored[0]
