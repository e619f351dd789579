"""The `server` section of db.json: settings an admin changes for everybody (Settings → Admin → Apps).

server = {"downloads": bool}. Absent keys take their defaults.
"""
from mangacircus import db

DEFAULTS = {"downloads": True}


def get(key):
    with db.lock():
        value = db.section("server").get(key)
    return DEFAULTS[key] if value is None else value


def downloads_allowed():
    return bool(get("downloads"))


def set_downloads(on):
    with db.lock():
        db.section("server")["downloads"] = bool(on)
        db.touch()
