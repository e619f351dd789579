from django.apps import AppConfig


class MangaCircusConfig(AppConfig):
    name = "mangacircus"
    verbose_name = "MangaCircus"
    scheduler = None

    def ready(self):
        import os

        from . import backups, db, health, incidents, localadmin
        from .backups import commands, run
        from .pages import settings_section

        # A command can ask whether a reader answers, and which process it is.
        localadmin.register("ping", lambda payload: {"reader": os.getpid()})
        localadmin.register("backup", commands.backup_in_reader)
        backups.register_snapshot("db.json", db.snapshot)
        health.register("backup", run.health)
        settings_section("admin", "health", "Incidents & health", "mc-admin-health", order=40,
                         badge=incidents.open_count)
        settings_section("admin", "backups", "Backups", "mc-admin-backups", order=50)

    def start_runtime(self):
        """In the reader: backup.json, and the backup schedule when BACKUP is set."""
        from django.conf import settings

        from .backups import run, state

        state.open_state(settings.DATA)
        if settings.BACKUP is not None:
            self.scheduler = run.Scheduler().start()

    def stop_runtime(self):
        from .backups import state

        if self.scheduler:
            self.scheduler.stop()
            self.scheduler = None
        state.close_state()
