"""Copy manga from a peer: another MangaCircus server that shares them with this one (docs/peering.md).

The series id is `<peer>/<manga folder>`; a chapter id is `<peer>/<manga folder>/<version path>`,
where the version path is the version folder under the manga (`b01 Spring/c0002 Roots [Official]`).
The peer's URL and the secret this server presents come from DATA/peers.json, which the reader
writes and this module only reads, through peers.store.read_from_disk(). Everything travels through
the daemon's client like any source (pacing, address checks with PEER_ALLOW, caps, retries); each page
is announced with its name, size and SHA-256 in the peer's catalog, and the daemon rejects bytes that
differ.

What the peer publishes keeps its names: the manga folder, the version folder (inside its book
folder) and each page file, so the same content has the same identity on both sides. A version
already here with the same content hash is not listed, so it is never fetched again.
"""
import logging
import time
from urllib.parse import urlencode

from django.conf import settings

from library import contenthash
from library.names import IMAGE_EXTENSIONS, extension
from mangacircus import netguard
from peers import store as peer_store

from .. import names
from ..errors import InvalidInput, NotFound, Refused
from . import register
from .base import ChapterInfo, PageInfo, SeriesInfo, Source

log = logging.getLogger(__name__)
CATALOG_SECONDS = 60  # a catalog is reused this long within one job (it lists every page's hash)
MAX_CATALOG = 64 << 20


def peer_settings(name):
    """(url, secret presented) of the peer `name` from DATA/peers.json."""
    peer = peer_store.read_from_disk().get(name)
    if peer is None or not isinstance(peer.get("url"), str) or not isinstance(peer.get("present"), str):
        raise NotFound(f"no peer named {name!r} (Settings → Admin → Peers)")
    if not peer.get("enabled", True):
        raise Refused(f"the peer {name} is disabled")
    return peer["url"], peer["present"]


def _safe_path(path):
    parts = path.split("/") if isinstance(path, str) else []
    if not 1 <= len(parts) <= 2 or any(p != names.clean(p) for p in parts):
        raise Refused(f"the peer announced an unsafe folder {path!r}")
    return path


