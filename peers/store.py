"""Peers: the other servers this one shares with and copies from (docs/peering.md).

The state lives in DATA/peers.json, its own JsonFile, written only by the reader through this
module (a command changes it through mangacircus/localadmin.py). The scraper reads it, never
writes it: it needs a peer's URL and the secret this server presents to fetch pages.

    {"peers": {name: {"url", "present", "acceptHash", "enabled", "share", "created"}}}

- `present`: the secret this server sends to the peer, kept as given (it has to be sent);
- `acceptHash`: SHA-256 of the secret the peer sends here. Secrets are at least 24 random
  characters, so a plain hash is enough; the secret itself is shown once, when it is made;
- `share`: "none" (the default), "all", or a list of manga folder names.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import orjson
from django.utils.translation import gettext as _

from mangacircus import moves as moved
from mangacircus.errors import Conflict, Invalid, NotFound
from mangacircus.jsonfile import read_capped
from mangacircus.moves import Move
from mangacircus.store import Document, Store

if TYPE_CHECKING:
    from pathlib import Path

FILE = "peers.json"
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
_SECRET = re.compile(r"[\x21-\x7e]{24,200}")
_WRITE_FAILED = "saving the peers failed on the server, so nothing was changed; try again shortly"

Peer = dict[str, Any]  # peers.json's record of one peer: see the module's docstring


def _validate(data: Document) -> None:
    if not isinstance(data.get("peers", {}), dict):
        raise ValueError('"peers" must be an object')


STATE = Store(FILE, empty=lambda: {"peers": {}}, validate=_validate)


def read_from_disk(data_dir: Path | None = None) -> dict[str, Peer]:
    """{name: peer} as DATA/peers.json holds it now, for another process (the scraper) that must not
    open it for writing; {} when there is no such file or it does not pass the store's own check."""
    try:
        data = orjson.loads(read_capped(STATE.path(data_dir)))
        _validate(data)
    except (OSError, ValueError, TypeError):
        return {}
    return {name: peer for name, peer in data.get("peers", {}).items() if isinstance(peer, dict)}


@contextmanager
def _read() -> Iterator[dict[str, Peer]]:
    """The peers dict, under the lock (the store opens on first use, as a command's offline run needs)."""
    STATE.open()
    with STATE.read() as data:
        yield data["peers"]


@contextmanager
def _change() -> Iterator[dict[str, Peer]]:
    """A change to the peers, on disk before it answers (a revoked secret must stay revoked after
    a crash), and undone when it is refused or cannot be written. Yields the peers dict."""
    STATE.open()
    with STATE.edit(immediate=True, failed=_WRITE_FAILED) as data:
        yield data["peers"]


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def check_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise Invalid(_("a peer's name is 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit"))
    return name


def check_url(url: object) -> str:
    if not isinstance(url, str) or len(url) > 500:
        raise Invalid(_("the peer's URL must be a string of at most 500 characters"))
    url = url.strip().rstrip("/")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        raise Invalid(_("%(url)s is not a valid URL") % {"url": repr(url)}) from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise Invalid(_("the peer's URL must be http:// or https:// with a host (and no ?query or #fragment)"))
    return url


def check_secret(secret: object, what: str) -> str:
    if not isinstance(secret, str) or not _SECRET.fullmatch(secret.strip()):
        if what == "presented":
            raise Invalid(_("the presented secret must be 24 to 200 visible characters without spaces"))
        raise Invalid(_("the accepted secret must be 24 to 200 visible characters without spaces"))
    return secret.strip()


def view(name: str, peer: Peer) -> dict[str, Any]:
    """A peer as the admin sees it: never a secret."""
    return {"name": name, "url": peer["url"], "enabled": peer["enabled"], "share": peer["share"],
            "created": peer["created"], "presents": bool(peer.get("present"))}


def list_peers() -> list[dict[str, Any]]:
    with _read() as all_peers:
        return [view(n, p) for n, p in sorted(all_peers.items())]


