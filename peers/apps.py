from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class PeersConfig(AppConfig):
    """Peering (docs/peering.md): peers.json, the peer API, the admin's screen and the `peer` command."""

    name = "peers"

    def ready(self):
        from mangacircus import backups, events
        from mangacircus.pages import settings_section

        from . import actions, store

        actions.register()
        backups.register_snapshot(store.FILE, store.STATE.snapshot)  # as of now or of its next flush
        events.library_moved.connect(store.on_moved)
        settings_section("admin", "peers", gettext_lazy("Peers"), "mc-admin-peers", order=60)

    def check_runtime(self):
        from . import store

        store.STATE.check()

    def start_runtime(self):
        from . import store

        store.STATE.open()

    def stop_runtime(self):
        from . import store

        store.STATE.close()
