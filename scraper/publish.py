"""Staging and publication: the only code that writes LIBRARY (docs/scraper.md, "Checkpoints and
publication"; the layout in docs/library.md).

1. Pages go into `LIBRARY/.staging/<job>-<chapter>/` (same file system as the library, hidden
   from scans by its leading dot), each verified as an image, written to a tmp name, fsynced and
   renamed to `001.jpg`; the directory is fsynced. The files on disk are the checkpoint.
   Pages announced with their size and SHA-256 (a peer's) skip the fsyncs: all of them and the
   directory are fsynced once, before publication, and on a resume each staged page must still
   have the announced bytes (a power cut may leave one short or empty) or it is fetched again.
2. A complete chapter gets its chapter.json, then ONE rename puts the folder in place and the
   parent directory is fsynced: readers see the chapter either not at all or whole.
3. A new manga is staged whole (its folder, manga.json and the first chapter) and renamed in.
"""
import hashlib
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson

from mangacircus.jsonfile import fsync_dir, write_atomic

from . import names
from .errors import Parked, Refused
from .images import verify
from .queue import now_ms

STAGING = ".staging"
SYNC_THREADS = 8
_PAGE = re.compile(r"^(\d+)\.(jpg|png|webp|gif|avif)$")


class Library:
    def __init__(self, root, min_free_bytes=0):
        self.root = Path(root).resolve()
        self.staging_root = self.root / STAGING
        self.min_free_bytes = min_free_bytes

    # Staging

    def staging_dir(self, name):
        # Never LIBRARY itself: a missing one is an unmounted disk, and a folder made in its place
        # would fill the disk under the mount point.
        self.staging_root.mkdir(exist_ok=True, mode=0o755)
        path = self.staging_root / name
        path.mkdir(parents=True, exist_ok=True, mode=0o755)
        self._recover_wrapper(path)
        return path

    def stored_pages(self, staging, kept_names=()):
        """{index: file name} of the verified pages already in staging; tmp leftovers removed.
        `kept_names`: the pages' own names in order, when the source keeps them (a peer's)."""
        pages = {}
        wanted = {name: i for i, name in enumerate(kept_names)}
        for entry in os.scandir(staging):
            if entry.name.endswith(".tmp"):
                os.unlink(entry.path)
                continue
            match = _PAGE.match(entry.name)
            if wanted:
                if entry.name in wanted:
                    pages[wanted[entry.name]] = entry.name
            elif match:
                pages[int(match.group(1)) - 1] = entry.name
        return pages

    def store_page(self, staging, index, count, data, name=None, sync=True):
        """Verify, write and fsync one page; -> its file name (`name`, else 001.jpg… from the bytes).
        BadImage when it is no image. `sync=False`: no fsync, sync_pages() does it for the chapter, and
        a JPEG is decoded at a scale (images.verify)."""
        ext, _width, _height = verify(data, scaled=not sync)
        name = name or names.page_file(index, count, ext)
        if sync:
            _write_file(staging / name, data)
            fsync_dir(staging)
        else:
            _write_unsynced(staging / name, data)
        return name

    def sync_pages(self, staging):
        """fsync every staged file, then the folder: the pages stored with sync=False are on disk.
        Several at a time, since concurrent fsyncs share the file system's journal commits."""
        with ThreadPoolExecutor(SYNC_THREADS) as pool:
            list(pool.map(_fsync_file, [entry.path for entry in os.scandir(staging)]))
        fsync_dir(staging)

    def drop_unsound(self, staging, stored, announced):
        """Remove from `stored` ({index: name}, and from disk) each page whose bytes are no longer
        `announced[index]` ((size, sha256)); what matches was verified before it was written."""
        for index, name in list(stored.items()):
            path = staging / name
            size, sha256 = announced[index]
            data = path.read_bytes()
            if len(data) != size or hashlib.sha256(data).hexdigest() != sha256:
                path.unlink()
                del stored[index]

    def check_space(self):
        free = shutil.disk_usage(self.root).free
        if free < self.min_free_bytes:
            raise Parked(f"only {free >> 20} MB free in LIBRARY, the minimum is {self.min_free_bytes >> 20} MB "
                         "(SCRAPER_MIN_FREE_MB); waiting for space", now_ms() + 300_000)

    def discard_job(self, job_id):
        """Remove every staging folder of a job (cancelled, or finished)."""
        if self.staging_root.is_dir():
            for entry in os.scandir(self.staging_root):
                if entry.name.startswith(f"{job_id}-"):
                    shutil.rmtree(entry.path, ignore_errors=True)

    def clean_staging(self, keep):
        """Remove staging folders that belong to no active job (names start with the job id)."""
        if not self.staging_root.is_dir():
            return []
        removed = []
        for entry in os.scandir(self.staging_root):
            if entry.name.split("-")[0] not in keep:
                shutil.rmtree(entry.path, ignore_errors=True)
                removed.append(entry.name)
        return removed

    # The published library

    def manga_folder(self, title):
        """The folder for a title: an existing one that differs only in case, else a safe new name."""
        name = names.clean(title)
        if self.root.is_dir():
            for entry in os.scandir(self.root):
                if entry.name.lower() == name.lower() and entry.is_dir():
                    return entry.name
        return name

    def _manga_path(self, manga):
        path = self.root / manga
        if manga != names.clean(manga) or not os.path.realpath(path).startswith(str(self.root) + os.sep):
            raise Refused(f"{manga!r} is not a safe folder inside LIBRARY")
        return path

    def published(self, manga, source):
        """{source chapter id: folder} for the chapters this source published in that manga."""
        found = {}
        path = self._manga_path(manga)
        if not path.is_dir():
            return found
        for chapter_json in [*path.glob("*/chapter.json"), *path.glob("*/*/chapter.json")]:
            try:
                meta = orjson.loads(chapter_json.read_bytes())
            except (OSError, orjson.JSONDecodeError):
                continue
            if not isinstance(meta, dict):
                continue
            # Older chapter.json files name the module in "source".
            if meta.get("module", meta.get("source")) == source and isinstance(meta.get("sourceId"), str):
                found[meta["sourceId"]] = str(chapter_json.parent.relative_to(path))
            elif meta.get("fetchedBy") == source and isinstance(meta.get("fetchedId"), str):
                # Copied by a source that keeps the original's own source and id (a peer).
                found[meta["fetchedId"]] = str(chapter_json.parent.relative_to(path))
        return found

    def published_keys(self, manga, source):
        """{(volume key, chapter key, group)} of this source's chapters in that manga: a chapter whose
        id changed at the source is still recognised by its volume, number and group."""
        keys = set()
        path = self._manga_path(manga)
        for chapter_json in [*path.glob("*/chapter.json"), *path.glob("*/*/chapter.json")]:
            try:
                meta = orjson.loads(chapter_json.read_bytes())
            except (OSError, orjson.JSONDecodeError):
                continue
            if isinstance(meta, dict) and meta.get("module", meta.get("source")) == source:
                groups = meta.get("groups") if isinstance(meta.get("groups"), list) else []
                number, volume = (meta.get(k) if isinstance(meta.get(k), str) else None for k in ("number", "volume"))
                keys.add((names.chapter_key(volume), names.chapter_key(number), str(groups[0]) if groups else ""))
        return keys

    def write_manga(self, manga, manga_meta, cover=None):
        """A subscribed manga's folder with manga.json and `cover.<ext>` ((bytes, ext) or None),
        before any chapter: a new folder is staged whole and renamed in; an existing one gets this
        source added to its manga.json and a cover only when it has none."""
        manga_path = self._manga_path(manga)
        if manga_path.is_dir():
            self._merge_manga_json(manga_path, manga_meta)
            if cover and not any(manga_path.glob("cover.*")):
                write_replace(manga_path / f"cover.{cover[1]}", cover[0])
            return
        wrapper = self.staging_dir(f"manga-{names.staging_name('new', manga)}")
        _write_file(wrapper / "manga.json", orjson.dumps(manga_meta, option=orjson.OPT_INDENT_2))
        if cover:
            _write_file(wrapper / f"cover.{cover[1]}", cover[0])
        fsync_dir(wrapper)
        os.rename(wrapper, manga_path)
        fsync_dir(self.root)

    def publish_chapter(self, staging, manga, folder, chapter_meta, manga_meta, book=None):
        """Put a complete staged chapter in place with one rename; -> its path in the manga folder
        (`Vol. 2/c0012 Title [Group]` when it has a book)."""
        manga_path = self._manga_path(manga)
        if any(part != names.clean(part) for part in (folder, book) if part):
            raise Refused(f"{book + '/' if book else ''}{folder} is not a safe folder name")
        _write_file(staging / "chapter.json", orjson.dumps(chapter_meta, option=orjson.OPT_INDENT_2))
        fsync_dir(staging)
        if manga_path.is_dir():
            parent = manga_path / book if book else manga_path
            if (parent / folder).exists():
                folder = names.with_suffix(folder, chapter_meta.get("sourceId") or chapter_meta.get("fetchedId", ""))
            if parent.is_dir():
                os.rename(staging, parent / folder)
                fsync_dir(parent)
            else:  # a new book: staged whole with this chapter, then renamed in
                wrapper = staging.with_name(f"{staging.name}.manga")
                new_book = wrapper / book
                new_book.mkdir(parents=True, exist_ok=True, mode=0o755)
                os.rename(staging, new_book / folder)
                fsync_dir(new_book)
                os.rename(new_book, parent)
                fsync_dir(manga_path)
                wrapper.rmdir()
            self._merge_manga_json(manga_path, manga_meta)
            return f"{book}/{folder}" if book else folder
        if book:  # a manga not written at add time (a job queued by id): manga.json first
            self.write_manga(manga, manga_meta)
            return self.publish_chapter(staging, manga, folder, chapter_meta, manga_meta, book)
        # A new manga: stage its folder whole, with manga.json and this chapter, then rename it in.
        wrapper = staging.with_name(f"{staging.name}.manga")
        new_manga = wrapper / manga
        new_manga.mkdir(parents=True, exist_ok=True, mode=0o755)
        _write_file(new_manga / "manga.json", orjson.dumps(manga_meta, option=orjson.OPT_INDENT_2))
        os.rename(staging, new_manga / folder)
        fsync_dir(new_manga)
        os.rename(new_manga, manga_path)
        fsync_dir(self.root)
        wrapper.rmdir()
        return folder

    def _merge_manga_json(self, manga_path, manga_meta):
        """Add this source to an existing manga.json (tmp + rename); an invalid file is left alone."""
        path = manga_path / "manga.json"
        try:
            current = orjson.loads(path.read_bytes())
        except FileNotFoundError:
            current = {}
        except (OSError, orjson.JSONDecodeError):
            return
        if not isinstance(current, dict):
            return
        sources = current.get("sources") if isinstance(current.get("sources"), dict) else {}
        if all(sources.get(k) == v for k, v in manga_meta["sources"].items()):
            return
        merged = {**manga_meta, **current, "sources": {**sources, **manga_meta["sources"]}}
        write_replace(path, orjson.dumps(merged, option=orjson.OPT_INDENT_2))

    def _recover_wrapper(self, staging):
        """A crash between the two renames of a new manga leaves the chapter in its wrapper: move it back."""
        wrapper = staging.with_name(f"{staging.name}.manga")
        if not wrapper.is_dir():
            return
        # The chapter folder is the one with chapter.json (written before the wrapper was made),
        # which may sit in a book folder (a peer's chapter).
        chapters = [c.parent for c in wrapper.glob("*/**/chapter.json")] or list(wrapper.glob("*/*"))
        for chapter in chapters:
            if chapter.is_dir() and not any(staging.iterdir()):
                staging.rmdir()
                os.rename(chapter, staging)
        shutil.rmtree(wrapper, ignore_errors=True)


def _write_file(path, data):
    """tmp + fsync + rename, readable by the reader (0644); a hidden tmp the scanner ignores."""
    write_atomic(path, data, mode=0o644, tmp=path.with_name(f".{path.name}.tmp"), sync_dir=False)


def _fsync_file(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_unsynced(path, data):
    """tmp + rename without fsync: a kill leaves the old name or the whole file, never a part."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as f:
        os.fchmod(f.fileno(), 0o644)
        f.write(data)
    os.replace(tmp, path)


def write_replace(path, data):
    _write_file(path, data)
    fsync_dir(path.parent)
