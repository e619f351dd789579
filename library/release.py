"""Release names: the volume, chapter, title and source in a folder or archive name as people's
tools write them (docs/library-names.md holds the table these rules follow, with its sources).

`read(stem, series)` → a Release. Pure: nothing here touches the disk. The steps:

1. `[…]`, `【…】` and `{…}` groups leave the text: the last group that looks like a scanlation
   group or site is the source. `(…)` groups are release tags (year, `(Digital)`, a language code,
   a group) and leave it too, unless they hold a volume or chapter (`(v01)`, `(Ch.071-079)`, `(1 of 3)`).
2. A Mihon scanlator prefix (`Asura Scans_Chapter 13`) is the source; a leading series name goes;
   a leading list index before explicit numbers (FMD's `0004 - Vol.1 Ch.2`) is only a position.
3. Tokens anywhere: a volume (`v01`, `Vol. 2`, `Volume 3`, `Tome 2`, `T3`, `Том 1`, `第3巻`, `1巻`,
   `7.5권`, `เล่ม 1`, `S01` before a number), a chapter (`c003`, `Ch.3`, `Chapter 3`, `chapters 101-108`,
   `#2`, `Episode 4`, `Глава 3`, `第10話`, `106화`, `ตอนที่ 5`), a special (`SP01`), the spec's
   extras (`x01`, `Extras`) and books (`b01`). The first of each kind wins; a range keeps its end.
4. No chapter token: a bare number is the chapter: the one the text starts with, else the one
   right after the volume, else (with no volume) one before ` - `, at the end, or the first that is
   not a year. Numbers before a volume are the series' (`Mob Psycho 100 v02`).
5. The title is what follows the last token, without tags.
"""
import functools
import re
from typing import NamedTuple

_N = r"[0-9]+(?:\.[0-9]+)?"
_B = r"(?<![^\W_])"  # starts a word: not after a letter or digit ("Chapter11v2" holds no v2)
_E = r"(?:(?![^\W_])|(?=[vx][0-9]))"  # ends a number: no letter or digit follows, but a v2/x1 tag may
_SEP = r"[\s._\-]*"
_FLAGS = re.I | re.S


class Release(NamedTuple):
    volume: str | None = None  # digits as written: "01", "3.5"
    volume_end: str | None = None  # "17" of "v16-17"
    chapter: str | None = None
    chapter_end: str | None = None
    special: str | None = None  # "01" of SP01
    extra: str | None = None  # "01" of x01, "" for a bare "Extras"
    title: str | None = None
    source: str | None = None
    leading: bool = False  # the chapter is a bare leading number, perhaps only a position


def _range(name, first, word_end=""):
    return rf"(?P<{name}>{_N})(?:[-~]{first}(?P<{name}_end>{_N}))?{word_end}"


_VOLUME_AGAIN = r"(?:v|vol\.?\s*)?"
_VOLUME_WORD = re.compile(rf"{_B}(?:volumes?|vol|tome|v|t){_SEP}{_range('v', _VOLUME_AGAIN)}{_E}", _FLAGS)
_VOLUME_CJK = [
    re.compile(rf"(?:Тома?)\.?\s*{_range('v', '')}", _FLAGS),
    re.compile(rf"{_B}{_range('v', '')}\s+Тома?(?![^\W_])", _FLAGS),
    re.compile(rf"第\s*{_range('v', '')}\s*[巻卷册]", _FLAGS),
    re.compile(rf"[卷册]\s*{_range('v', '')}", _FLAGS),
    re.compile(rf"{_range('v', '')}\s*[巻권]", _FLAGS),
    re.compile(rf"(?:เล่มที่|เล่ม)\s*\.?\s*{_range('v', '')}", _FLAGS),
    re.compile(rf"시즌\s*{_range('v', '')}", _FLAGS),
]
_SEASON = re.compile(rf"{_B}S(?P<v>[0-9]+)\s+(?P<c>{_N})(?![^\W_])", _FLAGS)
_CHAPTER_WORD = re.compile(
    rf"{_B}(?:chapters?|chapitre|chap|chp|ch|c){_SEP}(?P<c>{_N})(?P<part>b)?"
    rf"(?:[-~](?:c|ch\.?\s*)?(?P<c_end>{_N})(?P<end_part>b)?)?{_E}", _FLAGS)
