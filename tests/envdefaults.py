"""Loaded with -p before Django is configured: keep test runs away from the repository's data/."""
import os
import tempfile

os.environ.setdefault("DATA", tempfile.mkdtemp(prefix="mc-test-data-"))
os.environ.setdefault("SECRET_KEY", "test-secret-key-not-for-production")
os.environ.setdefault("SCRYPT_LOG_N", "10")
