"""Loaded with -p before Django is configured: keep test runs away from the repository's data/."""
import atexit
import os
import shutil
import tempfile


def _scratch(name, prefix):
    """An empty folder for `name` unless the environment names one; removed when this run ends (the
    xdist workers inherit the controller's, so only the process that made it removes it)."""
    if name not in os.environ:
        os.environ[name] = tempfile.mkdtemp(prefix=prefix)
        atexit.register(shutil.rmtree, os.environ[name], ignore_errors=True)


_scratch("DATA", "mc-test-data-")
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
os.environ.setdefault("SCRYPT_LOG_N", "10")
# Tests make chapter folders and scan them at once; tests/library/test_settle.py turns settling on.
os.environ.setdefault("SCAN_SETTLE", "0")
# Unset, LIBRARY would be the repository's demo-library/, which a command would write: an empty folder.
_scratch("LIBRARY", "mc-test-library-")
