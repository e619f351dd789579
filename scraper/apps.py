from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy


class ScraperConfig(AppConfig):
    name = "scraper"
    poll = None

    def ready(self):
        from mangacircus import backups, health
        from mangacircus.pages import settings_section

        from . import client, status

        # A backup pauses the daemon (under a lease) while it takes DATA.
        backups.register_pause(client.pause_for_backup)
        health.register("scraper", status.health)

        # The section's link is the screen's entry, which opens the Queue tab.
        settings_section("admin", "scraper", gettext_lazy("Scraper"), "mc-admin-scraper-home", order=30)
        settings_section("user", "mangadex", "MangaDex", "mc-settings-mangadex", order=50)

    def start_runtime(self):
        """In the reader: poll the daemon's revision, only when a token makes the daemon reachable."""
        if settings.SCRAPER_TOKEN:
            from .revision_poll import RevisionPoll

            self.poll = RevisionPoll()
            self.poll.start()

    def stop_runtime(self):
        if self.poll:
            self.poll.stop()
            self.poll = None
