"""The folder source's transport: read-only access to files under SCRAPER_IMPORT_ROOTS.

It plays the part the HTTP client plays for network sources, so the folder source, like every
source, returns descriptors and never reads the disk itself. Every path is resolved (symlinks
included) and must stay inside an import root. Archives are read member by member into memory,
never extracted, so member names cannot escape anywhere (zip-slip), by the library's own readers
with their limits (the entry count, the total uncompressed size, each member's size and
compression ratio): CBZ/ZIP and EPUB (library/zipread.py, epubread.py), CBR, CB7 and CBT
(library/libarch.py) and PDF (library/pdfread.py, each page its own JPEG or drawn). A member a
reader refuses is skipped with a warning on the job. A solid archive's pages are read in one pass
the first time one is asked for, and kept in memory for the pages that follow (one archive at a
time); nothing is written to DATA.

Page URLs: `file:///abs/dir/001.jpg` for a file, `zip:///abs/dir/vol1.cbz#path/in/archive.png`
for an archive member (of any archive format: the file's extension says which reader).
"""
import os
import struct
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

from library import epubread, libarch, pdfread, zipread
from library.names import natural_key

from .errors import InvalidInput, Refused

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".webp", ".gif", ".avif"}
ARCHIVE_SUFFIXES = {".cbz", ".zip", ".epub", ".cbr", ".rar", ".cb7", ".7z", ".cbt", ".tar", ".pdf"}
_IGNORED = {"__macosx", "@eadir", "thumbs.db", "desktop.ini"}


