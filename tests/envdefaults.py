"""Loaded with -p before Django is configured: keep test runs away from the repository's data/."""
import os
import tempfile

os.environ.setdefault("DATA", tempfile.mkdtemp(prefix="mc-test-data-"))
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
os.environ.setdefault("SCRYPT_LOG_N", "10")
# Tests make chapter folders and scan them at once; tests/library/test_settle.py turns settling on.
os.environ.setdefault("SCAN_SETTLE", "0")
# Unset, LIBRARY would be the repository's demo-library/, which a command would write: an empty folder.
os.environ.setdefault("LIBRARY", tempfile.mkdtemp(prefix="mc-test-library-"))
