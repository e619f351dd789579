"""Backup archives: write one from the collected files, verify one, extract one safely.

An archive is a tar.gz whose first member is `manifest.json` ({"format", "created", "files":
{relative path: {"size", "sha256"}}}), followed by one regular file `data/<relative path>` per
entry. Putting the manifest first lets a reader refuse a member by its header alone (a name not
listed, a size not the listed one) before reading a byte of it: a crafted 10 GB member costs
nothing.

`read()` is the one reader for verify and restore; it refuses: a first member other than the
manifest, links, devices, folders and any non-regular member, absolute names, `..`, names outside
`data/`, a member twice, a size or SHA-256 other than the manifest's, a file over the state-file
cap, members missing at the end, and any truncated or corrupt stream.
"""
import gzip
import hashlib
import io
import json
import os
import re
import tarfile
import time
import zlib
from pathlib import Path, PurePosixPath

from mangacircus.jsonfile import MAX_BYTES, StateFileError, fsync_dir, read_capped

FORMAT = 1
MANIFEST = "manifest.json"
PREFIX = "data/"
MAX_MANIFEST = 4 << 20
CHUNK = 1 << 20
# Disposable caches (rebuilt by the next scan), process state, and generated secrets (remade at
# the next start): never in an archive. Patterns match the path relative to DATA.
EXCLUDED = [
    r"\.lock", r"\.startall\.lock", r"scraper/\.lock", r"library-index\.json", r"scan-cache\.json",
    r"thumbs/.*", r"static/.*", r"local-admin\.json", r"local-admin\.token", r"scraper\.token",
    r"secret_key", r"setup-code", r"supervisor\.json", r"supervisor-restart\.json", r"scraper/status\.json",
    r"metadata/cache/.*", r"metadata/\.lock", r"metadata/status\.json",
    r"trackers\.json",  # the users' tracker tokens (docs/trackers.md): connected again after a restore
    r".*\.tmp", r".*\.part",
]
_EXCLUDED = re.compile("|".join(f"(?:{p})" for p in EXCLUDED))


class ArchiveError(Exception):
    """The archive is unusable; the message says why."""


def collect(data_dir, snapshots, skip=()):
    """-> [(relative path, bytes)] for every file of DATA to back up, sorted. A registered
    snapshot (bytes from memory) replaces the file on disk; a snapshot of a file not on disk yet
    is included too. Symbolic links and other non-regular files are skipped, and so are the
    folders in `skip` (BACKUP itself, when it lies inside DATA)."""
    data_dir = Path(data_dir)
    skip = {Path(p).resolve() for p in skip}
    found = {}
    for root, dirs, files in os.walk(data_dir):
        rel_root = Path(root).relative_to(data_dir)
        dirs[:] = [d for d in dirs if not _EXCLUDED.fullmatch((rel_root / d).as_posix() + "/x")
                   and (Path(root) / d).resolve() not in skip]
        for name in files:
            rel = (rel_root / name).as_posix()
            if _EXCLUDED.fullmatch(rel):
                continue
            path = Path(root) / name
            if not path.is_file() or path.is_symlink():
                continue
            found[rel] = path
    entries = {}
    for rel, take in snapshots.items():
        content = take()
        if content is not None:
            entries[rel] = bytes(content)
    for rel, path in found.items():
        if rel not in entries:
            try:
                entries[rel] = read_capped(path)
            except FileNotFoundError:
                continue  # removed meanwhile (a rotated file)
            except StateFileError as e:
                raise ArchiveError(str(e)) from None
    return sorted(entries.items())


def manifest_for(entries):
    return {
        "format": FORMAT, "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "files": {rel: {"size": len(content), "sha256": hashlib.sha256(content).hexdigest()}
                  for rel, content in entries},
    }


def write(path, entries, progress=None):
    """Write the archive to `path` (a new file, mode 0600) and fsync it; -> the manifest."""
    manifest = manifest_for(entries)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    with open(fd, "wb") as raw:
        with tarfile.open(fileobj=raw, mode="w:gz", compresslevel=1, format=tarfile.PAX_FORMAT) as tar:
            _add(tar, MANIFEST, json.dumps(manifest, indent=1).encode())
            for i, (rel, content) in enumerate(entries):
                _add(tar, PREFIX + rel, content)
                if progress:
                    progress(i + 1, len(entries))
        raw.flush()
        os.fsync(raw.fileno())
    return manifest


def _add(tar, name, content):
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mode = 0o600
    info.mtime = int(time.time())
    tar.addfile(info, io.BytesIO(content))


def _check_name(name):
    """-> the path relative to DATA for a member name, or ArchiveError."""
    if "\x00" in name or "\\" in name:
        raise ArchiveError(f"member {name!r}: a name with NUL or a backslash")
    pure = PurePosixPath(name)
    if pure.is_absolute():
        raise ArchiveError(f"member {name!r}: an absolute path")
    if ".." in pure.parts:
        raise ArchiveError(f"member {name!r}: a path with ..")
    if not name.startswith(PREFIX) or len(pure.parts) < 2:
        raise ArchiveError(f"member {name!r}: outside {PREFIX}")
    return PurePosixPath(*pure.parts[1:]).as_posix()