_HASH = "#?"
_CHAPTER_OTHER = [
    re.compile(rf"제?\s*(?P<c>{_N})(?:-[0-9]+)?\s*[화회장]", _FLAGS),
    re.compile(rf"#\s*{_range('c', _HASH)}(?![^\W_])", _FLAGS),
    re.compile(rf"{_B}(?:episode|ep){_SEP}{_range('c', '')}{_E}", _FLAGS),
    re.compile(rf"(?:Глава|Главы)\.?\s*{_range('c', '')}", _FLAGS),
    re.compile(rf"{_B}{_range('c', '')}\s+(?:Глава|Главы)", _FLAGS),
    re.compile(rf"第?\s*{_range('c', '')}\s*[话話回]", _FLAGS),
    re.compile(rf"(?:ตอนที่|บทที่)\s*\.?\s*{_range('c', '')}", _FLAGS),
]
_SPECIAL = re.compile(rf"{_B}SP{_SEP}(?P<s>[0-9]+){_E}", _FLAGS)
_EXTRA = re.compile(rf"(?:x{_SEP}(?P<x>{_N})|(?:extras?|specials?|omake)(?:{_SEP}(?P<xw>{_N}))?){_E}", _FLAGS)
_BOOK = re.compile(rf"(?:book|b){_SEP}{_range('v', '')}{_E}", _FLAGS)
_BARE = re.compile(rf"(?<![\w.])(?P<c>{_N})(?P<part>b)?(?:-(?P<c_end>{_N})(?P<end_part>b)?)?(?![\w])", _FLAGS)
_YEAR = re.compile(r"^(?:19|20)[0-9]{2}$")

_GROUP = re.compile(r"\[([^\[\]]*)\]|【([^【】]*)】|\{([^{}]*)\}")
_PAREN = re.compile(r"\(([^()]*)\)")
_TOKEN_INSIDE = re.compile(rf"{_B}(?:volume|vol|v|chapters?|chap|ch|c){_SEP}{_N}(?![^\W_])", re.I)
_LONG_TOKEN = re.compile(rf"^\s*(?:volume|vol\.?|chapter|ch\.)\s*{_N}\s*$", re.I)
_MIHON = re.compile(
    r"^(?P<who>[^_\[\]()]+?)_(?=(?:chapter|chap|ch|vol|volume|episode|ep)\b\.?\s*[0-9]|(?:ch|vol)\.[0-9])", re.I)
