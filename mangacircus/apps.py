from django.apps import AppConfig


class MangaCircusConfig(AppConfig):
    name = "mangacircus"
    verbose_name = "MangaCircus"

    def ready(self):
        import logging
        import os

        from django.conf import settings

        from . import backups, db, languages, localadmin

        if not settings.LANGUAGE_KNOWN:
            logging.getLogger("mangacircus").warning(
                "LANGUAGE=%r names no offered language (%s); the UI's default is English",
                settings.LANGUAGE_GIVEN, ", ".join(languages.OFFERED))

        # A command can ask whether a reader answers, and which process it is.
        localadmin.register("ping", lambda payload: {"reader": os.getpid()})
        backups.register_snapshot("db.json", db.snapshot)
