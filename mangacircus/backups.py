"""Built-in backups of DATA (docs/backup.md): what goes in, how an app adds its state file.

An archive holds every file of DATA except the disposable caches and the generated secrets
(`archive.EXCLUDED`). Files are read from disk, except the state files an app holds in memory:
the owner of such a file registers a snapshot callable here, from its AppConfig (db.json is
registered by mangacircus itself):

    backups.register_snapshot(catalog_store.FILE, catalog_store.STATE.snapshot)

`snapshot()` answers the document's bytes as of now or of its next flush (JsonFile.snapshot), or
None when the document is not open in this process (then the file on disk is taken). A process that
must be paused while the backup takes its snapshot (the scraper) registers a pause hook:
`register_pause(pause)`, where `pause(lease_seconds)` answers a resume() callable, or None when
there is nothing to pause.
"""
_snapshots = {}
_pausers = []


def register_snapshot(relative_path, snapshot):
    _snapshots[str(relative_path)] = snapshot


def register_pause(pause):
    if pause not in _pausers:
        _pausers.append(pause)


def snapshots():
    return dict(_snapshots)


def pausers():
    return list(_pausers)
