from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class ReaderConfig(AppConfig):
    name = "reader"

    def ready(self):
        from mangacircus.pages import settings_section

        # The owners of db.json's reader sections register their hooks on import (access also
        # registers its rule with library.guard for /lib/ and the thumbnails).
        from . import access, announce, dismissals, notes, progress, reading, serverprefs, social, votes  # noqa: F401

        settings_section("user", "reading", "Reading", "mc-settings-reading", order=20)
        settings_section("user", "notifications", "Notifications", "mc-settings-notifications", order=30)
        settings_section("user", "clock", "Reading clock", "mc-settings-clock", order=40)
        settings_section("user", "apps", "Apps", "mc-settings-apps", order=50)
        settings_section("admin", "library", "Library", "mc-settings-library", order=20)
        settings_section("admin", "apps", "Apps & downloads", "mc-settings-admin-apps", order=40)

    def start_runtime(self):
        from catalog import store as catalog_store
        from library import service as library_service

        from . import access, announce, discovery, summaries, webhooks

        discovery.reset()
        catalog_store.on_change(summaries.forget)
        webhooks.start()
        library_service.on_scan(summaries.on_scan)
        library_service.on_scan(access.on_scan)
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
