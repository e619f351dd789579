from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class ShelfConfig(AppConfig):
    """The shelf: the library and manga pages, filters, history, discovery and their caches."""

    name = "shelf"

    def ready(self):
        from mangacircus import events
        from mangacircus.pages import settings_section

        from . import pagecache, summaries

        settings_section("admin", "library", gettext_lazy("Library"), "mc-settings-library", order=20)
        events.catalog_changed.connect(summaries.forget)
        events.catalog_changed.connect(pagecache.forget)  # after summaries.forget: see pagecache.forget
        events.scan_finished.connect(summaries.on_scan)

    def start_runtime(self):
        from . import discovery, pagecache

        discovery.reset()
        pagecache.clear()