class LocalReader:
    def __init__(self, roots, max_bytes, progress, warn=None):
        self.roots = [Path(r).resolve() for r in roots]
        self.max_bytes = max_bytes
        self.progress = progress
        self.warn = warn or (lambda message: None)  # what a source skipped: kept on the running job
        self._solid = (None, {})  # (archive path, {member: bytes}): the last solid archive read

    def resolve(self, path):
        """An absolute path inside an import root, symlinks resolved; else InvalidInput."""
        if not self.roots:
            raise InvalidInput("folder imports are off: set SCRAPER_IMPORT_ROOTS to the folders to import from")
        if not isinstance(path, str) or "\x00" in path or not os.path.isabs(path):
            raise InvalidInput("give an absolute path on the server")
        real = Path(os.path.realpath(path))
        if not any(real == root or root in real.parents for root in self.roots):
            raise InvalidInput(f"{path} is not inside an import folder ({', '.join(map(str, self.roots))})")
        if not real.exists():
            raise InvalidInput(f"{path} does not exist")
        return real

    def list_dir(self, path):
        """-> [(name, kind)] with kind "dir", "image" or "archive", ignoring hidden and junk names."""
        folder = self.resolve(str(path))
        if not folder.is_dir():
            raise InvalidInput(f"{path} is not a folder")
        try:
            listing = list(os.scandir(folder))
        except OSError as e:
            raise Refused(f"{path} cannot be read: {e.strerror}") from None
        entries = []
        for entry in listing:
            name = entry.name
            if name.startswith(".") or name.lower() in _IGNORED:
                continue
            suffix = Path(name).suffix.lower()
            if entry.is_dir():
                entries.append((name, "dir"))
            elif entry.is_file() and suffix in IMAGE_SUFFIXES:
                entries.append((name, "image"))
            elif entry.is_file() and suffix in ARCHIVE_SUFFIXES:
                entries.append((name, "archive"))
        return entries

    def archive_images(self, path):
        """Image member names of an archive in reading order (natural order of names; an EPUB's
        spine; a PDF's pages), after the reader's checks; each member it refuses is reported
        through warn()."""
        archive = self.resolve(str(path))
        suffix = archive.suffix.lower()
        try:
            if suffix == ".pdf":
                return [page.name for page in pdfread.listing(str(archive))[0]]
            if _libarchive(archive):
                directory, _heads = libarch.listing(str(archive), lambda name: 0)
                members, refused = directory.members, directory.refused
            else:
                with _open_archive(archive) as (f, size):
                    members, refused = _directory(archive, f, size)
                    if suffix == ".epub" and any(m.name == "META-INF/container.xml" for m in members):
                        return epubread.spine(f, size, members)[0]
        except zipread.Refused as e:
            raise Refused(f"{archive.name} is refused: {e}") from None
        for name, why in refused:
            self.warn(f"{archive.name}: {name} was skipped: {why}")
        return sorted((m.name for m in members if Path(m.name).suffix.lower() in IMAGE_SUFFIXES), key=natural_key)

    def fetch_page(self, page, record=None):
        """-> (bytes, content type hint) for a file: or zip: page URL."""
        parts = urlsplit(page.url)
        path = unquote(parts.path)
        if parts.scheme == "file":
            target = self.resolve(path)
            with open(target, "rb") as f:
                data = f.read(self.max_bytes + 1)
            if len(data) > self.max_bytes:
                raise Refused(f"{target.name} is over the {self.max_bytes >> 20} MiB cap")
        elif parts.scheme == "zip":
            data = self._member(self.resolve(path), unquote(parts.fragment))
        else:
            raise Refused(f"the folder source reads file: and zip: URLs, not {parts.scheme}:")
        self.progress.touch()
        return data, ""

    def _member(self, archive, name):
        suffix = archive.suffix.lower()
        try:
            if suffix == ".pdf":
                data = pdfread.page_jpeg(str(archive), name)
            elif _libarchive(archive):
                data = self._libarchive_member(archive, name)
            else:
                return self._zip_member(archive, name)
        except zipread.Refused as e:
            raise Refused(f"{archive.name}: {name} cannot be read: {e}") from None
        if data is None:
            raise Refused(f"{archive.name}: {name} is not in the archive")
        if len(data) > self.max_bytes:
            raise Refused(f"{archive.name}: {name} is over the {self.max_bytes >> 20} MiB cap")
        return data

    def _libarchive_member(self, archive, name):
        if not libarch.is_solid(str(archive)):
            return libarch.member(str(archive), name)
        path, pages = self._solid
        if path != archive:
            pages = {}
            libarch.extract(str(archive), lambda n: Path(n).suffix.lower() in IMAGE_SUFFIXES, pages.__setitem__)
            self._solid = (archive, pages)
        return pages.get(name)

    def _zip_member(self, archive, name):
        with _open_archive(archive) as (f, size):
            members, refused = _directory(archive, f, size, lambda n: n == name)
            if not members:
                why = next((why for n, why in refused if n == name), None)
                raise Refused(f"{archive.name}: {name} " + (f"is refused: {why}" if why else "is not in the archive"))
            member = members[0]
            if member.size > self.max_bytes:
                raise Refused(f"{archive.name}: {name} is over the {self.max_bytes >> 20} MiB cap")
            try:
                return zipread.member_bytes(f, member, size)
            except (ValueError, OSError) as e:
                raise Refused(f"{archive.name}: {name} cannot be read: {e}") from None


def _libarchive(archive):
    """A RAR, 7z or tar archive (by its extension, or a RAR or 7z named .cbz/.zip)."""
    suffix = archive.suffix.lower()
    return suffix[1:] in libarch.FORMATS or (suffix in (".cbz", ".zip") and libarch.sniff(str(archive)) is not None)


@contextmanager
def _open_archive(path):
    try:
        f = open(path, "rb")
    except OSError as e:
        raise Refused(f"{path.name} cannot be read: {e.strerror}") from None
    with f:
        yield f, os.fstat(f.fileno()).st_size


def _directory(path, f, size, wanted=lambda name: True):
    try:
        return zipread.directory(f, size, wanted)
    except zipread.Refused as e:
        raise Refused(f"{path.name} is refused: {e}") from None
    except (OSError, ValueError, struct.error) as e:
        raise Refused(f"{path.name} is not a readable ZIP/CBZ archive ({e})") from None


def file_url(path):
    return "file://" + quote(str(path))


def zip_url(archive, member):
    return "zip://" + quote(str(archive)) + "#" + quote(member)

