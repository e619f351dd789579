"""A folder made read-only for a block, for real: the mode bits do not stop root, so as root the
folder gets a read-only bind mount over itself (tests/reliability/support.py), which stops root
too (EROFS); anyone else gets chmod 0555. A test that uses it as root mounts through `mount`, so it
is marked `process`; where mounting is not allowed it is skipped with the reason."""
import contextlib
import os
from pathlib import Path

import pytest

from tests.reliability.support import CannotMount, mounted


@contextlib.contextmanager
def read_only(folder):
    folder = Path(folder)
    if os.geteuid() != 0:
        mode = folder.stat().st_mode
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(mode)
        return
    try:
        mount = mounted("ro-bind", folder)
        mount.__enter__()
    except CannotMount as e:
        pytest.skip(f"a read-only library needs a read-only mount as root: {e}")
    try:
        yield folder
    finally:
        mount.__exit__(None, None, None)
