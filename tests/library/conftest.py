"""Fixtures for the library tests: tree builders, a scan helper, and a clean index per test."""
import os
import time

import pytest

from library import index, service
from library.scan import Scan
from mangacircus import events
from tests.conftest import make_page

__all__ = ["make_page", "scan", "publish", "bump"]


def scan(root, previous=None, kind="full", **kw):
    """Run one scan; returns (index, report) and fails loudly on a scan error."""
    new, report = Scan(root, previous, kind, **kw).run()
    return new, report


def publish(folder, pages=2, size=(60, 90), staging=None):
    """Build a chapter folder in a staging place and rename it into position (docs/library.md, "Adding chapters")."""
    staging = staging or folder.parent / f".staging-{folder.name}"
    for n in range(1, pages + 1):
        make_page(staging / f"{n:03d}.png", size=size)
    folder.parent.mkdir(parents=True, exist_ok=True)
    os.rename(staging, folder)
    return folder


def bump(path, seconds=5):
    """Move a folder's mtime forward, as a change would (mtime granularity can hide quick edits)."""
    t = time.time() + seconds
    os.utime(path, (t, t))


@pytest.fixture(autouse=True)
def clean_library_state():
    """Each test starts with an empty current index and no scan hooks, and leaves it so."""
    saved_index, saved_callbacks = index.current(), events.scan_finished.callbacks()
    index.replace(index.Index())
    yield
    service.stop()
    index.replace(saved_index)
    for callback in events.scan_finished.callbacks():
        if callback not in saved_callbacks:
            events.scan_finished.disconnect(callback)
