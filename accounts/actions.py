"""The account changes a command asks for (mangacircus/localadmin.py): run by the reader when one
runs, else by the command itself under the data lock, with db.json opened here."""
from django.conf import settings

from mangacircus import db, localadmin

from . import rules


def reset_second_factor(payload):
    """The reader's handler of "twofactor-reset": {name} → {name} (the spelling stored)."""
    return {"name": rules.reset_second_factor(None, payload.get("name"))}


def _offline(action):
    def run(payload):
        db.open_db(settings.DATA / "db.json")
        try:
            return action(payload)
        finally:
            db.close_db()

    return run


def run_reset_second_factor(name):
    return localadmin.run("twofactor-reset", {"name": name}, _offline(reset_second_factor))
