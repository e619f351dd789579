"""Folder and file names for what the scraper writes (docs/library.md, "Names").

Remote titles are hostile input: they become single path components with no separators, no
control or bidi characters, no leading dot, no trailing dot or space, not a reserved device name,
and at most 255 bytes of UTF-8 for the whole component.
"""
import hashlib
import re
import unicodedata

from library.names import number_key

MAX_BYTES = 255
_UNSAFE = re.compile(r'[/\\:*?"<>|\x00]')
_RESERVED = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)
_NUMBER = re.compile(r"^0*(\d+)(?:\.(\d+))?$")


def clean(text, fallback="Untitled", max_bytes=MAX_BYTES):
    """One safe path component from a remote string (may be empty only if fallback is "")."""
    text = unicodedata.normalize("NFC", str(text or ""))
    # Cc: control characters (NUL, newlines...); Cf: format characters, the RTL overrides among them.
    text = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
                   for c in text if unicodedata.category(c) != "Cf")
    text = _UNSAFE.sub("_", text)
    text = re.sub(r"\s+", " ", text)
    text = _truncate(text, max_bytes)
    text = text.strip(" .").lstrip(".")
    if _RESERVED.match(text):
        text = "_" + text
    return text or fallback


def _truncate(text, max_bytes):
    raw = text.encode("utf-8")
    if len(raw) <= max_bytes:
        return text
    return raw[:max_bytes].decode("utf-8", "ignore")


def chapter_number(number):
    """'2.5' -> '0002.5', '0012' -> '0012' (never through float); None when it is not a number."""
    match = _NUMBER.match((number or "").strip())
    if not match:
        return None
    whole, part = match.group(1), match.group(2)
    return whole.zfill(4) + (f".{part}" if part else "")


def chapter_key(number):
    """The library's key for a source's chapter number ('3.10' -> '3.10', '0012' -> '12'); a oneshot
    (None) or a number that is not one (a range '17-17.5') keeps its text, so it still matches itself."""
    match = _NUMBER.match((number or "").strip())
    if not match:
        return f"~{(number or '').strip()}"
    return number_key(match.group(0))


def book_folder(volume):
    """`Vol. 2` for a numbered volume; None (the chapter stays at the top) for none or a non-number."""
    match = _NUMBER.match((volume or "").strip())
    return f"Vol. {number_key(match.group(0))}" if match else None


def chapter_folder(number, title, bracket):
    """`c0002.5 Title [Source]`, within 255 bytes; the title gives way first. A oneshot is
    `SP01 Oneshot`: the library reads it as the special of the extras book (docs/library-names.md),
    never as a chapter 0 beside a real one; a range (`17-17.5`) is filed under its first number with
    the range in the title."""
    padded = chapter_number(number)
    if number is None and not (title or "").strip():
        title = "Oneshot"
    elif number is not None and padded is None:
        first = re.match(r"\s*(\d+(?:\.\d+)?)", number)
        padded = chapter_number(first.group(1)) if first else None
        title = f"({number.strip()}) {title or ''}".strip()
    prefix = "SP01" if number is None else f"c{padded or '0000'}"
    tag = f" [{clean(bracket, fallback='', max_bytes=80)}]" if clean(bracket, fallback="") else ""
    room = MAX_BYTES - len(prefix.encode()) - len(tag.encode()) - 1
    name = clean(title, fallback="", max_bytes=room)
    return f"{prefix} {name}{tag}" if name else f"{prefix}{tag}"


def with_suffix(folder, source_id):
    """A distinct name for a folder whose name is taken by another chapter: a short id hash."""
    mark = hashlib.sha1(source_id.encode()).hexdigest()[:6]
    base = _truncate(folder, MAX_BYTES - 8).rstrip(" .")
    return f"{base} #{mark}"


def page_file(index, count, ext):
    """`001.jpg`: zero-padded so plain and natural sort agree."""
    return f"{index + 1:0{max(3, len(str(count)))}d}.{ext}"


def staging_name(job_id, chapter_id):
    return f"{job_id}-{hashlib.sha1(chapter_id.encode()).hexdigest()[:12]}"
