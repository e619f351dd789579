from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class ReaderConfig(AppConfig):
    name = "reader"

    def check_runtime(self):
        from mangacircus.jsonfile import JsonFile

        from . import store

        JsonFile(settings.DATA / "db.json", validate=store._validate).close()

    def start_runtime(self):
        from library import service as library_service

        from . import announce, store, summaries, webhooks

        store.open_db(settings.DATA / "db.json")
        store.prune_sessions()
        webhooks.start()
        library_service.on_scan(summaries.on_scan)
        library_service.on_scan(announce.on_scan)

    def stop_runtime(self):
        from . import store, webhooks

        webhooks.stop()
        store.close_db()


@checks.register()
def data_dir_writable(app_configs, **kwargs):
    import os

    data = settings.DATA
    parent = data if data.exists() else data.parent
    if not os.access(parent, os.W_OK):
        return [checks.Error(f"DATA ({data}) is not writable by this user", id="reader.E001")]
    return []
