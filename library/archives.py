"""What one CBZ/ZIP archive holds, as the scan reads it (docs/library.md, "Archives").

`read(path, rel)` → a Listing: the page members in natural order with their sizes (from the first
bytes of each, zipread.MemberSource), the ComicInfo.xml fields, extra page tags from it, and
warnings; `Refused` (zipread) when the archive cannot be read at all. A Listing round-trips
through the scan cache (`to_cache`, `from_cache`) under the archive's size, mtime and inode, so an
unchanged archive is never opened again.

`layout(pages, whole)` splits a listing into chapter versions: pages under one wrapping folder lose
it; when `whole` (a volume, or a name that says nothing) and every folder holding pages looks like
a chapter, each folder is a chapter; otherwise the archive is one chapter.
"""
import os
from typing import NamedTuple

from . import comicinfo, epubread, imagesize, libarch, pdfread, zipread
from .names import ChapterName, is_page, natural_key, parse_entry

HEADER_BUDGET = 64 << 20  # bytes of compressed data header reads may take from one archive
LIBARCHIVE_HEAD = 64 << 10  # bytes of each page a RAR, 7z or tar scan reads for its size


class Listing(NamedTuple):
    pages: list  # member names, natural order, pages ComicInfo marks Deleted left out
    sizes: list  # (w, h) or (None, None)
    tags: dict  # member → tags from ComicInfo (FrontCover → cover)
    info: dict | None  # ComicInfo fields
    warnings: list  # (kind, path, message)
    refused: str | None = None  # why the whole archive cannot be read


def _wanted(name):
    base = name.rpartition("/")[2]
    return is_page(base) or (name.casefold() == "comicinfo.xml")


def _read_libarchive(path, rel):
    """read() of a RAR, 7z or tar archive, in one pass over it (libarch.listing). Of a solid one
    only the directory and ComicInfo.xml are read: a page's first bytes cost decompressing every
    page before it, so its size is learned when the archive is unpacked (files.pages_with_sizes)."""
    solid = libarch.is_solid(path)

    def heads(name):
        if name.casefold() == "comicinfo.xml":
            return comicinfo.MAX_BYTES + 1  # a larger one is reported, not read
        return LIBARCHIVE_HEAD if not solid and is_page(name.rpartition("/")[2]) else 0

    directory, found = libarch.listing(path, heads)
    warnings = [("archive-member", f"{rel}/{name}", f"not read: {why}") for name, why in directory.refused]
    info = None
    meta = next((m for m in directory.members if m.name.casefold() == "comicinfo.xml"), None)
    if meta is not None:
        info = _parse_comicinfo(found.get(meta.name, b""), meta.size, f"{rel}/{meta.name}", warnings)
    pages = sorted((m for m in directory.members if m is not meta and is_page(m.name.rpartition("/")[2])),
                   key=lambda m: natural_key(m.name))
    sizes = []
    for m in pages:
        if solid:
            sizes.append((None, None))
            continue
        size = imagesize.size_in(imagesize.Bytes(found.get(m.name, b"")))
        if size is None:
            warnings.append(("unreadable-image", f"{rel}/{m.name}",
                             "the image header cannot be read: the page is shown without a known size"))
        sizes.append(size or (None, None))
    return _listing([m.name for m in pages], sizes, info, warnings)


def read(path, rel):
    """The Listing of the archive at `path` (`rel` relative to LIBRARY, for warnings)."""
    ext = path.rpartition(".")[2].casefold()
    if ext in libarch.FORMATS:
        return _read_libarchive(path, rel)
    if ext == "pdf":
        found, info = pdfread.listing(path)
        return _listing([p.name for p in found], [p.size for p in found], info or None, [])
    try:
        return _read_zip(path, rel)
    except zipread.Refused:
        if libarch.sniff(path):  # a RAR or 7z named .cbz: read as what it is
            return _read_libarchive(path, rel)
        raise


def _read_zip(path, rel):
    epub = path.rpartition(".")[2].casefold() == "epub"
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        members, refused = zipread.directory(f, st.st_size, (lambda name: True) if epub else _wanted)
        warnings = [("archive-member", f"{rel}/{name}", f"not read: {why}") for name, why in refused]
        info = None
        meta = next((m for m in members if m.name.casefold() == "comicinfo.xml"), None)
        if meta is not None:
            info = _comicinfo(f, meta, st.st_size, f"{rel}/{meta.name}", warnings)
        # a ZIP merely named .epub (no container.xml) reads as a CBZ, as in Komga
        epub = epub and any(m.name == "META-INF/container.xml" for m in members)
        if epub:  # the spine's order, and the package's title, authors and direction (epubread.py)
            order, info = epubread.spine(f, st.st_size, members)
            by_name = {m.name: m for m in members}
            pages = [by_name[name] for name in order]
        else:
            pages = sorted((m for m in members if m is not meta and _wanted(m.name)), key=lambda m: natural_key(m.name))
        sizes, budget = [], HEADER_BUDGET
        for m in pages:
            size = None
            if budget > 0:
                try:
                    source = zipread.MemberSource(f, m, *zipread.data_start(f, m, st.st_size, imagesize.HEAD))
                    size = imagesize.size_in(source)
                    budget -= source._fed
                except (OSError, ValueError):
                    size = None
                if size is None:
                    warnings.append(("unreadable-image", f"{rel}/{m.name}",
                                     "the image header cannot be read: the page is shown without a known size"))
            sizes.append(size or (None, None))
        if budget <= 0:
            warnings.append(("archive-member", rel, "reading page sizes took too much decompression: "
                                                    "the later pages are shown without a known size"))
    return _listing([m.name for m in pages], sizes, info, warnings)


