from django.apps import AppConfig
from django.conf import settings
from django.core import checks
from django.utils.translation import gettext_lazy


class ReaderConfig(AppConfig):
    """Reading a chapter, and what each user keeps: progress, the reading clock, votes, notes, follows."""

    name = "reader"

    def ready(self):
        from library import guard
        from mangacircus import db, events
        from mangacircus.pages import settings_section

        from . import (
            access,
            announce,
            collections,
            dismissals,
            markers,
            notes,
            progress,
            push_devices,
            ratings,
            readlists,
            social,
            votes,
            wanttoread,
        )

        for owner in (access, collections, readlists, ratings, wanttoread, push_devices):
            db.add_validator(owner.validate)
        guard.register(access.can_see, limited=access.restricted)  # for /lib/ and the thumbnails
        for owner in (access, progress, votes, notes, social, dismissals, collections, readlists, ratings,
                      wanttoread, push_devices):
            events.user_deleted.connect(owner.forget_user)
        events.library_moved.connect(_moved_in_db)
        events.scan_finished.connect(access.on_scan)
        events.scan_finished.connect(announce.on_scan)
        events.read_markers.connect(markers.on_read_markers)

        settings_section("user", "reading", gettext_lazy("Reading"), "mc-settings-reading", order=20)
        settings_section("user", "notifications", gettext_lazy("Notifications"), "mc-settings-notifications", order=30)
        settings_section("user", "clock", gettext_lazy("Reading clock"), "mc-settings-clock", order=40)
        settings_section("user", "offline", gettext_lazy("Offline"), "mc-settings-offline", order=45)

    def start_runtime(self):
        from . import webhooks, webpush

        webhooks.start()
        webpush.start()

    def stop_runtime(self):
        from . import webhooks, webpush

        webhooks.stop()
        webpush.stop()


def _moved_in_db(moves):
    """events.library_moved: every db.json section this app owns follows, under one db.lock(), so
    the move is one change on disk."""
    from mangacircus import db

    from . import (
        access,
        announce,
        collections,
        dismissals,
        notes,
        progress,
        ratings,
        reading_clock,
        readlists,
        social,
        votes,
        wanttoread,
    )

    if not db.is_open():  # a scan outside the reader (bench, scan command): nothing to carry
        return
    with db.lock():
        for owner in (access, progress, reading_clock, votes, notes, social, dismissals, announce, collections,
                      readlists, ratings, wanttoread):
            owner.on_moved(moves)
        db.touch()


@checks.register("mangacircus")
def data_dir_writable(app_configs, **kwargs):
    import os

    data = settings.DATA
    parent = data if data.exists() else data.parent
    if not os.access(parent, os.W_OK):
        return [checks.Error(f"DATA ({data}) is not writable by this user", id="reader.E001")]
    return []
