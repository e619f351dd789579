"""Django's SECRET_KEY: from the environment, or else DATA/secret_key, made on the first start.

Importing the settings writes nothing. The processes that need the key call `ensure()` when they
start, before anything signs (the reader's runtime.start() and `serve`, and `runscraper`). Django
reads settings.SECRET_KEY at each use, so setting it then is enough.

`serve` and `runscraper` may start at the same moment on a fresh DATA. Each writes a key of its own,
whole, to a private temporary file, fsyncs it and links it to DATA/secret_key: the link either makes
the file, complete, or fails because the other process made it first, and then that key is read.
No process can see a half-written key, and both end up with the same one.
"""
import os
import secrets
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from .jsonfile import fsync_dir

FILE_NAME = "secret_key"


def ensure():
    """Set settings.SECRET_KEY for this process and return it. SECRET_KEY from the environment
    wins; otherwise the key in DATA/secret_key, made there when missing."""
    try:
        key = settings.SECRET_KEY  # Django refuses to hand out an empty key
    except ImproperlyConfigured:
        key = ""
    if not key:
        key = load_or_create(settings.DATA / FILE_NAME)
        settings.SECRET_KEY = key
    return key


def load_or_create(path, make=lambda: secrets.token_urlsafe(50)):
    """The key stored at `path`, made there first by `make()` when there is none (safe against
    racing starts)."""
    path = Path(path)
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = make()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(6)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with open(fd, "w") as f:
            f.write(key)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return _read(path)  # another process won; its file was complete before it had this name
        fsync_dir(path.parent)
        return key
    finally:
        tmp.unlink(missing_ok=True)


def _read(path):
    key = path.read_text().strip()
    if not key:
        raise ImproperlyConfigured(f"{path} is empty: delete it to have a new key made, or set SECRET_KEY")
    return key
