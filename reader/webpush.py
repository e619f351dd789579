"""Web Push of new-chapter announcements (docs/offline.md, "Web Push"): background, retried, guarded.

1. The server's VAPID key pair (RFC 8292) is made once, on first use, in DATA/vapid_private_key
   (mode 0600, mangacircus/secretkey.py's racing-safe write); the browser subscribes with its
   public key (`public_key()`).
2. announce.py queues a user's new chapters here beside the webhook: one message per manga, to
   each of the user's devices (reader/push_devices.py). One background thread sends; a scan or a
   request never waits on a push service.
3. Each message is JSON {title, body, url, tag}, `url` relative to the app's root (the service
   worker, static/js/sw-push.js, resolves it against its scope, so sub-paths work). It is
   encrypted for the device (RFC 8291, aes128gcm, by http_ece) and signed for the push service's
   origin (a VAPID JWT by py_vapid), then POSTed through mangacircus/netguard.py with the
   webhooks' rules: public addresses only, unless WEBHOOK_ALLOW lists the host.
4. 404 and 410 mean the subscription is gone: the device is forgotten. 429, 5xx and network
   failures are tried again, ATTEMPTS times in all, BACKOFF seconds doubling (or the Retry-After
   the service gave, up to MAX_WAIT). Anything else is logged and dropped.
Logs name the user and the push service's host only: an endpoint is a capability, and the keys
are secrets.
"""
import base64
import functools
import heapq
import itertools
import json
import logging
import os
import threading
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from mangacircus import netguard, secretkey
from mangacircus.errors import Conflict, NotFound

from . import push_devices

log = logging.getLogger(__name__)

KEY_FILE = "vapid_private_key"
TIMEOUT = 10.0
TTL = 24 * 3600  # how long a push service keeps a message for a device that is offline
JWT_LIFETIME = 12 * 3600  # RFC 8292 §2: at most 24 hours
ATTEMPTS = 4
BACKOFF = 2.0
MAX_WAIT = 300.0
MAX_BODY_TEXT = 2000  # bytes of chapter names in one message; a push payload holds at most 3,993
MAX_LINES = 5
GONE = (404, 410)


def _b64(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _new_private_key():
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    return _b64(key.private_numbers().private_value.to_bytes(32, "big"))


@functools.lru_cache(maxsize=4)
def _vapid(path):
    from py_vapid import Vapid02

    return Vapid02.from_raw(secretkey.load_or_create(path, make=_new_private_key).encode())


def vapid():
    """The server's VAPID signer, its key made in DATA on the first call."""
    return _vapid(str(settings.DATA / KEY_FILE))


def public_key():
    """The VAPID public key, base64url: the applicationServerKey of pushManager.subscribe()."""
    from cryptography.hazmat.primitives import serialization

    point = vapid().public_key.public_bytes(serialization.Encoding.X962,
                                            serialization.PublicFormat.UncompressedPoint)
    return _b64(point)


def contact():
    """The JWT's `sub`: how a push service's operator may reach this server's (RFC 8292 §2.1)."""
    if settings.PUSH_CONTACT:
        return settings.PUSH_CONTACT
    if settings.PUBLIC_URL.startswith("https://"):
        return settings.PUBLIC_URL
    return "mailto:push@mangacircus.invalid"


def messages(items):
    """The payloads (bytes) for new chapters [{m, text, url}]: one per manga, `url` the first new
    chapter's, `tag` the manga's so a later message replaces an unread one."""
    by_manga = {}
    for item in items:
        by_manga.setdefault(item["m"], []).append(item)
    payloads = []
    for manga, chapters in by_manga.items():
        lines = [c["text"] for c in chapters[:MAX_LINES]]
        if len(chapters) > MAX_LINES:
            more = len(chapters) - MAX_LINES
            lines.append(ngettext("and %(n)s more", "and %(n)s more", more) % {"n": more})
        body = "\n".join(lines).encode()[:MAX_BODY_TEXT].decode(errors="ignore")
        title = ngettext("New chapter", "%(n)s new chapters", len(chapters)) % {"n": len(chapters)}
        payloads.append(json.dumps({"title": title, "body": body, "url": chapters[0]["url"], "tag": f"mc:{manga}"},
                                   ensure_ascii=False).encode())
    return payloads


def encrypted_request(device, payload):
    """(body, headers) of one push: `payload` encrypted for the device (RFC 8291), signed (RFC 8292)."""
    import http_ece
    from cryptography.hazmat.primitives.asymmetric import ec

    def raw(value):
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))

    body = http_ece.encrypt(payload, salt=os.urandom(16), private_key=ec.generate_private_key(ec.SECP256R1()),
                            dh=raw(device["p256dh"]), auth_secret=raw(device["auth"]), version="aes128gcm")
    parts = urlsplit(device["endpoint"])
    audience = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
    claims = {"aud": audience, "exp": int(time.time()) + JWT_LIFETIME, "sub": contact()}
    headers = {**vapid().sign(claims), "TTL": str(TTL), "Urgency": "normal", "Content-Encoding": "aes128gcm",
               "Content-Type": "application/octet-stream"}
    return body, headers


class Failed(Exception):
    """A push that did not reach the push service; `retry`: whether trying again may help."""

    def __init__(self, message, retry):
        super().__init__(message)
        self.retry = retry


