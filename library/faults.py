"""What can be wrong with LIBRARY as a whole, and which scan warnings are files that were not read.

`problem(root)` is shared by the reader (which only reads LIBRARY, often from a read-only mount)
and the scraper (which publishes into it, so it asks with `write=True`).
"""
import os
import stat

# Scan warnings about a file or folder whose content could not be read (docs/library.md, "Reading
# scan warnings"): listed for admins on the manga's page and counted in Health.
UNREAD_KINDS = ("unreadable", "unreadable-archive", "unreadable-image", "archive-member", "skipped-file",
                "invalid-comicinfo", "invalid-json")


def problem(root, write=False):
    """Why LIBRARY cannot be used now, in words naming it, or None when it can."""
    if root is None:
        return "LIBRARY is not set"
    try:
        st = os.stat(root)
    except OSError as e:
        return f"the library at {root} cannot be read ({e.strerror or e}): is it mounted?"
    if not stat.S_ISDIR(st.st_mode):
        return f"the library at {root} is not a folder"
    if not os.access(root, os.R_OK | os.X_OK):
        return f"the library at {root} cannot be read (permission denied)"
    # access() answers EROFS for a read-only mount even to root, for whom the mode bits do not count.
    if write and not os.access(root, os.W_OK):
        return f"the library at {root} is read-only"
    return None


def unread(warnings):
    """The (kind, path, message) warnings about files that could not be read."""
    return [w for w in warnings if w[0] in UNREAD_KINDS]


_counted = (None, {})  # (index, counts) of the last index counted


def unread_counts(index):
    """{kind: count} of the files the index could not read (computed once per index)."""
    global _counted
    hit = _counted
    if hit[0] is not index:
        counts = {}
        for kind, _path, _message in unread(index.all_warnings()):
            counts[kind] = counts.get(kind, 0) + 1
        hit = _counted = (index, counts)
    return hit[1]
