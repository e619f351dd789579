"""The library filter: `genre:Fantasy tag:Isekai author:"Aya Kisaragi" status:ongoing library:Comics moon`
(docs/using.md).

Words are ANDed. A plain word must appear in the title, folder name, alternative titles, authors,
artists, tags or genres. `genre:` matches a genre exactly (case aside), `tag:` a tag of the manga
or of any of its chapters (as Komga's series filter does), `author:` (or `artist:`) a part of an
author's or artist's name, `status:` the status exactly, `library:` the library's name exactly. A
value with spaces goes in double quotes. An unknown `kind:` is a plain word, so a title with a colon still matches.
"""
import re
from urllib.parse import urlencode

from django.utils.translation import gettext_lazy

from mangacircus import wording

KINDS = {"tag": "tag", "genre": "genre", "author": "author", "artist": "author", "status": "status",
         "library": "library"}
# How a term's chip reads, whole, so a translation can order it: "Tag: Isekai".
LABELS = {"tag": gettext_lazy("Tag: %(value)s"), "genre": gettext_lazy("Genre: %(value)s"),
          "author": gettext_lazy("Author: %(value)s"), "status": gettext_lazy("Status: %(value)s"),
          "library": gettext_lazy("Library: %(value)s")}
_TERM = re.compile(r'(?:(\w+):)?(?:"([^"]*)"?|(\S*))')


class Term:
    __slots__ = ("kind", "value", "key")

    def __init__(self, kind, value):
        self.kind = kind  # "word", "tag", "genre", "author" or "status"
        self.value = value
        self.key = value.casefold()

    @property
    def text(self):
        """The term as it is typed: `tag:"Slice of Life"`, `moon`."""
        value = f'"{self.value}"' if re.search(r'[\s"]', self.value) or not self.value else self.value
        return value if self.kind == "word" else f"{self.kind}:{value}"

    def label(self):
        if self.kind == "word":
            return self.value
        shown = LABELS.get(self.kind)
        return str(shown) % {"value": self.value} if shown else f"{self.kind.capitalize()}: {self.value}"

    def matches(self, summary):
        if self.kind == "tag":
            return self.key in summary.tag_keys
        if self.kind == "genre":
            return self.key in summary.genre_keys
        if self.kind == "author":
            return any(self.key in person for person in summary.people)
        if self.kind == "status":
            return summary.status == self.key
        if self.kind == "library":
            return (summary.library or "").casefold() == self.key
        return self.key in summary.search

    def __eq__(self, other):
        return isinstance(other, Term) and (self.kind, self.key) == (other.kind, other.key)

    def __hash__(self):
        return hash((self.kind, self.key))


def parse(q):
    """The terms of a filter, each once, in order."""
    terms = []
    for m in _TERM.finditer(q or ""):
        prefix, quoted, bare = m.groups()
        value = (quoted if quoted is not None else bare or "").strip()
        kind = KINDS.get((prefix or "").casefold())
        if prefix and kind is None:  # not a filter kind: the whole thing is a word ("re:zero")
            kind, value = "word", f"{prefix}:{value}"
        term = Term(kind or "word", value)
        if value and term not in terms:
            terms.append(term)
    return terms


def text(terms):
    return " ".join(t.text for t in terms)


def term(kind, value):
    """The typed form of one term, for links: term("tag", "Slice of Life") → `tag:"Slice of Life"`."""
    return Term(kind, value).text


def library_query(q="", sort="title"):
    """`?q=…&sort=…` of the library page (sort left out when it is the default)."""
    params = {k: v for k, v in (("q", q), ("sort", "" if sort == "title" else sort)) if v}
    return "?" + urlencode(params) if params else ""


def chips(terms, sort="title"):
    """The active filters, each with the query that removes it (the page's chips)."""
    return [{"kind": t.kind, "value": t.value, "label": t.label(), "text": t.text,
             "without": library_query(text([o for o in terms if o is not t]), sort)} for t in terms]


def facets(summaries, terms, sort="title", limit=40):
    """Genres, tags and statuses of the manga shown, with counts and the query that adds each."""
    genres, tags, statuses, shelves = {}, {}, {}, {}
    for s in summaries:
        if s.library:
            shelves.setdefault(s.library.casefold(), [s.library, 0])[1] += 1
        for genre in s.genres:
            genres.setdefault(genre.casefold(), [genre, 0])[1] += 1
        for tag in s.tags:
            tags.setdefault(tag.casefold(), [tag, 0])[1] += 1
        if s.status:
            statuses.setdefault(s.status, [s.status, 0])[1] += 1
    active = set(terms)

    def items(kind, found):
        ranked = sorted(found.values(), key=lambda pair: (-pair[1], pair[0].casefold()))[:limit]
        return [{"value": v, "count": n, "on": Term(kind, v) in active,
                 "add": library_query(text(terms + [Term(kind, v)]) if Term(kind, v) not in active else text(terms),
                                      sort)}
                for v, n in ranked]

    return {"libraries": items("library", shelves), "genres": items("genre", genres), "tags": items("tag", tags),
            "statuses": [{**f, "label": wording.status_name(f["value"])} for f in items("status", statuses)]}


EMPTY_FACETS = {"libraries": [], "genres": [], "tags": [], "statuses": []}