def get(name: str) -> Peer:
    with _read() as all_peers:
        peer = all_peers.get(name) if isinstance(name, str) else None
        if peer is None:
            raise NotFound(_("no peer named %(name)s") % {"name": repr(name)})
        return dict(peer)


def add(name: str, url: str, present: str, accept: str | None = None) -> tuple[dict[str, Any], str]:
    """Add a peer; -> (its view, the accepted secret: shown this once)."""
    name, url = check_name(name), check_url(url)
    present = check_secret(present, "presented")
    accept = check_secret(accept, "accepted") if accept else new_secret()
    with _change() as all_peers:
        if any(n.lower() == name.lower() for n in all_peers):
            raise Conflict(_("a peer named %(name)s exists already") % {"name": repr(name)})
        if any(hmac.compare_digest(p["acceptHash"], _hash(accept)) for p in all_peers.values()):
            raise Conflict(_("another peer already uses that accepted secret; each peer needs its own"))
        peer = {"url": url, "present": present, "acceptHash": _hash(accept), "enabled": True, "share": "none",
                "created": int(time.time() * 1000)}
        all_peers[name] = peer
    return view(name, peer), accept


def edit(name: str, *, url: str | None = None, present: str | None = None, enabled: bool | None = None,
         new_accept: bool = False) -> tuple[dict[str, Any], str | None]:
    """Change a peer; -> (its view, the new accepted secret when one was made, else None)."""
    accept = None
    with _change() as all_peers:
        peer = all_peers.get(name)
        if peer is None:
            raise NotFound(_("no peer named %(name)s") % {"name": repr(name)})
        if url is not None:
            peer["url"] = check_url(url)
        if present:
            peer["present"] = check_secret(present, "presented")
        if enabled is not None:
            if not isinstance(enabled, bool):
                raise Invalid(_("enabled must be true or false"))
            peer["enabled"] = enabled
        if new_accept:
            accept = new_secret()
            peer["acceptHash"] = _hash(accept)
    return view(name, peer), accept


def share(name: str, policy: str | list[str], known: Collection[str] = ()) -> dict[str, Any]:
    """Set what `name` may see: "none", "all" or a list of manga names (each in `known`)."""
    if policy not in ("none", "all"):
        if not isinstance(policy, list) or not all(isinstance(m, str) and m for m in policy):
            raise Invalid(_('share must be "none", "all" or a list of manga names'))
        missing = [m for m in policy if m not in known]
        if missing:
            names = ", ".join(repr(m) for m in missing)
            raise NotFound(_("no manga named %(names)s in this library") % {"names": names})
        policy = sorted(set(policy))
    with _change() as all_peers:
        peer = all_peers.get(name)
        if peer is None:
            raise NotFound(_("no peer named %(name)s") % {"name": repr(name)})
        peer["share"] = policy
    return view(name, peer)


def remove(name: str) -> None:
    with _change() as all_peers:
        if all_peers.pop(name, None) is None:
            raise NotFound(_("no peer named %(name)s") % {"name": repr(name)})


def authenticate(secret: object) -> str | None:
    """The name of the enabled peer whose accepted secret this is, else None (every hash compared)."""
    if not isinstance(secret, str) or not secret or len(secret) > 200:
        return None
    given = _hash(secret)
    found = None
    with _read() as all_peers:
        for name, peer in all_peers.items():
            if hmac.compare_digest(peer["acceptHash"], given) and peer["enabled"]:
                found = name
    return found


def shares(name: str, manga: str) -> bool:
    """Whether peer `name` may see the manga folder `manga`."""
    policy = get(name)["share"]
    return policy == "all" or (isinstance(policy, list) and manga in policy)


def on_moved(moves: list[Move]) -> None:
    """events.library_moved: a share list names a renamed manga by its new name."""
    with STATE.read() as data:
        lists = [peer["share"] for peer in data["peers"].values() if isinstance(peer.get("share"), list)]
        if not any(m.old in share for share in lists for m in moves):
            return
    with STATE.edit() as data:
        for peer in data["peers"].values():
            if isinstance(peer.get("share"), list) and moved.names(peer["share"], moves):
                peer["share"].sort()
