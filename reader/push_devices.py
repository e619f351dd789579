"""The `push` section of db.json: push[user][id] = {endpoint, p256dh, auth, label, t}, the browsers
(devices) a user subscribed to Web Push in Settings → Notifications (reader/webpush.py sends).

A device's id is derived from its endpoint (the first 20 hex digits of its SHA-256), so subscribing
again replaces it, and the page's script finds "this device" by hashing its own endpoint. An
endpoint belongs to the account that subscribed it last: a shared browser never receives the
chapters of the account that signed out of it. The keys are the browser's public key and auth
secret; they are needed to encrypt for it, and are never logged or shown.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from mangacircus import db, netguard
from mangacircus.clock import now_ms
from mangacircus.errors import Invalid, NotFound

MAX_DEVICES = 20  # per user; subscribing one more forgets the oldest
MAX_ENDPOINT = 2000
MAX_LABEL = 80


def validate(data: dict[str, Any]) -> None:
    for user, mine in data.get("push", {}).items():
        if not isinstance(mine, dict):
            raise ValueError(f'the push devices of "{user}" must be an object')


def forget_user(name: str) -> None:
    db.section("push").pop(name, None)


def _listed(host: str) -> bool:
    """Whether WEBHOOK_ALLOW, which push deliveries follow too, names this host or its address."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host.lower().rstrip(".") in settings.WEBHOOK_ALLOW
    return netguard.listed(settings.WEBHOOK_ALLOW, host, ip)


def device_id(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()[:20]


def _decoded(value: Any, name: str, size: int) -> bytes:
    """The bytes of a base64url key of `size` bytes; Invalid otherwise."""
    if not isinstance(value, str) or len(value) > 200:
        raise Invalid(_("keys.%(name)s must be a base64url string") % {"name": name})
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise Invalid(_("keys.%(name)s is not base64url") % {"name": name}) from None
    if len(raw) != size:
        raise Invalid(_("keys.%(name)s must be %(size)s bytes long, not %(got)s")
                      % {"name": name, "size": size, "got": len(raw)})
    return raw


def checked(subscription: Any) -> dict[str, str]:
    """The browser's PushSubscription.toJSON() ({endpoint, keys: {p256dh, auth}}) as stored; Invalid
    when it is not one."""
    if not isinstance(subscription, dict):
        raise Invalid(_("subscription must be an object {endpoint, keys: {p256dh, auth}}"))
    endpoint = subscription.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > MAX_ENDPOINT:
        raise Invalid(_("subscription.endpoint must be a URL of at most %(max_endpoint)s characters")
                      % {"max_endpoint": MAX_ENDPOINT})
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 (raises ValueError on a bad port)
    except ValueError:
        raise Invalid(_("subscription.endpoint is not a valid URL")) from None
    plain_ok = parts.scheme == "http" and _listed(parts.hostname or "")  # a push service on loopback, in tests
    if not parts.hostname or (parts.scheme != "https" and not plain_ok):
        raise Invalid(_("subscription.endpoint must be an https URL"))
    keys = subscription.get("keys")
    if not isinstance(keys, dict):
        raise Invalid(_("subscription.keys must be an object {p256dh, auth}"))
    if not _decoded(keys.get("p256dh"), "p256dh", 65).startswith(b"\x04"):
        raise Invalid(_("keys.p256dh must be an uncompressed P-256 point"))
    _decoded(keys.get("auth"), "auth", 16)
    return {"endpoint": endpoint, "p256dh": keys["p256dh"].rstrip("="), "auth": keys["auth"].rstrip("=")}


def subscribe(user: str, subscription: dict[str, str], label: str) -> dict[str, Any]:
    """Keep a checked() subscription for `user` (replacing the same endpoint, taking it from any
    other account); -> the device as devices() lists it."""
    sid = device_id(subscription["endpoint"])
    device = {**subscription, "label": label.strip()[:MAX_LABEL] or "A browser", "t": now_ms()}
    with db.lock():
        everyone = db.section("push")
        for other, theirs in list(everyone.items()):
            if other != user and theirs.pop(sid, None) is not None and not theirs:
                del everyone[other]
        mine = everyone.setdefault(user, {})
        mine.pop(sid, None)
        mine[sid] = device
        for old in sorted(mine, key=lambda k: mine[k].get("t", 0))[:-MAX_DEVICES]:
            del mine[old]
        db.touch(user)
    return _shown(sid, device)


def unsubscribe(user: str, sid: str) -> None:
    """Forget one of the user's devices; NotFound when they have none with this id."""
    with db.lock():
        everyone = db.section("push")
        mine = everyone.get(user, {})
        if mine.pop(sid, None) is None:
            raise NotFound(_("no such device"))
        if not mine:
            del everyone[user]
        db.touch(user)


def drop(user: str, sid: str, endpoint: str) -> bool:
    """Forget a device whose push service said its subscription is gone (404, 410), unless it was
    subscribed again meanwhile with another endpoint; -> whether it was forgotten."""
    with db.lock():
        everyone = db.section("push")
        mine = everyone.get(user, {})
        if mine.get(sid, {}).get("endpoint") != endpoint:
            return False
        del mine[sid]
        if not mine:
            del everyone[user]
        db.touch(user)
    return True


def _shown(sid: str, device: dict[str, Any]) -> dict[str, Any]:
    return {"id": sid, "label": device.get("label", ""), "t": device.get("t", 0),
            "service": urlsplit(device.get("endpoint", "")).hostname or ""}


def devices(user: str) -> list[dict[str, Any]]:
    """The user's devices, newest first: {id, label, t, service (the push service's host)}."""
    with db.lock():
        mine = db.section("push").get(user, {})
        shown = [_shown(sid, device) for sid, device in mine.items() if isinstance(device, dict)]
    return sorted(shown, key=lambda d: -d["t"])


def device_ids(user: str) -> list[str]:
    with db.lock():
        return list(db.section("push").get(user, {}))


def device(user: str, sid: str) -> dict[str, str] | None:
    """What sending to one device needs: {endpoint, p256dh, auth} (a copy), or None."""
    with db.lock():
        found = db.section("push").get(user, {}).get(sid)
        if not isinstance(found, dict):
            return None
        return {"endpoint": found["endpoint"], "p256dh": found["p256dh"], "auth": found["auth"]}
