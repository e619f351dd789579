"""ComicInfo.xml (the Anansi schema that Komga, Kavita, Mihon and most taggers write), in archives
and in image folders (docs/library.md, "ComicInfo.xml").

`parse(raw)` → (fields, None) or (None, why). The XML is parsed with the standard library's expat,
hardened: any DOCTYPE or entity declaration is refused before it could expand (no billion laughs,
no external entities), and the file is capped at MAX_BYTES. Only the fields below are kept.

What wins: manga.json and chapter.json, then ComicInfo, then names. Ids still come from names: a
Number or Volume is used only where the name gives none, or only a position (`numbered()`).

As Komga reads it: Genre is the manga's (its genres), Tags are the chapter's (the book's in Komga);
the manga's fields come from its chapters' files, each field from the first chapter in reading
order that has it (`series_fields()`), so a chapter without a field never erases it.
"""
import re
from xml.parsers import expat

from .names import ArchiveName, BookName, ChapterName, number_key, parse_entry

MAX_BYTES = 1 << 20
MAX_FIELD = 16 << 10
TEXT_FIELDS = ("Series", "Title", "Number", "Volume", "Summary", "Writer", "Penciller", "Genre", "Tags", "Web",
               "LanguageISO", "Manga", "Count", "Year", "Publisher")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


class _Refused(Exception):
    pass


def _refuse_dtd(*_args):
    raise _Refused("declares a DOCTYPE or entities, which ComicInfo.xml never needs")


def parse(raw):
    """(dict of the known fields, with "Pages": [(index, type)]) or (None, why it is unusable)."""
    if len(raw) > MAX_BYTES:
        return None, f"is larger than {MAX_BYTES // 1024} KB"
    fields, pages, stack, text = {}, [], [], []
    parser = expat.ParserCreate()
    parser.StartDoctypeDeclHandler = _refuse_dtd
    parser.EntityDeclHandler = _refuse_dtd
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def start(name, attrs):
        if not stack and name != "ComicInfo":
            raise _Refused(f"has <{name[:40]}> where <ComicInfo> should be")
        stack.append(name)
        text.clear()
        if stack == ["ComicInfo", "Pages", "Page"] and len(pages) < 100_000:
            pages.append((attrs.get("Image"), attrs.get("Type")))

    def end(name):
        if len(stack) == 2 and name in TEXT_FIELDS:
            value = "".join(text).strip()[:MAX_FIELD]
            if value:
                fields[name] = value
        stack.pop()
        text.clear()

    def chars(data):
        if len(stack) == 2 and sum(map(len, text)) < MAX_FIELD:
            text.append(data)

    parser.StartElementHandler, parser.EndElementHandler, parser.CharacterDataHandler = start, end, chars
    try:
        parser.Parse(raw, True)
    except _Refused as e:
        return None, str(e)
    except expat.ExpatError as e:
        return None, f"is not valid XML ({expat.errors.messages.get(e.code, e)}, line {e.lineno})"
    fields["Pages"] = [(int(i), kind) for i, kind in pages if i and i.isdigit() and kind]
    return fields, None


def number(value):
    """'12', '012.5' → the number as a key's digits; None for anything else ('1a', '')."""
    m = _NUMBER.fullmatch((value or "").strip())
    return m[0] if m else None


def _split(value):
    return [part.strip() for part in re.split(r"[,;]", value or "") if part.strip()]


def _int(value):
    value = (value or "").strip()
    return int(value) if value.isdigit() and 0 < int(value) < 100_000 else None


def manga_fields(info):
    """The manga.json fields a ComicInfo fills in when manga.json does not have them (Genre → genres)."""
    if not info:
        return {}
    out = {"title": info.get("Series"), "description": info.get("Summary"), "authors": _split(info.get("Writer")),
           "artists": _split(info.get("Penciller")), "language": info.get("LanguageISO"),
           "genres": list(dict.fromkeys(_split(info.get("Genre")))), "publisher": info.get("Publisher"),
           "year": _int(info.get("Year")), "count": _int(info.get("Count"))}
    urls = [u for u in (info.get("Web") or "").split() if u.startswith(("http://", "https://"))]
    if urls:
        out["links"] = {("Web" if i == 0 else f"Web {i + 1}"): u for i, u in enumerate(urls)}
    # As Komga and Kavita read it: a manga read right to left, or a comic read left to right (`No`);
    # `Yes` (a manga, direction unsaid) and no Manga field leave the library's default.
    direction = {"YesAndRightToLeft": "rtl", "No": "ltr"}.get((info.get("Manga") or "").strip())
    if direction:
        out["direction"] = direction
    return {k: v for k, v in out.items() if v}


def series_fields(found):
    """The manga's fields from its chapters' manga_fields() dicts, given in reading order: each field
    from the first that has it (a small bonus chapter without Writer or Genre never erases them)."""
    out = {}
    for fields in found:
        for key, value in (fields or {}).items():
            out.setdefault(key, value)
    return out


def chapter_fields(info):
    """The chapter.json fields a ComicInfo fills in when chapter.json does not have them (Tags → tags)."""
    if not info:
        return {}
    out = {"title": title(info.get("Title")), "description": info.get("Summary"), "language": info.get("LanguageISO"),
           "number": number(info.get("Number")), "volume": number(info.get("Volume")),
           "tags": list(dict.fromkeys(_split(info.get("Tags"))))}
    series = manga_fields(info)
    if series:
        out["comicInfoSeries"] = series  # the manga's fields, for the manga this chapter is in (build.py)
    return {k: v for k, v in out.items() if v}


def title(value):
    """ComicInfo's Title, or its title part when it is a whole chapter name, as Mihon and Suwayomi
    write it ("Vol.1 Ch.3 - Arrival in Tokyo" → "Arrival in Tokyo", "Chapter 13" → None): the names'
    rules (library/release.py) read it. A Title that only starts with a number stays whole."""
    if not value:
        return None
    named = parse_entry(value)
    if named is None or named.leading:
        return value
    part = named.chapter or named.book
    return part.title if part else value


def numbered(info, named=None, in_book=False, source=None):
    """ArchiveName from ComicInfo's Number and Volume, for a name that gives no number (`named` None)
    or only a position (`named.leading`: FMD's `0004 - Title`, a list index). None when ComicInfo
    gives neither.

    Number replaces the name's chapter number; Volume gives the book, except in a book folder (the
    folder's book wins there). What else the name says stays: its title, its source (else `source`),
    its book when ComicInfo has no Volume, and its chapter number when ComicInfo has only a Volume.
    With no chapter from either, the archive is a whole volume.
    """
    chapter_no, volume = number((info or {}).get("Number")), number((info or {}).get("Volume"))
    if not chapter_no and not volume:
        return None
    given = named.chapter if named else None
    book = BookName(number_key(volume), None) if volume and not in_book else (named.book if named else None)
    if chapter_no:
        chapter = ChapterName(number_key(chapter_no), given.title if given else None,
                              given.source if given and given.source else source)
    else:
        chapter = given
    if book is None and chapter is None:
        return None
    return ArchiveName(book, chapter, bool(named and named.span and chapter is given))


def page_types(info, count):
    """({page index: extra tags}, {indexes to hide}) from <Pages>: FrontCover → cover, Deleted → hidden."""
    tags, hidden = {}, set()
    for index, kind in (info or {}).get("Pages", ()):
        if 0 <= index < count:
            if kind == "FrontCover":
                tags[index] = ("cover",)
            elif kind == "Deleted":
                hidden.add(index)
    return tags, hidden
