import logging

from django.apps import AppConfig
from django.utils.translation import gettext_lazy

log = logging.getLogger(__name__)


class OpsConfig(AppConfig):
    """The operator's side: incidents and health screens, backups, and `startall`'s supervisor."""

    name = "ops"
    scheduler = None

    def ready(self):
        from mangacircus import health, incidents, localadmin
        from mangacircus.pages import settings_section

        from .backups import commands, run

        localadmin.register("backup", commands.backup_in_reader)
        health.register("backup", run.health)
        settings_section("admin", "health", gettext_lazy("Incidents & health"), "mc-admin-health", order=40,
                         badge=incidents.open_count)
        settings_section("admin", "backups", gettext_lazy("Backups"), "mc-admin-backups", order=50)

    def start_runtime(self):
        """In the reader: backup.json, and the backup schedule when BACKUP is set."""
        from django.conf import settings

        from .backups import restore, run, state

        # The reader holds DATA's lock here, so no restore is under way: what one left is debris.
        for folder in restore.clean_leftovers(settings.DATA):
            log.warning("removed %s, left beside DATA by a restore that was stopped before it finished", folder)
        state.STATE.open(settings.DATA)
        if settings.BACKUP is not None:
            self.scheduler = run.Scheduler().start()

    def stop_runtime(self):
        from .backups import state

        if self.scheduler:
            self.scheduler.stop()
            self.scheduler = None
        state.STATE.close()
