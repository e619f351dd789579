"""Listing one library folder safely: what the scan may read, and what it must not follow.

Hidden and system names are left out (names.is_ignored). A name that is not valid UTF-8 and a
symlink that resolves outside LIBRARY are left out with a warning; a broken or looping link too.
"""
import os
import stat
from typing import NamedTuple

from .names import is_ignored, is_valid_text, natural_key


class Entry(NamedTuple):
    name: str
    path: str  # absolute
    is_dir: bool
    st: os.stat_result | None  # filled for followed symlinks; scan stats the rest when it needs to


def printable(name):
    """A name made safe for JSON and logs: undecodable bytes become U+FFFD."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def inside(real, root_real):
    return real == root_real or real.startswith(root_real + os.sep)


def join(rel, name):
    return f"{rel}/{name}" if rel else name


def list_folder(path, rel, root_real, warn):
    """The readable entries of the folder at `path` (relative path `rel`), in natural order.

    `warn(kind, path, message)` receives every entry left out for a reason a person should see.
    Raises OSError when the folder itself cannot be listed.
    """
    found = []
    with os.scandir(path) as it:
        for e in it:
            name = e.name
            if is_ignored(name):
                continue
            if not is_valid_text(name):
                warn("invalid-name", join(rel, printable(name)), "the name is not valid UTF-8: rename it to read it")
                continue
            st = None
            try:
                if e.is_symlink():
                    if not inside(os.path.realpath(e.path), root_real):
                        warn("symlink-outside", join(rel, name), "a link to outside LIBRARY is never followed")
                        continue
                    st = os.stat(e.path)
                    is_dir, is_file = stat.S_ISDIR(st.st_mode), stat.S_ISREG(st.st_mode)
                else:
                    is_dir, is_file = e.is_dir(follow_symlinks=False), e.is_file(follow_symlinks=False)
            except OSError as err:
                warn("unreadable", join(rel, name), f"cannot be read ({err.strerror or err})")
                continue
            if is_dir or is_file:
                found.append(Entry(name, e.path, is_dir, st))
    found.sort(key=lambda entry: natural_key(entry.name))
    return found
