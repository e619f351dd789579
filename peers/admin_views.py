"""Settings → Admin → Peers: the page, and the admin JSON it is built from (docs/peering.md).

GET/POST /api/admin/peers lists and adds; POST /api/admin/peers/<name> edits, shares, disables or
deletes; POST …/test says in words whether the peer answers; GET …/catalog sets the peer's
catalog next to this library: each version missing here, the same, or different there.
Queuing a transfer is a POST to the scraper through its admin proxy (/api/admin/scraper/jobs).
"""
from django.utils.translation import gettext as _

from library import contenthash, files
from mangacircus.errors import Invalid, Unavailable
from mangacircus.http import api, field
from mangacircus.pages import page, render_section

from . import actions as peer_actions
from . import client as peer_client
from . import store as peers


@page(auth="admin")
def peers_page(request):
    return render_section(request, "settings/peers.html", "admin", "peers", payload={"peers": peers.list_peers()})


@api(auth="admin", methods=("GET", "POST"))
def peers_api(request):
    if request.method == "GET":
        return {"peers": peers.list_peers()}
    d = request.data
    return peer_actions.add({"name": d.get("name"), "url": d.get("url"), "present": d.get("present"),
                             "accept": d.get("accept") or None})


@api(auth="admin", methods=("POST",))
def peer_api(request, name):
    """{delete: true} | {share: "none"|"all"|[manga]} | {url, present, enabled, newAccept}."""
    d = request.data
    peers.get(name)
    if d.get("delete") is True:
        peers.remove(name)
        return {"removed": name}
    if "share" in d:
        return {"peer": peer_actions.share({"name": name, "share": d["share"]})["peer"]}
    url = field(d, "url", str, required=False)
    present = field(d, "present", str, required=False)
    enabled = field(d, "enabled", bool, required=False)
    new_accept = field(d, "newAccept", bool, required=False, default=False)
    if url is None and not present and enabled is None and not new_accept:
        raise Invalid(_("nothing to change: send url, present, enabled, newAccept, share or delete"))
    peer, accept = peers.edit(name, url=url, present=present, enabled=enabled, new_accept=new_accept)
    return {"peer": peer, "accept": accept}


@api(auth="admin", methods=("POST",))
def test_api(request, name):
    peers.get(name)
    return peer_client.test(name)


def compare(remote):
    """The peer's catalog with a state per version ("missing", "same", "different") and per manga
    ("missing" here, "newer" there when some version is not here as it is there, else "same").
    What is here is read from the disk, so a transfer shows as done before the next scan."""
    out = []
    for m in remote.get("manga", []):
        local = isinstance(m.get("name"), str) and files.library_folder(m["name"]) is not None
        states = []
        for book in m.get("books", []):
            for chapter in book.get("chapters", []):
                for version in chapter.get("versions", []):
                    here = contenthash.local_version_hash(f"{m['name']}/{version['path']}") if local else None
                    version["state"] = "missing" if here is None else "same" if here == version["hash"] else "different"
                    version.pop("pages", None)
                    states.append(version["state"])
        m["state"] = "missing" if not local else "same" if all(s == "same" for s in states) else "newer"
        out.append(m)
    return out


@api(auth="admin")
def catalog_api(request, name):
    try:
        remote = peer_client.catalog(name)
    except peer_client.PeerError as e:
        raise Unavailable(str(e)) from None
    return {"peer": name, "manga": compare(remote)}
