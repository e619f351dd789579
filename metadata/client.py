"""The worker's way to the providers: the scraper's shared HTTP client, a cache in DATA, covers.

Every request goes through scraper/http.py's HttpClient, so through the outbound-address guard
(mangacircus/netguard.py): one request at a time, each provider `pace` seconds apart, Retry-After
(and MangaDex's X-RateLimit-Retry-After) honoured, 5xx and timeouts retried with backoff, bodies
capped. A provider reaches a loopback or LAN address only when its base setting was moved there.

Answers are kept in DATA/metadata/cache/<provider>/ for CACHE_SECONDS, so a second look at the
same title, or a worker restarted mid-run, asks nothing again. The cache is disposable (backups
leave it out). Covers are verified as images and kept in DATA/metadata/covers/ by content.
"""
import hashlib
import threading
import time
from pathlib import Path

import orjson
from django.conf import settings

from catalog import provided
from mangacircus.jsonfile import write_atomic
from scraper import images
from scraper.http import HttpClient, Limits
from scraper.watchdog import Progress

CACHE_SECONDS = 24 * 3600
# A provider's answer or cover: well under a second for a search, a few seconds for a large
# cover; the limits are the scraper's defaults scaled down, since nobody waits on a page here.
LIMITS = Limits(connect_timeout=10, read_timeout=20, deadline=60, max_bytes=8 << 20, retries=2, retry_base=2.0)


class Client:
    def __init__(self, data_dir=None, limits=None, pace_for=None, interrupt=None):
        self.dir = Path(data_dir or settings.DATA) / "metadata"
        self.interrupt = interrupt or threading.Event()
        self.http = HttpClient(limits or LIMITS, Progress(), self.interrupt, pace_for or (lambda source: source.pace))

    def get_json(self, source, url):
        return self._json(source, "GET", url, None)

    def post_json(self, source, url, payload):
        return self._json(source, "POST", url, orjson.dumps(payload, option=orjson.OPT_SORT_KEYS))

    def _json(self, source, method, url, body):
        key = hashlib.sha256(f"{method} {url}\n".encode() + (body or b"")).hexdigest()[:40]
        path = self.dir / "cache" / source.key / f"{key}.json"
        try:
            kept = orjson.loads(path.read_bytes())
            if time.time() - kept["t"] < CACHE_SECONDS:
                return kept["answer"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        self.http.worker = threading.get_ident()  # its waits are then interruptible by stop()
        answer = self.http.request(source, url, headers, None, method, body).json()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, orjson.dumps({"t": time.time(), "url": url, "answer": answer}))
        return answer

    def cover(self, source, url):
        """Fetch a cover, verify it is an image; -> its file name in DATA/metadata/covers/."""
        self.http.worker = threading.get_ident()
        body = self.http.request(source, url, {"Accept": "image/*"}).body
        try:
            ext, _width, _height = images.verify(body)
        except images.BadImage as e:
            raise ValueError(f"the cover at {url[:200]} is not usable: {e.message}") from None
        name = f"{hashlib.sha256(body).hexdigest()[:32]}.{ext}"
        folder = self.dir.parent.joinpath(*provided.COVERS)
        if not (folder / name).exists():
            folder.mkdir(parents=True, exist_ok=True)
            write_atomic(folder / name, body, mode=0o644)
        return name

    def stop(self):
        self.interrupt.set()
