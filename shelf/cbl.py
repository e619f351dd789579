"""A ComicRack reading list (`.cbl`, the format Kavita and Komga import) as a read list here
(docs/using.md, "Read lists").

    <ReadingList><Name>Civil War</Name><Books>
      <Book Series="Civil War" Number="1" Volume="2006" Year="2006"/> …
    </Books></ReadingList>

Each Book is found by its series (a manga whose folder name or title is `Series`, or `Series (Volume)`
as Western comics are often named by their start year), then by `Number` among that manga's chapters
(in book `Volume` when the manga has such a book and Volume is no year). What is not found is listed
with its reason; the rest becomes the list.
"""
import re
import unicodedata
import xml.etree.ElementTree as ET

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from library.names import number_key
from mangacircus.errors import Invalid
from reader import access, lookup, readlists

MAX_BYTES = 800_000  # under the API's 1 MB body limit, its JSON wrapping included
NUMBER = re.compile(r"\d+(\.\d+)?")


def _fold(text):
    return unicodedata.normalize("NFKC", str(text)).casefold().strip()


def parse(text):
    """(name, [{series, number, volume, year}]) of a .cbl file's text, or Invalid."""
    if len(text.encode()) > MAX_BYTES:
        raise Invalid(_("a reading list is at most %(max_bytes)s bytes") % {"max_bytes": format(MAX_BYTES, ',')})
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise Invalid(_("a reading list with a DOCTYPE or entities is refused"))
    try:
        root = ET.fromstring(text.lstrip("\ufeff"))
    except ET.ParseError as e:
        raise Invalid(_("this is not a ComicRack reading list (.cbl): %(error)s") % {"error": e}) from None
    if root.tag != "ReadingList":
        raise Invalid(_("this is not a ComicRack reading list (.cbl): its root is <%(tag)s>, not <ReadingList>")
                      % {"tag": root.tag})
    name = (root.findtext("Name") or "").strip() or _("Reading list")
    books = [{key: (book.get(attr) or "").strip() for key, attr in
              (("series", "Series"), ("number", "Number"), ("volume", "Volume"), ("year", "Year"))}
             for book in root.iter("Book")]
    return name, books


class Finder:
    """The manga a user sees, by folded folder name and title."""

    def __init__(self, user):
        sees = access.visible(user)
        self.by_name = {}
        for manga in lookup.current().sorted():
            if sees(manga.name):
                for name in (manga.name, manga.title):
                    self.by_name.setdefault(_fold(name), manga)

    def manga(self, book):
        for name in (book["series"], f"{book['series']} ({book['volume']})", f"{book['series']} ({book['year']})"):
            found = self.by_name.get(_fold(name))
            if found is not None:
                return found
        return None


def find(finder, book):
    """((manga, chapter), None) or (None, why not)."""
    manga = finder.manga(book)
    if manga is None:
        return None, _("no manga named %(name)s") % {"name": book["series"]}
    if not NUMBER.fullmatch(book["number"]):
        return None, _("its number %(number)s is not a number") % {"number": repr(book["number"])}
    key = number_key(book["number"])
    chapters = [c for c in manga.chapters() if c.key == key]
    volume = book["volume"]
    if len(chapters) > 1 and NUMBER.fullmatch(volume) and len(volume) < 4:  # a book number, not a year
        chapters = [c for c in chapters if c.book == number_key(volume)] or chapters
    if len(chapters) != 1:
        said = {"title": manga.title, "count": len(chapters), "number": book["number"]}
        if not chapters:
            return None, _("%(title)s has no chapters numbered %(number)s") % said
        return None, ngettext("%(title)s has %(count)s chapter numbered %(number)s",
                              "%(title)s has %(count)s chapters numbered %(number)s", len(chapters)) % said
    return (manga, chapters[0]), None


def import_text(account, text, apply=False):
    """The plan {name, matched, not_found, counts}; with `apply`, also the read list it made or filled."""
    name, books = parse(text)
    finder = Finder(account["name"])
    matched, missing, items = [], [], []
    for book in books:
        what = f"{book['series']}" + (f" ({book['volume']})" if book["volume"] else "") + f" #{book['number']}"
        hit, why = find(finder, book)
        if hit is None:
            missing.append({"what": what, "reason": why})
            continue
        manga, chapter = hit
        if (manga.name, chapter.id) not in items:
            items.append((manga.name, chapter.id))
        matched.append({"what": what, "target": f"{manga.title} · {lookup.chapter_label(chapter)}"})
    plan = {"name": name, "matched": matched, "not_found": missing,
            "counts": {"books": len(books), "matched": len(matched), "not_found": len(missing)}}
    if not apply:
        return plan
    if not items:
        raise Invalid(_("nothing in this reading list was found here, so no read list was made"))
    mine = next((i for i in readlists.visible(account)
                 if i["owner"] == account["name"] and _fold(i["name"]) == _fold(name)), None)
    if mine is None:
        made = readlists.create(account, name, items=items, shared=False)
    else:
        made = readlists.add(account, mine["id"], items)
    return {**plan, "readlist": {"id": made["id"], "name": made["name"], "url": f"readlists/{made['id']}/"}}
