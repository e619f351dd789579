"""Webhook delivery of new-chapter announcements (docs/library.md): background, rate-limited, SSRF-safe.

- One background thread sends; a scan only queues. Items for a user merge until they are sent,
  at most one delivery per user per MIN_INTERVAL seconds, at most MAX_ITEMS items kept per user.
- Every hop (the first URL and each redirect, at most MAX_REDIRECTS) must be http(s), and the host
  is resolved here: if any of its addresses is not a public one (loopback, private, link-local,
  ULA, CGNAT, metadata, multicast, reserved) the delivery is refused, unless the host name or the
  address is in WEBHOOK_ALLOW. The connection goes to the address that was checked, so a second
  DNS answer cannot swap it (DNS rebinding).
- TIMEOUT seconds for the whole delivery. The response body is never read back to anyone.
- Formats: ntfy (plain text, `Title` and `Click` headers), gotify (JSON {title, message,
  priority}), json ({title, message, items: [{manga, chapter, url}]}).
Failures are logged with the host only: a URL may hold a secret topic or token.
"""
import http.client
import ipaddress
import json
import logging
import threading
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from mangacircus import netguard

log = logging.getLogger(__name__)

MIN_INTERVAL = 10.0
TIMEOUT = 5.0
MAX_REDIRECTS = 5
MAX_ITEMS = 100


class Refused(Exception):
    """The target may not be contacted (or did not answer properly); the message says why."""


def _allowed(host, address):
    for entry in settings.WEBHOOK_ALLOW:
        if isinstance(entry, str):
            if host.lower().rstrip(".") == entry:
                return True
        elif address.version == entry.version and address in entry:
            return True
    return False


def resolve(host, port):
    """The (family, address) to connect to for host:port, or Refused when it is not a public address."""
    try:
        return netguard.checked_address(host, port, _allowed)
    except netguard.OutboundError as e:
        raise _refusal(e) from None


def post(url, body, headers):
    """POST with the rules above (the redirects through mangacircus/netguard.py); returns the final
    status. Raises Refused."""
    deadline = time.monotonic() + TIMEOUT  # the whole delivery, the answer's body included
    try:
        answer = netguard.request("POST", url, body=body, headers=headers,
                                  allowed=lambda host, port, ip: _allowed(host, ip), max_redirects=MAX_REDIRECTS,
                                  deadline=deadline, connect_timeout=TIMEOUT, read_timeout=TIMEOUT)
    except netguard.OutboundError as e:
        raise _refusal(e) from None
    try:
        answer.read_body(1024, deadline, TIMEOUT)
    except netguard.DeadlinePassed:
        raise Refused(f"{urlsplit(answer.url).hostname} did not finish its answer within {TIMEOUT:g} s") from None
    except (OSError, http.client.HTTPException) as e:
        raise Refused(f"{urlsplit(answer.url).hostname}: {e}") from None
    finally:
        answer.close()
    return answer.response.status


def _refusal(e):
    if isinstance(e, netguard.Unresolvable):
        return Refused(f"{e.host} cannot be resolved ({e.error})" if e.error else f"{e.host} has no address")
    if isinstance(e, netguard.NotPublic):
        return Refused(f"{e.host} resolves to {e.ip}, which is not a public address (see WEBHOOK_ALLOW)")
    if isinstance(e, netguard.NotHttp):
        return Refused(f"only http and https URLs are allowed, not {urlsplit(e.url).scheme or 'this'}")
    if isinstance(e, netguard.BadUrl):
        return Refused("not a valid URL (its address or port)")
    if isinstance(e, netguard.HopFailed):
        return Refused(f"{urlsplit(e.url).hostname}: {e.error}")
    if isinstance(e, netguard.DeadlinePassed):
        return Refused(f"timed out: no answer within {TIMEOUT:g} seconds")
    return Refused(f"more than {MAX_REDIRECTS} redirects")


LOCAL_SUFFIXES = (".localhost", ".local", ".lan", ".home.arpa", ".internal")


