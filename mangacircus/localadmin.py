"""How a command changes data/ without becoming its second writer.

data/ has one writer. A management command that changes state (importing catalog proposals, adding
a peer, taking a backup) calls `run(action, payload, offline)`:

- When no reader holds DATA's lock, the command takes the lock itself, so no reader can start
  meanwhile, calls `offline(payload)` in its own process (which opens the state files it needs
  through their owners and changes them), flushes every state file and releases the lock.
- When a reader holds it, the command hands the payload to that reader: a POST to
  `/api/local/<action>` at the address the reader wrote to DATA/local-admin.json when it started,
  carrying the token in DATA/local-admin.token. The reader runs the handler its apps registered for
  `action` (`register()`, from their ready()) and answers its result as JSON.

The token file is made on the reader's first start, mode 0600, in DATA: whoever can read DATA can
change it anyway, so it grants nothing more. The route refuses any request without the token
(sessions count for nothing there), any request from an address other than loopback, and any
request that came through a proxy: behind the shipped nginx every outside client arrives from
loopback, but with a forwarding header (X-Forwarded-*, Forwarded, X-Real-IP, Via), which the
command never sends. deploy/nginx.conf also answers /api/local/ with 404 itself.
"""
import hmac
import ipaddress
import json
import urllib.error
import urllib.request

from django.conf import settings

from . import jsonfile, locks, secretkey
from .errors import NotFound, WrongCredentials
from .http import api

TOKEN_FILE = "local-admin.token"
ADDRESS_FILE = "local-admin.json"
TOKEN_HEADER = "X-Local-Admin"
TIMEOUT = 120  # seconds: an action such as a backup answers when it is done

_handlers = {}


class LocalAdminError(Exception):
    """The action could not be done; the message says why, in words for the command's user."""


def register(action, handler):
    """`handler(payload: dict) -> dict` runs in the reader; it raises mangacircus.errors for bad input."""
    _handlers[action] = handler


def actions():
    """The names of the registered actions (docs/architecture.md lists each)."""
    return sorted(_handlers)


def token():
    return secretkey.load_or_create(settings.DATA / TOKEN_FILE)


def publish_address(bind):
    """Called by `serve` before it listens: where commands on this machine reach the reader."""
    token()
    host, _, port = bind.rpartition(":")
    host = host.strip("[]")
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    shown = f"[{host}]" if ":" in host else host
    payload = json.dumps({"url": f"http://{shown}:{port}"}).encode()
    jsonfile.write_atomic(settings.DATA / ADDRESS_FILE, payload, mode=0o644)


# -- in the reader ------------------------------------------------------------------------------

FORWARDING = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_PORT",
              "HTTP_FORWARDED", "HTTP_X_REAL_IP", "HTTP_VIA")


def check_request(request):
    """Raise unless the request comes straight from loopback, through no proxy, with the token."""
    try:
        loopback = ipaddress.ip_address(request.META.get("REMOTE_ADDR", "")).is_loopback
    except ValueError:
        loopback = False
    proxied = any(name in request.META for name in FORWARDING)
    given = request.headers.get(TOKEN_HEADER, "")
    if not loopback or proxied or not given or not hmac.compare_digest(given.encode(), token().encode()):
        raise WrongCredentials("this route is for commands run on the server itself")


@api(auth="public", methods=("POST",))
def view(request, action):
    check_request(request)
    handler = _handlers.get(action)
    if handler is None:
        raise NotFound(f"no local action {action!r}")
    return handler(request.data)


# -- in the command -----------------------------------------------------------------------------

def run(action, payload, offline):
    """Do `action` with `payload` through the running reader, or with `offline` when none runs."""
    settings.DATA.mkdir(parents=True, exist_ok=True)
    try:
        locks.hold(settings.DATA / ".lock", "MangaCircus reader")
    except locks.LockHeld:
        return _ask_reader(action, payload)
    try:
        return offline(payload)
    finally:
        jsonfile.flush_all()
        jsonfile.close_all()
        locks.release_all()


def _ask_reader(action, payload):
    try:
        url = json.loads(jsonfile.read_capped(settings.DATA / ADDRESS_FILE))["url"]
        secret = token()
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise LocalAdminError(f"a reader runs on {settings.DATA} but its address cannot be read "
                              f"({settings.DATA / ADDRESS_FILE}: {e}); restart it with `manage.py serve`") from None
    request = urllib.request.Request(
        f"{url}/api/local/{action}", data=json.dumps(payload).encode(), method="POST",
        headers={"Content-Type": "application/json", TOKEN_HEADER: secret},
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback, never a proxy
    try:
        with opener.open(request, timeout=TIMEOUT) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as e:
        try:
            message = json.loads(e.read()).get("error", "")
        except ValueError:
            message = ""
        raise LocalAdminError(message or f"the reader answered HTTP {e.code}") from None
    except (urllib.error.URLError, OSError) as e:
        raise LocalAdminError(f"the reader on {settings.DATA} holds the data lock but does not answer "
                              f"at {url} ({getattr(e, 'reason', e)})") from None
