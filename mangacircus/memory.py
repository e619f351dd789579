"""Giving freed memory back to the system after a big, short-lived allocation (a library index
restored from its snapshot, a scan's garbage): glibc keeps freed heap pages in the process until
malloc_trim asks it to return them (docs/performance.md, the xl server section)."""
import ctypes
import functools


@functools.cache
def _trim():
    """glibc's malloc_trim, or None on another C library (musl, macOS): nothing to ask there."""
    try:
        return ctypes.CDLL("libc.so.6").malloc_trim  # by its soname: find_library would run ldconfig
    except (OSError, AttributeError):
        return None


def give_back():
    """malloc_trim(0) (ctypes lets go of the GIL during the call); True when it returned memory."""
    trim = _trim()
    return bool(trim(0)) if trim else False
