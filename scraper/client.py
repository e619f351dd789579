"""The reader's side of the private API: one request to the daemon with the token."""
import http.client
from urllib.parse import urlsplit

import orjson
from django.conf import settings


class Offline(Exception):
    """The daemon cannot be reached (not running, not configured, or not answering)."""


def call(method, path, body=None, timeout=5.0):
    """-> (status, parsed JSON) from the daemon; Offline when it cannot be reached."""
    if not settings.SCRAPER_TOKEN:
        raise Offline("SCRAPER_TOKEN is not set")
    parts = urlsplit(settings.SCRAPER_URL)
    cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = cls(parts.hostname, parts.port, timeout=timeout)
    headers = {"Authorization": f"Bearer {settings.SCRAPER_TOKEN}", "Accept": "application/json"}
    payload = None
    if body is not None:
        payload = orjson.dumps(body)
        headers["Content-Type"] = "application/json"
    try:
        conn.request(method, (parts.path or "") + path, body=payload, headers=headers)
        response = conn.getresponse()
        raw = response.read(4 << 20)
        data = orjson.loads(raw) if raw else {}
        return response.status, data
    except (OSError, http.client.HTTPException, orjson.JSONDecodeError) as e:
        raise Offline(str(e) or e.__class__.__name__) from None
    finally:
        conn.close()


def pause_for_backup(lease):
    """The backup's pause hook (mangacircus.backups): pause the daemon under a lease; -> resume(),
    or None when the daemon is not reachable (a backup goes on without it)."""
    try:
        status, data = call("POST", "/pause", {"lease": lease}, timeout=40.0)
    except Offline:
        return None
    if status != 200:
        error = data.get("error") if isinstance(data, dict) else data
        raise RuntimeError(f"the scraper answered {status} to the pause: {error}")
    return lambda: call("POST", "/resume", {"lease": True}, timeout=10.0)