class PeerSource(Source):
    key = "peer"
    name = "Peer"
    pace = 0.0  # a peer is a friend's server: no pacing unless its admin asks for some here
    keep_alive = True  # a chapter is hundreds of requests to one server
    languages = ("",)

    def __init__(self):
        self._catalogs = {}  # peer -> (monotonic time, catalog)
        self._last = None  # (chapter id, manga, version) of the last pages() call: what is published next

    def allows(self, host, port, ip):
        return netguard.listed(settings.PEER_ALLOW, host, ip)

    def check_id(self, http, series_id):
        series_id = super().check_id(http, series_id)
        peer, _, manga = series_id.partition("/")
        if not peer or not manga or "/" in manga:
            raise InvalidInput("a peer series id is <peer>/<manga folder>")
        try:
            peer_settings(peer)
        except (NotFound, Refused) as e:
            raise InvalidInput(e.message) from None
        return series_id

    def search(self, http, query):
        """The manga every peer shares with this server whose name holds the query."""
        found = []
        for peer in self._peer_names():
            for m in self._catalog(http, peer)["manga"]:
                if (query or "").lower() in (m["name"] + " " + (m.get("title") or "")).lower():
                    found.append(SeriesInfo(id=f"{peer}/{m.get('id') or m['name']}", title=m.get("title") or m["name"]))
        return found[:100]

    def _peer_names(self):
        return sorted(peer_store.read_from_disk())

    def _catalog(self, http, peer, fresh=False):
        cached = self._catalogs.get(peer)
        if cached and not fresh and time.monotonic() - cached[0] < CATALOG_SECONDS:
            return cached[1]
        url, secret = peer_settings(peer)
        data = http.get(f"{url}/api/peer/catalog", {"Authorization": f"Bearer {secret}",
                                                    "Accept": "application/json"}, MAX_CATALOG).json()
        if not isinstance(data, dict) or data.get("protocol") != 1 or not isinstance(data.get("manga"), list):
            raise Refused(f"the peer {peer} speaks another version of the peer API")
        self._catalogs[peer] = (time.monotonic(), data)
        return data

    def _manga(self, http, series_id, fresh=False):
        peer, _, name = series_id.partition("/")
        found = _named(self._catalog(http, peer, fresh)["manga"], name)
        if found is None:
            raise NotFound(f"{peer} shares no manga named {name!r}")
        return peer, found

    def series(self, http, series_id, lang=None):
        _peer, m = self._manga(http, series_id, fresh=True)
        meta = m.get("meta") or {}
        return SeriesInfo(id=series_id, title=m["name"], authors=tuple(meta.get("authors") or ()),
                          description=str(meta.get("description") or ""), direction=m.get("direction"))

    def folder_title(self, info):
        return info.id.partition("/")[2]  # the peer's folder name, not its title

    def _versions(self, m):
        for book in m.get("books", []):
            for chapter in book.get("chapters", []):
                for version in chapter.get("versions", []):
                    yield book, chapter, version

    def chapters(self, http, series_id, lang):
        _peer, m = self._manga(http, series_id, fresh=True)
        listed = []
        for book, chapter, version in self._versions(m):
            path = _safe_path(version["path"])
            if self._same_here(m["name"], path, version["hash"]):
                continue
            listed.append(ChapterInfo(id=f"{series_id}/{path}", number=str(chapter.get("key", "")),
                                      title=chapter.get("title") or "", volume=book.get("key")))
        return listed

    def _same_here(self, manga, path, wanted):
        return contenthash.local_version_hash(f"{manga}/{path}") == wanted

    def _version(self, http, chapter_id):
        peer, manga, path = chapter_id.split("/", 2)
        peer, m = self._manga(http, f"{peer}/{manga}")
        for _book, _chapter, version in self._versions(m):
            if version["path"] == path:
                return peer, m, version
        raise NotFound(f"{peer} no longer shares {m['name']} / {path}")

    def pages(self, http, chapter_id):
        peer, m, version = self._version(http, chapter_id)
        url, secret = peer_settings(peer)
        found = []
        for name, size, sha in version.get("pages", []):
            if name != names.clean(name) or extension(name) not in IMAGE_EXTENSIONS:
                raise Refused(f"the peer announced an unsafe page name {name!r}")
            query = urlencode({"m": m["name"], "v": version["path"], "f": name})
            found.append(PageInfo(url=f"{url}/api/peer/page?{query}", headers={"Authorization": f"Bearer {secret}"},
                                  name=name, size=size, sha256=sha))
        self._last = (chapter_id, m, version)
        return found

    def folder(self, chapter):
        return _safe_path(chapter.id.split("/", 2)[2]).split("/")[-1]

    def book(self, chapter):
        parts = _safe_path(chapter.id.split("/", 2)[2]).split("/")
        return parts[0] if len(parts) == 2 else None

    def chapter_meta(self, chapter, meta):
        """The peer's chapter.json, with where it came from (its own `source` kept)."""
        _id, _m, version = self._last
        peer_meta = version.get("meta") if isinstance(version.get("meta"), dict) else {}
        return {**peer_meta, "fetchedBy": self.key, "fetchedId": chapter.id, "fetched": meta.get("fetched")}

    def manga_meta(self, entry, meta):
        """The peer's manga.json (from the catalog just read), with this source added."""
        peer, _, name = entry["id"].partition("/")
        cached = self._catalogs.get(peer)
        m = _named(cached[1]["manga"] if cached else [], name) or {}
        peer_meta = m.get("meta") if isinstance(m.get("meta"), dict) else {}
        return {**peer_meta, "sources": meta["sources"]}


def _named(catalog, key):
    """The catalog's manga a series id names: by the peer's stable id, which a rename there keeps
    (peers/api_views.py), else by its folder name (follows made before the id was offered)."""
    return (next((m for m in catalog if m.get("id") == key), None)
            or next((m for m in catalog if m.get("name") == key), None))


register(PeerSource())
