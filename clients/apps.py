from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class ClientsConfig(AppConfig):
    """What reading apps call: the Komga-compatible API, OPDS, CBZ downloads, and the Apps screens."""

    name = "clients"

    def ready(self):
        from mangacircus import events
        from mangacircus.pages import settings_section

        from .komga import ids

        events.library_moved.connect(ids.forget)

        settings_section("user", "apps", gettext_lazy("Apps"), "mc-settings-apps", order=50)
        settings_section("admin", "apps", gettext_lazy("Apps & downloads"), "mc-settings-admin-apps", order=40)

    def start_runtime(self):
        from .komga import ids

        ids.forget()  # the ids of another DATA (tests start several in one process)
