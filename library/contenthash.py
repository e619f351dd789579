"""Content hashes of chapter versions, the identity two peers compare (docs/peering.md).

A page's hash is the SHA-256 of its bytes; a version's hash is the SHA-256 of the lines
`<file>\\t<size>\\t<page sha256>\\n` of its pages in order, so the same pages under the same names
give the same hash on both sides. Page hashes are cached in memory by (path, size, mtime, inode):
hashing reads every byte once (~1.5 GB/s for SHA-256 here), later catalogs only stat. A page in
an archive (CBZ, CBR, CB7, CBT, PDF, EPUB) is hashed as it is served (files.open_page: a PDF's page
as its JPEG), cached by the archive's inode, size and mtime and the member's name.
"""
import hashlib
import os
import threading

_cache = {}  # real path -> ((size, mtime_ns, ino), sha256 hex); files.page_stamp -> (size, sha256 hex)
_lock = threading.Lock()
MAX_CACHE = 500_000


def page_hash(path):
    """(size, sha256 hex) of the file at `path`; OSError when it cannot be read."""
    st = os.stat(path)
    key = (st.st_size, st.st_mtime_ns, st.st_ino)
    with _lock:
        hit = _cache.get(path)
    if hit and hit[0] == key:
        return st.st_size, hit[1]
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    value = digest.hexdigest()
    with _lock:
        if len(_cache) >= MAX_CACHE:
            _cache.clear()
        _cache[path] = (key, value)
    return st.st_size, value


def archive_pages(version):
    """[(file, size, sha256)] of the pages of a version inside an archive, read as they are served;
    OSError when one cannot be read."""
    from .files import open_page, page_stamp

    found = []
    for name in version.files():
        rel = f"{version.path}/{name}"
        stamp = page_stamp(rel)
        with _lock:
            hit = _cache.get(stamp) if stamp else None
        if hit is None:
            page = open_page(rel)
            if page is None:
                raise OSError(f"{rel} cannot be read")
            with page:
                data = page.read()
            hit = (len(data), hashlib.sha256(data).hexdigest())
            with _lock:
                if len(_cache) >= MAX_CACHE:
                    _cache.clear()
                _cache[stamp] = hit
        found.append((name, *hit))
    return found


def version_hash(pages):
    """The hash of a version from its [(file, size, sha256)] in reading order."""
    digest = hashlib.sha256()
    for name, size, sha in pages:
        digest.update(f"{name}\t{size}\t{sha}\n".encode())
    return digest.hexdigest()


def folder_pages(folder, files):
    """[(file, size, sha256)] of `files` in `folder`; OSError when one cannot be read."""
    return [(name, *page_hash(os.path.join(folder, name))) for name in files]


def folder_hash(folder, files):
    return version_hash(folder_pages(folder, files))


def local_version_hash(rel):
    """The hash of the version folder at `rel` (relative to LIBRARY) as it is on disk now, whether
    or not a scan has seen it; None when there is no such folder or a page cannot be read."""
    from .files import library_folder
    from .names import is_page, natural_key

    folder = library_folder(rel)
    if folder is None:
        return None
    try:
        return folder_hash(folder, sorted((n for n in os.listdir(folder) if is_page(n)), key=natural_key))
    except OSError:
        return None
