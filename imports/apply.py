"""The import itself: a backup first, then every change of the plan in one write through the
owners (accounts.users for the accounts, reader.progress for the positions, reader.collections,
reader.ratings and reader.wanttoread for those), undone as a whole
when it cannot be written (db.security_change)."""
import datetime
import secrets

from django.conf import settings
from django.utils.translation import gettext as _

from accounts import passwords, users
from catalog import overrides as catalog_overrides
from catalog import store as catalog_store
from mangacircus import db, jsonfile
from mangacircus.errors import Unavailable
from ops.backups import run as backups
from reader import collections, progress, ratings, readlists, wanttoread


def backup():
    """A backup archive when BACKUP is set, else a copy of db.json in DATA/imports/; -> its name."""
    if settings.BACKUP is not None:
        record = backups.run("import")
        if not record.get("ok"):
            raise Unavailable(_("the backup before the import failed (%(error)s), so nothing was imported")
                              % {"error": record.get("error")})
        return str(settings.BACKUP / record["archive"])
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = settings.DATA / "imports" / f"db-before-import-{stamp}.json"
    target.parent.mkdir(mode=0o700, exist_ok=True)
    data = db.snapshot()
    if data is None:
        raise Unavailable(_("db.json is not open, so nothing was imported"))
    jsonfile.write_atomic(target, data, mode=0o600)
    catalog = catalog_store.STATE.snapshot()
    if catalog is not None:
        jsonfile.write_atomic(target.with_name(f"catalog-before-import-{stamp}.json"), catalog, mode=0o600)
    return str(target)


def apply(plan):
    """-> {backup, accounts: [{name, label, password}], written}. Nothing to change: no backup."""
    if not plan.changes:
        return {"backup": None, "accounts": [], "written": 0, "overrides": 0, "plan": plan.as_dict()}
    made = [{**a, "password": secrets.token_urlsafe(12)} for a in plan.accounts]
    hashes = {a["name"]: passwords.make_hash(a["password"]) for a in made}  # slow: before the lock
    saved = backup()
    # catalog.json first, in one edit that a failed db.json write undoes as well
    with catalog_store.edit("import"):
        for manga, fields in plan.overrides:
            catalog_overrides.set_override("import", manga.name, fields, manga)
        with db.security_change("users", "progress", "collections", "readlists", "ratings", "wanttoread"):
            for account in made:
                if not users.exists(account["name"]):
                    users.create_user(account["name"], hashes[account["name"]])
            written = progress.import_many(plan.writes)
            lists = {"collections": collections.import_many(plan.collections),
                     "ratings": ratings.import_many(plan.ratings), "wants": wanttoread.import_many(plan.wants),
                     "readlists": readlists.import_many(plan.readlists)}
    return {"backup": saved, "accounts": made, "written": written, "overrides": len(plan.overrides), **lists,
            "plan": plan.as_dict()}
