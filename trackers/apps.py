from django.apps import AppConfig


class TrackersConfig(AppConfig):
    """Each user's AniList, MyAnimeList and MangaUpdates list kept in step (docs/trackers.md)."""

    name = "trackers"

    def ready(self):
        from mangacircus import events

        from . import sender, store

        events.chapters_finished.connect(sender.on_finished)
        events.user_deleted.connect(store.forget_user)
        events.library_moved.connect(store.on_moved)

    def check_runtime(self):
        from . import store

        store.STATE.check()

    def start_runtime(self):
        from . import sender, store

        store.STATE.open()
        sender.start()

    def stop_runtime(self):
        from . import sender, store

        sender.stop()
        store.STATE.close()