def save_warning(url):
    """Why deliveries to `url` will be refused, for the moment it is saved, or None. Looked at
    without DNS (a save must not wait on it): an address that is not public, `localhost`, a name
    without a dot or under a local-only suffix (".lan", ".local"...), unless WEBHOOK_ALLOW lists it.
    Names that DNS resolves to such an address are still refused at delivery, as "Send a test" shows."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if not host:
        return None
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        local = host == "localhost" or "." not in host or host.endswith(LOCAL_SUFFIXES)
        if not local or host in settings.WEBHOOK_ALLOW:  # names are listed as strings
            return None
        return (_("%(host)s is a name on this machine or its local network: deliveries to it are refused unless "
                  "the server's WEBHOOK_ALLOW lists it") % {"host": host})
    if netguard.public(ip) or _allowed(host, ip):
        return None
    return (_("%(host)s is not a public address: deliveries to it are refused unless the server's WEBHOOK_ALLOW "
              "lists it") % {"host": host})


def chapter_url(item):
    """The item's app-relative reader URL (reader/lookup.py's read_url), made absolute with PUBLIC_URL."""
    path = "/" + item["url"]
    return settings.PUBLIC_URL + path if settings.PUBLIC_URL else path


def message(fmt, items):
    """(body bytes, headers) of one delivery in the user's format."""
    title = ngettext("%(n)s new chapter", "%(n)s new chapters", len(items)) % {"n": len(items)}
    text = "\n".join(item["text"] for item in items)
    if fmt == "ntfy":
        headers = {"Title": title, "Content-Type": "text/plain; charset=utf-8"}
        if settings.PUBLIC_URL:
            headers["Click"] = chapter_url(items[0])
        return text.encode(), headers
    if fmt == "gotify":
        payload = {"title": title, "message": text, "priority": 5}
    else:
        payload = {"title": title, "message": text,
                   "items": [{"manga": i["manga"], "chapter": i["chapter"], "url": chapter_url(i)} for i in items]}
    return json.dumps(payload, ensure_ascii=False).encode(), {"Content-Type": "application/json"}


def deliver_now(url, fmt, items):
    """Deliver at once, in the caller's thread, within TIMEOUT; -> (delivered, what happened in words).
    For the test button, which must tell the truth rather than "on its way"."""
    host = urlsplit(url).hostname or url
    body, headers = message(fmt, items)
    try:
        status = post(url, body, headers)
    except Refused as e:
        return False, str(e)
    reason = http.client.responses.get(status, "")
    answer = f"{host} answered HTTP {status} {reason}".rstrip()
    return status < 400, answer


class Sender:
    def __init__(self):
        self.cond = threading.Condition()
        self.pending = {}  # user → {"url", "format", "items"}
        self.last = {}  # user → monotonic time of the last delivery
        self.stopping = False
        self.sent = []  # (user, status or error text): the last few results, for tests and logs
        self.thread = threading.Thread(target=self._loop, name="webhooks", daemon=True)

    def queue(self, user, url, fmt, items):
        with self.cond:
            entry = self.pending.setdefault(user, {"items": []})
            # the language active now (the user's, reader/announce.py) words the title when it is sent
            entry.update(url=url, format=fmt, language=translation.get_language())
            entry["items"] = (entry["items"] + list(items))[-MAX_ITEMS:]
            self.cond.notify_all()

    def _next(self):
        now = time.monotonic()
        due = [(self.last.get(u, -MIN_INTERVAL) + MIN_INTERVAL - now, u) for u in self.pending]
        return min(due) if due else (None, None)

    def _loop(self):
        while True:
            with self.cond:
                while not self.stopping:
                    wait, user = self._next()
                    if user is not None and wait <= 0:
                        break
                    self.cond.wait(wait)
                if self.stopping:
                    return
                entry = self.pending.pop(user)
                self.last[user] = time.monotonic()
            self._deliver(user, entry)

    def _deliver(self, user, entry):
        with translation.override(entry.get("language")):
            body, headers = message(entry["format"], entry["items"])
        try:
            result = post(entry["url"], body, headers)
            if result >= 400:
                log.warning("webhook of %s: %s answered %s", user, urlsplit(entry["url"]).hostname, result)
        except Refused as e:
            result = str(e)
            log.warning("webhook of %s not delivered: %s", user, e)
        except Exception as e:  # a broken webhook must never take the thread down
            result = f"failed: {e}"
            log.exception("webhook of %s failed", user)
        self.sent = (self.sent + [(user, result)])[-50:]

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


def queue(user, url, fmt, items):
    if sender is not None and url:
        sender.queue(user, url, fmt, items)
