"""The peer API: what another server sees of this one, with the secret it presents (docs/peering.md).

`GET /api/peer/catalog` lists the manga shared with the calling peer, down to each page's size and
hash; `GET /api/peer/page?m=&v=&f=` answers one page of a shared version. Only the header
`Authorization: Bearer <secret>` counts: a session cookie, even an admin's, is ignored, so it
alone gets 401. A wrong secret gets 401 and is counted by the sign-in rate limit
(accounts/ratelimit.py) under the name "(peer)"; a manga that is not shared is 404 with the same
message as a missing one. Every answer is logged with the peer's name.
"""
import logging
import time
from urllib.parse import urlencode

from accounts import ratelimit
from library import contenthash, files, index
from library import ids as library_ids
from mangacircus.clientip import client_ip
from mangacircus.errors import NotFound, RateLimited, WrongCredentials
from mangacircus.http import api
from mangacircus.wording import in_words

from . import store as peers

log = logging.getLogger("mangacircus.peers")
PROTOCOL = 1
RATE_NAME = "(peer)"


def authenticate(request):
    """The calling peer's name; WrongCredentials or RateLimited otherwise."""
    header = request.headers.get("Authorization", "")
    secret = header[7:].strip() if header[:7].lower() == "bearer " else ""
    address = client_ip(request)
    now = time.monotonic()
    wait = ratelimit.take(RATE_NAME, address, now)
    if wait:
        log.warning("peer request from %s refused: rate limited", address)
        raise RateLimited(f"too many attempts; try again {in_words(wait)}", retry_after=wait)
    name = peers.authenticate(secret)
    if name is None:
        log.warning("peer request from %s refused: %s", address, "wrong secret" if secret else "no secret")
        raise WrongCredentials("missing or wrong peer secret")
    ratelimit.give_back(RATE_NAME, address, now)
    return name


def _shared_manga(peer, name):
    manga = index.current().get(name)
    if manga is None or not peers.shares(peer, manga.name):
        raise NotFound("not found")
    return manga


def _relative(manga, version):
    """The version's path under the manga, as the peer writes it: a version in an archive is a
    folder named by the archive without its extension (`c0001.cbr` → `c0001`, `v01.cbz/Ch 2` →
    `v01/Ch 2`), since the pages it copies are written as files."""
    rel = version.path[len(manga.name) + 1:]
    if version.archive is None:
        return rel
    parts = rel.split("/")
    at = version.archive.count("/") - manga.name.count("/") - 1  # the archive's part of rel
    parts[at] = parts[at].rpartition(".")[0] or parts[at]
    return "/".join(parts)


def version_entry(manga, version):
    """A version in the catalog: a chapter folder, or a chapter in an archive of any format read
    here (its pages hashed as they are served); None when one of its pages cannot be read."""
    try:
        if version.archive is None:
            folder = files.library_folder(version.path)
            if folder is None:
                return None
            pages = contenthash.folder_pages(folder, version.files())
        else:
            pages = contenthash.archive_pages(version)
    except OSError as e:
        log.warning("not offering %s to peers: %s", version.path, e)
        return None
    return {"name": version.name, "path": _relative(manga, version), "meta": version.meta,
            "pageCount": version.page_count, "size": sum(p[1] for p in pages),
            "hash": contenthash.version_hash(pages), "pages": [list(p) for p in pages]}


def _cover(manga):
    if not manga.cover:
        return None
    folder, _, file = manga.cover.rpartition("/")
    for version in manga.versions():
        if version.path == folder:
            return "api/peer/page?" + urlencode({"m": manga.name, "v": _relative(manga, version), "f": file})
    return None


def manga_entry(manga):
    seen = set()

    def entries(chapter):
        found = []
        for version in chapter.versions:
            path = _relative(manga, version)
            if path in seen:  # `c0001.cbz` beside a folder `c0001`: the first is offered
                log.warning("not offering %s to peers: %s is offered already", version.path, path)
                continue
            seen.add(path)
            entry = version_entry(manga, version)
            if entry:
                found.append(entry)
        return found

    return {
        # `id` stays what it was when the folder is renamed (library/ids.py): a follower keeps its follow
        "id": library_ids.origin(manga.name), "name": manga.name, "title": manga.title, "meta": manga.meta,
        "direction": manga.direction, "coverUrl": _cover(manga), "updated": manga.updated,
        "books": [{"key": b.key, "title": b.title, "folder": b.folder, "extra": b.extra,
                   "chapters": [{"key": c.key, "title": c.title, "versions": entries(c)} for c in b.chapters]}
                  for b in manga.books],
    }


def shared_with(peer):
    return [m for m in index.current().sorted() if peers.shares(peer, m.name)]


@api(auth="public")
def catalog(request):
    peer = authenticate(request)
    listed = shared_with(peer)
    log.info("peer %s: catalog (%d manga)", peer, len(listed))
    return {"protocol": PROTOCOL, "manga": [manga_entry(m) for m in listed]}


@api(auth="public")
def page(request):
    peer = authenticate(request)
    m, v, f = (request.GET.get(k, "") for k in ("m", "v", "f"))
    try:
        manga = _shared_manga(peer, m)
        version = next((x for x in manga.versions() if _relative(manga, x) == v), None)
        if version is None or f not in version.files():
            raise NotFound("not found")
        response = files.page_response(request, f"{version.path}/{f}")
        if response is None:
            raise NotFound("not found")
    except NotFound:
        log.info("peer %s: page %r %r %r not found", peer, m, v, f)
        raise
    log.info("peer %s: page %s / %s / %s", peer, m, v, f)
    return response
