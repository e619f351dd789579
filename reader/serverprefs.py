"""The `server` section of db.json: settings an admin changes for everybody (Settings → Admin → Apps).

server = {"downloads": bool}. Absent keys take their defaults.
"""
from __future__ import annotations

from typing import Any

from mangacircus import db

DEFAULTS: dict[str, Any] = {"downloads": True}


def get(key: str) -> Any:
    with db.lock():
        value = db.section("server").get(key)
    return DEFAULTS[key] if value is None else value


def downloads_allowed() -> bool:
    return bool(get("downloads"))


def set_downloads(on: bool) -> None:
    with db.lock():
        db.section("server")["downloads"] = bool(on)
        db.touch()