def read(path, on_file=None):
    """Read every member back against the manifest; -> the manifest, or ArchiveError.
    `on_file(relative path)` may return a writable binary file for the member's bytes (restore);
    it gets them only as they are read, so a caller must discard them when read() raises."""
    try:
        with gzip.open(path, "rb") as gz:
            with tarfile.open(fileobj=gz, mode="r|") as tar:
                manifest = _read(tar, on_file)
            # To the end of the stream: gzip checks its CRC and length there, which covers every
            # byte, the tar padding and end blocks included.
            while gz.read(CHUNK):
                pass
        return manifest
    except ArchiveError:
        raise
    except FileNotFoundError:
        raise ArchiveError(f"{path} does not exist") from None
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile, OSError, ValueError) as e:
        raise ArchiveError(f"the archive is damaged or truncated ({e.__class__.__name__}: {e})") from None


def _read(tar, on_file):
    first = tar.next()
    if first is None or first.name != MANIFEST or not first.isreg() or first.size > MAX_MANIFEST:
        raise ArchiveError(f"the first member is not {MANIFEST}: not a MangaCircus backup")
    try:
        manifest = json.loads(tar.extractfile(first).read())
        files = manifest["files"]
        assert manifest["format"] == FORMAT and isinstance(files, dict)
        for rel, entry in files.items():
            assert isinstance(entry["size"], int) and 0 <= entry["size"] <= MAX_BYTES
            assert re.fullmatch(r"[0-9a-f]{64}", entry["sha256"])
            assert _check_name(PREFIX + rel) == rel
    except (ValueError, KeyError, TypeError, AssertionError, ArchiveError):
        raise ArchiveError(f"{MANIFEST} is not a valid manifest") from None
    seen = set()
    while (member := tar.next()) is not None:
        if not member.isreg() or member.issparse():
            raise ArchiveError(f"member {member.name!r}: only regular files are allowed "
                               f"(links, devices, folders and sparse files are refused)")
        rel = _check_name(member.name)
        if rel not in files:
            raise ArchiveError(f"member {member.name!r} is not in the manifest")
        if rel in seen:
            raise ArchiveError(f"member {member.name!r} appears twice")
        seen.add(rel)
        if member.size != files[rel]["size"]:
            raise ArchiveError(f"member {member.name!r}: {member.size} bytes, the manifest says {files[rel]['size']}")
        digest = hashlib.sha256()
        out = on_file(rel) if on_file else None
        source = tar.extractfile(member)
        left = member.size
        while left:
            chunk = source.read(min(CHUNK, left))
            if not chunk:
                raise ArchiveError(f"member {member.name!r} is truncated")
            digest.update(chunk)
            if out:
                out.write(chunk)
            left -= len(chunk)
        if out:
            out.close()
        if digest.hexdigest() != files[rel]["sha256"]:
            raise ArchiveError(f"member {member.name!r}: its SHA-256 is not the manifest's")
    missing = sorted(set(files) - seen)
    if missing:
        raise ArchiveError(f"missing from the archive: {', '.join(missing[:5])}")
    return manifest


def excluded(rel):
    """Whether a path of DATA is one a backup never holds (EXCLUDED: generated secrets, locks, caches)."""
    return bool(_EXCLUDED.fullmatch(rel))


def extract(path, target, ignored=None):
    """Verify and extract into `target` (a new, empty folder); -> the manifest. Each file is made
    with O_EXCL and O_NOFOLLOW under folders this function made, so nothing can land outside.
    A file a backup never holds (`excluded`: the secret key, the local-admin token, ...) is
    verified but not written, and its path appended to `ignored`: an archive made elsewhere must
    not plant this server's secrets."""
    target = Path(target)
    target.mkdir(mode=0o700)

    def open_member(rel):
        if excluded(rel):
            if ignored is not None:
                ignored.append(rel)
            return _Discard()
        parent = target
        for part in PurePosixPath(rel).parts[:-1]:
            parent = parent / part
            if not parent.is_dir() or parent.is_symlink():
                parent.mkdir(mode=0o700)
        fd = os.open(parent / PurePosixPath(rel).name,
                     os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        return _SyncedFile(fd)

    manifest = read(path, open_member)
    for folder, _, _ in os.walk(target):
        fsync_dir(folder)
    return manifest


class _Discard:
    def write(self, chunk):
        pass

    def close(self):
        pass


class _SyncedFile:
    def __init__(self, fd):
        self.f = open(fd, "wb")

    def write(self, chunk):
        self.f.write(chunk)

    def close(self):
        self.f.flush()
        os.fsync(self.f.fileno())
        self.f.close()
