"""Where an import runs: in the reader, the single writer of db.json (the local action "import",
from `manage.py import`, and the admin's screen), or, when no reader runs, in the command under the
data lock (mangacircus.localadmin)."""
from django.conf import settings
from django.utils.translation import gettext as _

from catalog import store as catalog_store
from library import index as library_index
from library import service as library_service
from mangacircus import db, localadmin
from mangacircus.errors import Invalid
from ops.backups import state as backup_state

from . import apply, kavita, kavita_api, komga, komga_api, mihon, plan

READERS = {"kavita": lambda path, payload: kavita.read(path),
           "komga": lambda path, payload: komga.read(path),
           "mihon": lambda path, payload: mihon.read(path, payload.get("into"))}


def read_source(kind, path, payload):
    if kind == "komga" and payload.get("url"):  # a running Komga, through its REST API (komga_api.py)
        return komga_api.read(payload["url"], payload.get("login"), payload.get("password"))
    if kind == "kavita" and payload.get("url"):  # a running Kavita, with a user's API key (kavita_api.py)
        return kavita_api.read(payload["url"], payload.get("apiKey"))
    reader = READERS.get(kind)
    if reader is None:
        raise Invalid(_("unknown source %(source)s: it is one of %(sources)s")
                      % {"source": repr(kind), "sources": ", ".join(sorted(READERS))})
    if not isinstance(path, str) or not path:
        raise Invalid(_("give the path of the file to import"))
    return reader(path, payload)


def run(payload, index=None):
    """{source, path, names: {user there: account here}, into: account (mihon), apply: bool} -> the
    plan, or the result."""
    names = payload.get("names") or {}
    if not isinstance(names, dict) or not all(isinstance(v, str) for v in names.values()):
        raise Invalid(_("names must map each user there to an account name here"))
    source = read_source(payload.get("source"), payload.get("path"), payload)
    built = plan.build(source, names, index)
    if payload.get("apply") is True:
        return apply.apply(built)
    return built.as_dict()


def handler(payload):
    """The reader's handler of the local action "import"."""
    return run(payload)


def offline(payload):
    """No reader runs: this process holds DATA's lock, opens db.json and backup.json itself and
    takes the library as the reader last saw it."""
    db.open_db(settings.DATA / "db.json")
    backup_state.STATE.open(settings.DATA)
    catalog_store.STATE.open()
    try:
        index = library_service.offline_index()
        library_index.replace(index)  # this process is the command's: the restrictions look here
        return run(payload, index)
    finally:
        catalog_store.STATE.close()
        backup_state.STATE.close()
        db.close_db()


def through_reader(payload):
    return localadmin.run("import", payload, offline)