# Ids downloaders append so that two chapters never share a folder: Mihon's `_` + 6 hex digits of an
# md5 (since v0.19.2), Houdoku's ` - <uuid>`. Neither is a title.
_MIHON_HASH = re.compile(r"_[0-9a-f]{6}$")
_UUID = re.compile(r"\s*-?\s*[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.I)
_POSITION = re.compile(r"^[0-9]+\s*-\s*(?=\S)")
_LEADING_SEP = re.compile(r"^[\s_.\-:,~+]+")
_TRAILING_SEP = re.compile(r"[\s_\-:,~]+$")
# Bracket groups that are release tags, never a group: a language, a format, a version.
_NOT_SOURCE = re.compile(r"^(?:[0-9]+|eng?|english|jp|jpn|raw|manga|digital|full[\s-]?colou?r|colou?r(?:ed)?|hq|hd|"
                         r"webtoon|complete|v[0-9]+(?:\.[0-9]+)?|r[0-9]+|[0-9]{4}(?:-[0-9]{2}){0,2})$", re.I)
_GROUP_WORDS = re.compile(r"(?:scans?|scanlations?|subs|team|translations?|group|fansub)\s*$", re.I)


def _fold(text):
    return re.sub(r"[\s_.\-]+", " ", text).strip().casefold()


def strip_series(text, series):
    """The text without a leading series name ('Moon Garden - c012' → 'c012'), when it has one."""
    folded = _fold(text)
    for name in series:
        name = _fold(name or "")
        if name and (folded == name or folded.startswith(name + " ")):
            want, i = len(name.replace(" ", "")), 0
            while want and i < len(text):
                want -= not re.match(r"[\s_.\-]", text[i])
                i += 1
            rest = text[i:]
            if rest.strip(" _.-"):
                return rest
    return text


_VERSION_TAG = re.compile(r"(?:^|\s)v[0-9]+(?:\.[0-9]+)?$", re.I)  # "… v2": a release's revision


def _clean(text):
    text = _TRAILING_SEP.sub("", _LEADING_SEP.sub("", text))
    text = _TRAILING_SEP.sub("", _VERSION_TAG.sub("", text))
    text = re.sub(r"\s{2,}", " ", text)
    return text or None


def _source(groups, leading):
    """The last bracket group that looks like a group or site; a leading one only when it is one word,
    a domain or ends in 'Scans' & co: a leading `[Two Words]` is most often an author."""
    for text in reversed(groups):
        text = text.strip()
        if text and not _NOT_SOURCE.match(text) and not _TOKEN_INSIDE.search(text):
            if text is not leading or " " not in text or "." in text or _GROUP_WORDS.search(text):
                return text
            return None
    return None


def _take_groups(stem):
    """(text with groups blanked, [group texts], the leading group or None)."""
    groups, leading = [], None
    parts, at = [], 0
    for m in _GROUP.finditer(stem):
        inner = next(g for g in m.groups() if g is not None)
        parts.append(stem[at:m.start()])
        if _LONG_TOKEN.match(inner):  # [Volume 11]: a token, not a group
            parts.append(f" {inner} ")
        elif re.fullmatch(r"[0-9]{1,3}", inner):  # "Part [2]": part of the title
            parts.append(m[0])
        else:
            parts.append(" ")
            groups.append(inner)
            if not stem[:m.start()].strip(" _.-"):
                leading = inner
        at = m.end()
    parts.append(stem[at:])
    return "".join(parts), groups, leading


def _take_parens(text):
    """Parentheses that hold a volume or chapter open up; other ones (release tags) go."""
    def keep(m):
        inner = m[1]
        of = re.match(r"^\s*([0-9]+)\s+of\s+[0-9]+\s*$", inner)
        if of:  # "(1 of 3)": issue 1
            return f" {of[1]} "
        return f" {inner} " if _TOKEN_INSIDE.search(inner) else " "
    return _PAREN.sub(keep, text)


def _blank(text, m):
    return text[:m.start()] + " " * (m.end() - m.start()) + text[m.end():]


def _first(patterns, text):
    found = [m for m in (p.search(text) for p in patterns) if m]
    return found[0] if found else None


@functools.lru_cache(maxsize=1 << 16)
def read(stem, series=()):
    """The Release of one folder name or archive stem (without its extension). Cached: a full scan
    reads every name again, and names repeat from scan to scan."""
    text, groups, leading_group = _take_groups(stem)
    text = _UUID.sub("", _take_parens(text))
    if _MIHON_HASH.search(text) and len(re.findall(r"[^\W_]_[^\W_]", text[:-7])) <= 1:  # a scanlator's `_` at most
        text = text[:-7]
    mihon = _MIHON.match(text.strip())
    source = None
    # Mihon writes "<scanlator>_<chapter name>": one underscore, the chapter name spaced. A name of
    # underscores throughout ("NEEDLESS_Vol.4_-_Simeon_6") is none.
    if mihon and not re.search(r"[^\W_]_[^\W_]", text.strip()[mihon.end():]) \
            and _fold(mihon["who"]) not in {_fold(s or "") for s in series}:
        source = mihon["who"].strip()
        text = text.strip()[mihon.end():]
    text = strip_series(text.replace("_", " ").strip(), series)
    offset = len(text) - len(_LEADING_SEP.sub("", text))
    extra, book = _EXTRA.match(text, offset), _BOOK.match(text, offset)
    volume = _VOLUME_WORD.search(text) or _first(_VOLUME_CJK, text)
    chapter = _CHAPTER_WORD.search(text) or _first(_CHAPTER_OTHER, text)
    season = None if volume else _SEASON.search(text)
    index = _POSITION.match(text)
    # FMD's "0004 - Vol.1 Ch.2": a leading number before explicit ones is a list index.
    position = bool(index and (volume or chapter) and all(m is None or m.start() >= index.end()
                                                          for m in (volume, chapter)))
    found, spans = {}, []
    if volume:
        found.update(volume=volume["v"], volume_end=_after(volume["v"], volume["v_end"]))
        spans.append(volume.span())
    elif book:
        found.update(volume=book["v"], volume_end=_after(book["v"], book["v_end"]))
        spans.append(book.span())
    elif season:
        found.update(volume=season["v"], chapter=season["c"])
        spans.append(season.span())
    if chapter:
        parts = chapter.groupdict()
        found.update(chapter=_part(chapter["c"], parts.get("part")),
                     chapter_end=_after(chapter["c"], _part(parts.get("c_end"), parts.get("end_part"))))
        spans.append(chapter.span())
    special = None if "chapter" in found else _SPECIAL.search(text)
    if special:
        found["special"] = special["s"]
        spans.append(special.span())
    elif extra and not found:
        found["extra"] = extra["x"] or extra["xw"] or ""
        spans.append(extra.span())
    if "chapter" not in found and not special and "extra" not in found:
        bare = _bare(_blank(text, index) if position else text, volume or (book if "volume" in found else None))
        if bare:
            m, leading = bare
            found.update(chapter=_part(m["c"], m["part"]),
                         chapter_end=_after(m["c"], _part(m["c_end"], m["end_part"])), leading=leading)
            spans.append(m.span())
            chapter = m
    title = _title(text, spans, chapter)
    return Release(**found, title=title, source=source or _source(groups, leading_group))


def _title(text, spans, chapter):
    """The text after the chapter token (else after the last token) up to the next token, cleaned."""
    if not spans:
        return None
    start = chapter.end() if chapter else max(end for _s, end in spans)
    stop = min((s for s, _e in spans if s >= start), default=len(text))
    return _clean(text[start:stop])


def _after(start, end):
    """The end of a range only when it lies after its start ('356-1' is no range)."""
    if end is None:
        return None
    try:
        return end if float(end) > float(start) else None
    except ValueError:
        return None


def _part(digits, part):
    """'153' with a part letter ('153b') → '153.5'; digits with a fraction keep it."""
    if digits is None or not part or "." in digits:
        return digits
    return digits + ".5"


def _bare(text, volume):
    """(match, leading) of the bare number that is the chapter, or None (step 4 of the module doc)."""
    if volume:
        gap = re.compile(r"[\s._\-]*").match(text, volume.end()).end()
        after = _BARE.match(text, gap)
        return (after, False) if after else None
    stripped = len(text) - len(text.lstrip(" _.-"))
    numbers = [m for m in _BARE.finditer(text) if not _YEAR.match(m["c"])]
    if not numbers:
        return None
    if numbers[0].start() == stripped:
        return numbers[0], True
    for m in numbers:
        if re.match(r"^\s+-\s", text[m.end():]):
            return m, False
    if not text[numbers[-1].end():].strip(" _.-"):
        return numbers[-1], False
    return numbers[0], False
