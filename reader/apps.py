from django.apps import AppConfig
from django.conf import settings
from django.core import checks


class ReaderConfig(AppConfig):
    name = "reader"

    def ready(self):
        from mangacircus import backups
        from mangacircus.pages import settings_section

        # The owners of db.json's reader sections register their hooks on import (access also
        # registers its rule with library.guard for /lib/ and the thumbnails).
        from . import (  # noqa: F401
            access,
            announce,
            dismissals,
            notes,
            peer_actions,
            peers,
            progress,
            reading,
            serverprefs,
            social,
            votes,
        )

        peer_actions.register()
        backups.register_snapshot(peers.FILE, peers.snapshot)  # as of now or of its next flush

        settings_section("user", "reading", "Reading", "mc-settings-reading", order=20)
        settings_section("user", "notifications", "Notifications", "mc-settings-notifications", order=30)
        settings_section("user", "clock", "Reading clock", "mc-settings-clock", order=40)
        settings_section("user", "apps", "Apps", "mc-settings-apps", order=50)
        settings_section("admin", "library", "Library", "mc-settings-library", order=20)
        settings_section("admin", "apps", "Apps & downloads", "mc-settings-admin-apps", order=40)
        settings_section("admin", "peers", "Peers", "mc-admin-peers", order=60)

    def check_runtime(self):
        from . import peers

        peers.check_store()

    def start_runtime(self):
        from catalog import store as catalog_store
        from library import service as library_service

        from . import access, announce, discovery, pagecache, peers, summaries, webhooks

        peers.open_store()
        discovery.reset()
        pagecache.clear()
        catalog_store.on_change(summaries.forget)
        catalog_store.on_change(pagecache.forget)  # after summaries.forget: see pagecache.forget
        webhooks.start()
        library_service.on_scan(summaries.on_scan)
        library_service.on_scan(access.on_scan)
        library_service.on_scan(announce.on_scan)

    def stop_runtime(self):
        from . import peers, webhooks

        webhooks.stop()
        peers.close_store()


@checks.register()
def data_dir_writable(app_configs, **kwargs):
    import os

    data = settings.DATA
    parent = data if data.exists() else data.parent
    if not os.access(parent, os.W_OK):
        return [checks.Error(f"DATA ({data}) is not writable by this user", id="reader.E001")]
    return []