def _listing(names, sizes, info, warnings):
    extra, hidden = comicinfo.page_types(info, len(names))
    keep = [i for i in range(len(names)) if i not in hidden]
    if info is not None:
        info = {k: v for k, v in info.items() if k != "Pages"}
    return Listing([names[i] for i in keep], [sizes[i] for i in keep],
                   {names[i]: extra[i] for i in keep if i in extra}, info, warnings)


def _comicinfo(f, member, file_size, rel, warnings):
    if member.size > comicinfo.MAX_BYTES:
        raw = b""
    else:
        try:
            raw = b"".join(zipread.chunks(f, member, zipread.data_start(f, member, file_size)[0]))
        except (OSError, ValueError):
            raw = b""
    return _parse_comicinfo(raw, member.size, rel, warnings)


def _parse_comicinfo(raw, size, rel, warnings):
    if size > comicinfo.MAX_BYTES:
        warnings.append(("invalid-comicinfo", rel, f"is larger than {comicinfo.MAX_BYTES // 1024} KB; it is ignored"))
        return None
    if len(raw) != size:
        warnings.append(("invalid-comicinfo", rel, "cannot be unpacked; it is ignored"))
        return None
    info, problem = comicinfo.parse(raw)
    if problem:
        warnings.append(("invalid-comicinfo", rel, f"{problem}; it is ignored"))
    return info


def refusal(why):
    return Listing([], [], {}, None, [], why)


def to_cache(listing, st):
    flat = [v or 0 for pair in listing.sizes for v in pair]
    return {"a": [st.st_size, st.st_mtime_ns, st.st_ino], "n": "\0".join(listing.pages), "s": flat,
            "t": {k: list(v) for k, v in listing.tags.items()}, "i": listing.info,
            "w": [list(w) for w in listing.warnings], "x": listing.refused}


def from_cache(entry, st):
    """The Listing kept for this archive when its size, mtime and inode are the same; else None."""
    try:
        if entry["a"] != [st.st_size, st.st_mtime_ns, st.st_ino]:
            return None
        names = entry["n"].split("\0") if entry["n"] else []
        flat = entry["s"]
        if len(flat) != 2 * len(names):
            return None
        sizes = [(flat[i] or None, flat[i + 1] or None) for i in range(0, len(flat), 2)]
        info, warnings, tags = entry["i"], [tuple(w) for w in entry["w"]], {k: tuple(v) for k, v in entry["t"].items()}
        # The file is disposable and may be damaged: anything of the wrong shape means reading again.
        if not (info is None or (isinstance(info, dict) and all(isinstance(v, str) for v in info.values()))):
            return None
        if not all(len(w) == 3 and all(isinstance(x, str) for x in w) for w in warnings):
            return None
        if not all(isinstance(x, str) for t in tags.values() for x in t):
            return None
        if entry["x"] is not None and not isinstance(entry["x"], str):
            return None
        if not all(isinstance(v, int) for v in flat):
            return None
        return Listing(names, sizes, tags, info, warnings, entry["x"])
    except (KeyError, TypeError, AttributeError, ValueError):
        return None


class Part(NamedTuple):
    prefix: str  # folder inside the archive ("" = the archive itself)
    name: str  # the version name: the folder's last part, or the archive's file name
    files: list  # member names relative to prefix
    sizes: list
    parsed: ChapterName | None  # from the folder name


def _chapter_name(folder):
    named = parse_entry(folder, in_book=True)
    return named.chapter if named else None


def layout(listing, archive_name, whole):
    """[Part] of the archive: one per chapter folder (see the module docstring), else one."""
    pages = listing.pages
    if not pages:
        return []
    parts = [p.split("/")[:-1] for p in pages]
    common = parts[0]
    for p in parts[1:]:
        n = 0
        while n < min(len(common), len(p)) and common[n] == p[n]:
            n += 1
        common = common[:n]
    depth = len(common)
    if whole and all(len(p) > depth for p in parts):
        groups = {}
        for page, size, p in zip(pages, listing.sizes, parts):
            groups.setdefault(p[depth], []).append((page, size))
        named = {folder: _chapter_name(folder) for folder in groups}
        if all(named.values()):
            found = []
            for folder, entries in groups.items():
                prefix = "/".join([*common, folder])
                found.append(Part(prefix, folder, [page[len(prefix) + 1:] for page, _s in entries],
                                  [s for _p, s in entries], named[folder]))
            return found
    return [Part("", archive_name, list(pages), list(listing.sizes), None)]
