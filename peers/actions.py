"""The peer changes a command asks for, run by the reader (mangacircus/localadmin.py) or, when no
reader runs, by the command itself under the data lock: the same functions either way."""
import os

from django.utils.translation import gettext as _

from library import libraries
from mangacircus import localadmin
from mangacircus.errors import Invalid, Unavailable

from . import client as peer_client
from . import store as peers


def library_manga():
    """The manga folder names in the libraries (what `share` may name)."""
    found = set()
    for library in libraries.all():
        if os.path.isdir(library.root):
            found |= {e.name for e in os.scandir(library.root) if e.is_dir() and not e.name.startswith(".")}
    return found


def add(payload):
    peer, accept = peers.add(payload.get("name"), payload.get("url"), payload.get("present"), payload.get("accept"))
    return {"peer": peer, "accept": accept}


def listing(payload):
    return {"peers": peers.list_peers()}


def share(payload):
    policy = payload.get("share")
    if not isinstance(policy, (str, list)):
        raise Invalid(_('share must be "none", "all" or a list of manga names'))
    return {"peer": peers.share(payload.get("name"), policy, library_manga())}


def remove(payload):
    peers.remove(payload.get("name"))
    return {"removed": payload.get("name")}


def get(payload):
    peer = peers.get(payload.get("name"))
    return {"url": peer["url"], "enabled": peer["enabled"]}


def remote(payload):
    """The manga the peer shares with this server, by folder name."""
    try:
        return {"manga": [m["name"] for m in peer_client.catalog(payload.get("name"))["manga"]]}
    except peer_client.PeerError as e:
        raise Unavailable(str(e)) from None


ACTIONS = {"peer-remote": remote, "peer-add": add, "peer-list": listing, "peer-share": share,
           "peer-remove": remove, "peer-get": get}


def register():
    for action, handler in ACTIONS.items():
        localadmin.register(action, handler)


def run(action, payload):
    """From a command: through the running reader, or here under the data lock."""
    def offline(data):
        peers.STATE.open()
        try:
            return ACTIONS[action](data)
        finally:
            peers.STATE.close()

    return localadmin.run(action, payload, offline)
