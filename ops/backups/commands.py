"""What `manage.py backup` does, in the running reader or in the command itself (localadmin)."""
from django.conf import settings

from mangacircus import localadmin

from . import run, state


def backup_in_reader(payload):
    """The reader's handler of the local action "backup"."""
    return run.run(payload.get("trigger") or "command")


def backup_offline(payload):
    """No reader runs: this process holds DATA's lock and opens backup.json itself."""
    state.STATE.open(settings.DATA)
    try:
        return run.run(payload.get("trigger") or "command")
    finally:
        state.STATE.close()


def backup():
    """One run through the reader when one runs, else here; -> the recorded run."""
    run.folder()
    return localadmin.run("backup", {"trigger": "command"}, backup_offline)
