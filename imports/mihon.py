"""Reading a Mihon (or Tachiyomi) backup, `.tachibk` or `.proto.gz` (docs/import.md, "Mihon"): gzip
of one protobuf `Backup` whose fields Mihon's backup/models/*.kt name with @ProtoNumber:

    Backup        1 backupManga (repeated BackupManga), 2 backupCategories (repeated BackupCategory)
    BackupManga   1 source (int64), 2 url, 3 title, 16 chapters, 17 categories (their order values),
                  104 history
    BackupChapter 1 url, 2 name, 4 read, 6 lastPageRead (from 0), 9 chapterNumber (float),
                  11 lastModifiedAt (seconds)
    BackupHistory 1 url (the chapter's), 2 lastRead (ms)
    BackupCategory 1 name, 2 order (a manga in no category is in Mihon's Default one, which has none)

A backup is one person's: it is imported into one account. MangaDex (source 2499283573021220255)
names a manga `/manga/<uuid>` and a chapter `/chapter/<uuid>`.
"""
import gzip
import re
import zlib
from pathlib import Path

from django.utils.translation import gettext as _

from mangacircus.errors import Invalid, TooLarge

from . import protobuf as pb
from .source import Source

MANGADEX = 2499283573021220255
MAX_BYTES = 64 * 1024 ** 2          # the file
MAX_UNPACKED = 512 * 1024 ** 2      # what it unpacks to: a gzip bomb stops here
UUID = r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"
MANGA_URL, CHAPTER_URL = re.compile(rf"/manga/{UUID}"), re.compile(rf"/chapter/{UUID}")


def unpack(path, max_bytes=None, max_unpacked=None):
    path = Path(path)
    try:
        size = path.stat().st_size
        if not path.is_file():
            raise Invalid(_("%(path)s is not a file") % {"path": path})
        if size > (max_bytes or MAX_BYTES):
            raise TooLarge(_("%(path)s is %(size)s bytes, more than the %(limit)s an import reads")
                           % {"path": path, "size": f"{size:,}", "limit": f"{max_bytes or MAX_BYTES:,}"})
        raw = path.read_bytes()
    except OSError as e:
        raise Invalid(_("cannot read %(path)s: %(error)s") % {"path": path, "error": e.strerror or e}) from None
    if raw[:2] != b"\x1f\x8b":
        if raw[:1] == b"\x0a":  # Mihon reads an unpacked backup too: it starts with field 1, a message
            return raw
        raise Invalid(_("%(path)s is not a Mihon backup (it is neither gzip nor a backup's protobuf)") % {"path": path})
    limit = max_unpacked or MAX_UNPACKED
    out = zlib.decompressobj(wbits=31)
    try:
        data = out.decompress(raw, limit + 1)
    except zlib.error as e:
        raise Invalid(_("%(path)s is not a whole gzip file: %(error)s") % {"path": path, "error": e}) from None
    if len(data) > limit:
        raise TooLarge(_("%(path)s unpacks to more than %(limit)s bytes, more than an import reads")
                       % {"path": path, "limit": f"{limit:,}"})
    if not out.eof:
        raise Invalid(_("%(path)s is not a whole gzip file: it ends early") % {"path": path})
    return data


def read(path, into, max_bytes=None, max_unpacked=None):
    """The Source of the backup at `path`, for the account `into`."""
    if not isinstance(into, str) or not into:
        raise Invalid(_("a Mihon backup is one person's: name the account it goes into"))
    data = unpack(path, max_bytes, max_unpacked)
    try:
        backup = pb.message(data)
        mangas = pb.messages(backup, 1)
        categories = [(pb.string(c, 1), pb.integer(c, 2)) for c in pb.messages(backup, 2)]
        source = Source("mihon", str(path))
        source.add_user("backup", f"the backup ({into})", into)
        members = {order: [] for _, order in categories}
        for manga in mangas:
            _add_manga(source, manga)
            ref = _series(manga)
            for order in pb.integers(manga, 17):
                members.setdefault(order, []).append(ref)
    except (pb.WireError, gzip.BadGzipFile) as e:
        raise Invalid(_("%(path)s is not a Mihon backup: %(error)s") % {"path": path, "error": e}) from None
    # Each category becomes a private collection of the account, its manga in the backup's order.
    for name, order in sorted(categories, key=lambda c: c[1]):
        source.add_collection("backup", name, members.pop(order, []), ordered=False, shared=False)
    return source


def _series(manga):
    """How a collection names the manga: its title, and its MangaDex id when it is from MangaDex."""
    found = MANGA_URL.search(pb.string(manga, 2)) if pb.integer(manga, 1) == MANGADEX else None
    return {"name": pb.string(manga, 3), "mangadex": found.group(1) if found else None}


def _add_manga(source, manga):
    title, url, origin = pb.string(manga, 3), pb.string(manga, 2), pb.integer(manga, 1)
    found = MANGA_URL.search(url) if origin == MANGADEX else None
    last_read = {pb.string(h, 1): pb.integer(h, 2) for h in pb.messages(manga, 104)}
    for chapter in pb.messages(manga, 16):
        read, page = pb.boolean(chapter, 4), pb.integer(chapter, 6)
        if not read and page <= 0:
            continue
        curl = pb.string(chapter, 1)
        cid = CHAPTER_URL.search(curl) if origin == MANGADEX else None
        number = pb.float32(chapter, 9)
        modified = pb.integer(chapter, 11)
        t = last_read.get(curl) or (modified * 1000 if 0 < modified < 10 ** 11 else modified)
        source.add_progress("backup", path=None, series=title, title=title,
                            number=_number(number), page=max(page, 0), pages=None, done=read, t=max(t, 0),
                            mangadex=found.group(1) if found else None, chapter=cid.group(1) if cid else None,
                            what=f"{title}: {pb.string(chapter, 2) or curl}")


def _number(value):
    """Mihon's float chapter number as the text a key has: 12.0 → "12", 12.5 → "12.5", -1 → ""."""
    if value < 0 or value != value:
        return ""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return text
