from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class MetadataConfig(AppConfig):
    name = "metadata"

    def ready(self):
        from catalog import provided
        from mangacircus import backups, events, localadmin
        from mangacircus.pages import settings_section

        from . import matches, providers

        for key, about in providers.describe().items():
            provided.register_provider(key, about["name"], about["attribution"], about["home"])
        settings_section("admin", "metadata", gettext_lazy("Metadata"), "mc-settings-metadata", order=27)
        localadmin.register("metadata-next", matches.next_handler)
        localadmin.register("metadata-result", matches.record)
        backups.register_snapshot(matches.FILE, matches.STATE.snapshot)
        events.library_moved.connect(matches.on_moved)

    def check_runtime(self):
        from . import matches

        matches.STATE.check()

    def start_runtime(self):
        from . import matches

        matches.forget_handed_out()
        matches.STATE.open()

    def stop_runtime(self):
        from . import matches

        matches.STATE.close()
