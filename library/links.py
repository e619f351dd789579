"""Signed page links: /lib/ URLs that nginx's secure_link module authorises by itself.

With IMAGE_LINKS=signed, each page URL the reader hands out carries `?e=<expires>&s=<signature>`,
where the signature is nginx's `secure_link_md5` of

    "<expires><path below LIBRARY><the sid cookie> <secret>"

(base64url MD5, no padding). The secret is made once per DATA in DATA/link-secret (race-free, like
secret_key) and written for nginx as DATA/link-secret.nginx, a `map` that deploy/nginx.conf includes.
nginx serves a valid link from disk without asking the reader; it refuses a wrong signature (a
tampered URL, another user's URL, a browser whose sid changed at logout) with 403, and passes an
expired or unsigned link to the reader's /lib/ route, which checks the session as it always does.

Expiry: links end on a grid of IMAGE_LINK_SECONDS / 2, between half of IMAGE_LINK_SECONDS and all of
it from when they were made, so the same page keeps the same URL (and the browser's cache) for a
while. A session ended or a restriction applied stops new links at once (they are made only for an
allowed request); a link already handed out, with its sid, works at the proxy until it expires.
Without a proxy the same URLs work: the /lib/ route ignores the query and checks the session.
Pages inside a CBZ/ZIP archive are never signed: nginx cannot open a member from disk.

Cover thumbnails are named by their file (`thumb/<manga>/<file>.webp`, the same URL for everyone,
so the library's cached tiles stay shared); what nginx checks for them is a pair of cookies, the
link cookies, that `reader.linkcookies` keeps on a signed-in browser: `mclink_e` (the expiry, on
the same grid) and `mclink_s`, nginx's `secure_link_md5` of

    "<expires>/thumb/<the sid cookie> <secret>"

A user with restrictions (library.guard) is never given them, so each of their cover requests
reaches the reader's /thumb/ route and its checks; the cookies go at sign-out and when a user is
restricted, and a pair already handed out works until its expiry, like a link.
"""
import base64
import hashlib
import os
import time
from urllib.parse import quote, unquote

from django.conf import settings

from mangacircus import secretkey

from .names import ARCHIVE_EXTENSIONS

SECRET_FILE = "link-secret"
NGINX_FILE = "link-secret.nginx"
NGINX_MAP = 'map $host $mangacircus_link_secret {{ default "{secret}"; }}\n'

_secret = {}


def enabled():
    return settings.IMAGE_LINKS == "signed"


def secret():
    """The deployment's link secret, made in DATA on first use, and its nginx include kept in step."""
    data = settings.DATA
    if data not in _secret:
        key = secretkey.load_or_create(data / SECRET_FILE)
        include = data / NGINX_FILE
        text = NGINX_MAP.format(secret=key)
        try:
            current = include.read_text()
        except FileNotFoundError:
            current = None
        if current != text:
            tmp = include.with_name(f".{include.name}.{os.getpid()}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
            with open(fd, "w") as f:
                f.write(text)
            os.replace(tmp, include)  # the same text whoever writes it: the last rename is as good
        _secret[data] = key
    return _secret[data]


def expires(now=None):
    """The end of links made now: the second grid line of IMAGE_LINK_SECONDS / 2 after `now`."""
    step = max(1, settings.IMAGE_LINK_SECONDS // 2)
    now = int(time.time() if now is None else now)
    return (now // step + 2) * step


def signature(rel, sid, until, key=None):
    """nginx's secure_link_md5 value for the page `rel` (below LIBRARY, unescaped), the session `sid`."""
    text = f"{until}{rel}{sid} {key or secret()}".encode("utf-8", "surrogateescape")
    return base64.urlsafe_b64encode(hashlib.md5(text).digest()).rstrip(b"=").decode()


def thumb_signature(sid, until, key=None):
    """The `mclink_s` cookie's value for the session `sid` until `until` (cover thumbnails)."""
    return signature("/thumb/", sid, until, key)


def signed_query(rel, sid, until=None):
    until = expires() if until is None else until
    return f"e={until}&s={signature(rel, sid, until)}"


def sign_pages(request, pages):
    """Add a signed query to each page URL ("lib/<quoted path>") of a chapter payload, in place."""
    sid = getattr(request, "sid", None)
    if not enabled() or not sid or not pages:
        return pages
    key, until = secret(), expires()
    for page in pages:
        url = page["u"]
        rel = _unquote_lib(url)
        if rel is not None:
            page["u"] = f"{url}?e={until}&s={signature(rel, sid, until, key)}"
    return pages


def _unquote_lib(url):
    """The path below LIBRARY of a page URL nginx can serve from disk, or None: a member of a CBZ/ZIP
    archive ("<archive>.cbz/<member>") is not a file there, so it keeps the plain URL."""
    if not url.startswith("lib/"):
        return None
    rel = unquote(url[4:], errors="surrogateescape")
    folders = rel.split("/")[:-1]
    if any(f.rpartition(".")[2].casefold() in ARCHIVE_EXTENSIONS for f in folders if "." in f):
        return None
    return rel


def url(rel, sid, until=None):
    """The signed URL (relative to the app root) of the page `rel`; for tests and the bench."""
    return "lib/" + quote(rel, safe="/") + "?" + signed_query(rel, sid, until)
