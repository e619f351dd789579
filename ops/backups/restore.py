"""`manage.py restore ARCHIVE`: put an archive's DATA in place, with the services stopped.

1. Refuse while a reader, a scraper or a `startall` holds its lock on DATA.
2. Verify the archive and extract it into a new folder beside DATA (archive.extract: regular
   files only, no absolute paths, `..` or links; files a backup never holds, such as the secret
   key or the local-admin token, are ignored and named). Any failure removes that folder: DATA is
   untouched.
3. Take the locks (so no service starts until the restore is done), remove what a killed restore
   left beside DATA (`.<DATA>.restoring-<time>/`), saying so, then move the current DATA aside to
   `<DATA>.before-restore-<time>/` and the extracted folder into its place. When DATA is a mount
   point (a container volume) it cannot be renamed: its contents are moved instead, into
   `before-restore-<time>/` beside DATA or, failing that, inside it.
"""
import os
import shutil
import time
from pathlib import Path

from mangacircus import locks

from .. import supervisor
from . import archive

LOCKS = ((".lock", "MangaCircus reader"), ("scraper/.lock", "MangaCircus scraper"),
         (supervisor.LOCK_FILE, "MangaCircus startall"))


class RestoreError(Exception):
    pass


def restore(archive_path, data_dir):
    """-> {"manifest", "moved_aside", "restored", "ignored", "cleaned"}; RestoreError with what to do."""
    data_dir = Path(data_dir).resolve()
    archive_path = Path(archive_path)
    if not archive_path.is_file():
        raise RestoreError(f"{archive_path} is not a file")
    _refuse_if_running(data_dir)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    staging = data_dir.with_name(f".{data_dir.name}.restoring-{stamp}")
    ignored = []
    try:
        manifest = archive.extract(archive_path, staging, ignored)
    except archive.ArchiveError as e:
        shutil.rmtree(staging, ignore_errors=True)
        raise RestoreError(f"{archive_path} was not restored: {e}. DATA ({data_dir}) is untouched.") from None
    except OSError as e:
        shutil.rmtree(staging, ignore_errors=True)
        raise RestoreError(f"cannot extract next to {data_dir}: {e}. DATA is untouched.") from None
    try:
        # Held from here to the end, so no service can start on a half-swapped DATA.
        _refuse_if_running(data_dir, take=True)
        cleaned = clean_leftovers(data_dir, keep=staging)
        return {"manifest": manifest, "ignored": ignored, "cleaned": cleaned, **_swap(staging, data_dir, stamp)}
    except RestoreError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    finally:
        locks.release_all()


def leftovers(data_dir):
    """The folders a killed restore left beside DATA."""
    data_dir = Path(data_dir).resolve()
    return sorted(data_dir.parent.glob(f".{data_dir.name}.restoring-*"))


def clean_leftovers(data_dir, keep=None):
    """Remove what killed restores left beside DATA (but `keep`, a restore's own); -> the paths
    removed. Called while holding DATA's locks: by a restore, and by the reader as it starts."""
    removed = []
    for folder in leftovers(data_dir):
        if keep is not None and folder == Path(keep).resolve():
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(str(folder))
    return removed


def _refuse_if_running(data_dir, take=False):
    if not data_dir.exists():
        return
    for name, what in LOCKS:
        path = data_dir / name
        try:
            if take and path.parent.is_dir():
                locks.hold(path, what)
            elif locks.is_held(path):
                raise locks.LockHeld(f"a {what} is running on {data_dir}")
        except locks.LockHeld as e:
            raise RestoreError(f"{e}. Restore replaces DATA: stop the services first. DATA is untouched.") from None


def _swap(staging, data_dir, stamp):
    aside = data_dir.with_name(f"{data_dir.name}.before-restore-{stamp}")
    moved = None
    if data_dir.exists():
        try:
            os.rename(data_dir, aside)
            moved = aside
        except OSError:
            moved = _move_contents(data_dir, aside)
    if data_dir.exists():  # a mount point: fill it instead of replacing it
        for child in staging.iterdir():
            shutil.move(child, data_dir / child.name)
        staging.rmdir()
    else:
        os.rename(staging, data_dir)
    return {"moved_aside": str(moved) if moved else None, "restored": str(data_dir)}


def _move_contents(data_dir, aside):
    try:
        aside.mkdir()
    except OSError:
        aside = data_dir / f"before-restore-{aside.name.rsplit('-', 2)[-2]}-{aside.name.rsplit('-', 1)[-1]}"
        aside.mkdir()
    for child in list(data_dir.iterdir()):
        if child != aside:
            shutil.move(child, aside / child.name)
    return aside
