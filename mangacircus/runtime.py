"""Start and stop the reader's state: db.json first, then every app config with
start_runtime()/stop_runtime(), in INSTALLED_APPS order (stopped in reverse).

`serve` checks the state files and takes the data lock before gunicorn starts; the worker calls
start() from wsgi.py. Tests call start() and stop() around each app instance.
"""
import atexit
import threading

from django.apps import apps
from django.conf import settings

from . import db, jsonfile, locks, secretkey

_started = False
_lock = threading.Lock()


def _configs():
    return [c for c in apps.get_app_configs() if hasattr(c, "start_runtime")]


def check():
    """Load every state file once and close it again: raises StateFileError on a corrupt one."""
    db.check(settings.DATA / "db.json")
    for config in _configs():
        if hasattr(config, "check_runtime"):
            config.check_runtime()


def start():
    global _started
    with _lock:
        if _started:
            return
        settings.DATA.mkdir(parents=True, exist_ok=True)
        secretkey.ensure()
        locks.hold(settings.DATA / ".lock", "MangaCircus reader")
        db.open_db(settings.DATA / "db.json")
        for config in _configs():
            config.start_runtime()
        _started = True


def stop():
    global _started
    with _lock:
        if not _started:
            return
        for config in reversed(_configs()):
            if hasattr(config, "stop_runtime"):
                config.stop_runtime()
        db.close_db()
        jsonfile.close_all()
        locks.release_all()
        _started = False


atexit.register(jsonfile.flush_all)