def post(device, payload):
    """Send one push; -> (status, Retry-After seconds or None). Raises Failed."""
    body, headers = encrypted_request(device, payload)
    host = urlsplit(device["endpoint"]).hostname
    deadline = time.monotonic() + TIMEOUT
    try:
        answer = netguard.request("POST", device["endpoint"], body=body, headers=headers,
                                  allowed=lambda h, port, ip: netguard.listed(settings.WEBHOOK_ALLOW, h, ip),
                                  max_redirects=0, deadline=deadline, connect_timeout=TIMEOUT, read_timeout=TIMEOUT)
    except (netguard.HopFailed, netguard.DeadlinePassed):
        raise Failed(f"{host} could not be reached within {TIMEOUT:g} s", retry=True) from None
    except netguard.NotPublic as e:
        raise Failed(f"{host} resolves to {e.ip}, which is not a public address (see WEBHOOK_ALLOW)", False) from None
    except netguard.Unresolvable:
        raise Failed(f"{host} cannot be resolved", retry=True) from None
    except netguard.TooManyRedirects:
        raise Failed(f"{host} answered with a redirect", retry=False) from None
    except netguard.OutboundError:
        raise Failed("the subscription's address is not a valid https URL", retry=False) from None
    try:
        answer.read_body(1024, deadline, TIMEOUT)
    except (netguard.DeadlinePassed, OSError):
        pass  # the status is what counts
    finally:
        answer.close()
    return answer.response.status, _seconds(answer.response.getheader("retry-after"))


def _seconds(value):
    try:
        return min(MAX_WAIT, max(0.0, float(value)))
    except (TypeError, ValueError):
        return None


def send_once(user, sid, payload):
    """One attempt to one device; -> (status or None, retry after seconds or None, words). A
    device that is gone is forgotten here."""
    device = push_devices.device(user, sid)
    if device is None:
        return None, None, "this device is no longer subscribed"
    host = urlsplit(device["endpoint"]).hostname
    try:
        status, wait = post(device, payload)
    except Failed as e:
        return None, BACKOFF if e.retry else None, str(e)
    if status in GONE:
        push_devices.drop(user, sid, device["endpoint"])
        return status, None, f"{host} says the subscription has expired (HTTP {status}); the device was removed"
    retry = status == 429 or status >= 500
    return status, (wait or BACKOFF) if retry else None, f"{host} answered HTTP {status}"


_testing = set()  # users whose test push is under way: one at a time each
_testing_lock = threading.Lock()


def send_test(user, sid):
    """Push a sample to one device now, in the caller's thread (the test button), within TIMEOUT;
    -> (delivered, what happened in words)."""
    if push_devices.device(user, sid) is None:
        raise NotFound(_("no such device"))
    with _testing_lock:
        if user in _testing:
            raise Conflict(_("a test notification is being sent already; wait for its result"))
        _testing.add(user)
    try:
        payload = json.dumps({"title": "MangaCircus", "body": "A test notification", "url": "", "tag": "mc:test"})
        status, _retry, words = send_once(user, sid, payload.encode())
    finally:
        with _testing_lock:
            _testing.discard(user)
    return status is not None and 200 <= status < 300, words


class Sender:
    def __init__(self):
        self.cond = threading.Condition()
        self.jobs = []  # heap of (due, seq, user, device id, payload, attempt)
        self.seq = itertools.count()
        self.stopping = False
        self.sent = []  # (user, device id, status or None): the last few results, for tests
        self.thread = threading.Thread(target=self._loop, name="webpush", daemon=True)

    def queue(self, user, sid, payload, attempt=0, wait=0.0):
        with self.cond:
            heapq.heappush(self.jobs, (time.monotonic() + wait, next(self.seq), user, sid, payload, attempt))
            self.cond.notify_all()

    def _loop(self):
        while True:
            with self.cond:
                while not self.stopping and (not self.jobs or self.jobs[0][0] > time.monotonic()):
                    self.cond.wait(self.jobs[0][0] - time.monotonic() if self.jobs else None)
                if self.stopping:
                    return
                _due, _seq, user, sid, payload, attempt = heapq.heappop(self.jobs)
            self._attempt(user, sid, payload, attempt)

    def _attempt(self, user, sid, payload, attempt):
        try:
            status, wait, words = send_once(user, sid, payload)
        except Exception:  # a broken push must never take the thread down
            log.exception("push to a device of %s failed", user)
            status, wait, words = None, None, "failed"
        if wait is not None and attempt + 1 < ATTEMPTS:
            self.queue(user, sid, payload, attempt + 1, max(wait, BACKOFF * 2 ** attempt))
        elif status is None or status >= 300:
            log.warning("push to a device of %s: %s", user, words)
        self.sent = (self.sent + [(user, sid, status)])[-50:]

    def stop(self):
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        self.thread.join(TIMEOUT + 1)


sender = None


def start():
    global sender
    if sender is None:
        sender = Sender()
        sender.thread.start()


def stop():
    global sender
    if sender is not None:
        sender.stop()
        sender = None


def queue(user, items):
    """New chapters [{m, text, url}] for the user's devices, if they have any."""
    if sender is None:
        return
    sids = push_devices.device_ids(user)
    for payload in messages(items) if sids else ():
        for sid in sids:
            sender.queue(user, sid, payload)
