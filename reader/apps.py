from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class ReaderConfig(AppConfig):
    name = "reader"

    def ready(self):
        from mangacircus.pages import settings_section

        # The owners of db.json's reader sections register their hooks on import.
        from . import announce, dismissals, notes, progress, reading, social, votes  # noqa: F401

        settings_section("user", "reading", "Reading", "mc-settings-reading", order=20)
        settings_section("user", "notifications", "Notifications", "mc-settings-notifications", order=30)
        settings_section("user", "clock", "Reading clock", "mc-settings-clock", order=40)
        settings_section("admin", "library", "Library", "mc-settings-library", order=20)

    def start_runtime(self):
        from catalog import store as catalog_store
        from library import service as library_service

        from . import announce, discovery, summaries, webhooks

        discovery.reset()
        catalog_store.on_change(summaries.forget)
        webhooks.start()
        library_service.on_scan(summaries.on_scan)
        library_service.on_scan(announce.on_scan)

    def stop_runtime(self):
        from . import webhooks

        webhooks.stop()


@checks.register()
def data_dir_writable(app_configs, **kwargs):
    import os

    data = settings.DATA
    parent = data if data.exists() else data.parent
    if not os.access(parent, os.W_OK):
        return [checks.Error(f"DATA ({data}) is not writable by this user", id="reader.E001")]
    return []
