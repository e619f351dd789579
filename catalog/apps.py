from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class CatalogConfig(AppConfig):
    name = "catalog"

    def ready(self):
        from mangacircus import backups, events, localadmin
        from mangacircus.pages import settings_section

        from . import provided, research, store

        settings_section("admin", "catalog", gettext_lazy("Catalog"), "mc-settings-catalog", order=25)
        localadmin.register("catalog-import", research.import_handler)
        localadmin.register("catalog-export", research.export_handler)
        backups.register_snapshot(store.FILE, store.STATE.snapshot)  # as of now or of its next flush
        events.library_moved.connect(store.on_moved)
        backups.register_snapshot(provided.FILE, provided.STATE.snapshot)
        events.library_moved.connect(provided.on_moved)

    def check_runtime(self):
        from . import provided, store

        store.STATE.check()
        provided.STATE.check()

    def start_runtime(self):
        from library import thumbs

        from . import overrides, provided, store

        store.STATE.open()
        provided.STATE.open()
        thumbs.choose_covers(overrides.cover_path)

    def stop_runtime(self):
        from library import thumbs

        from . import provided, store

        thumbs.choose_covers(None)
        store.STATE.close()
        provided.STATE.close()
