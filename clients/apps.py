from django.apps import AppConfig


class ClientsConfig(AppConfig):
    """What reading apps call: the Komga-compatible API, OPDS, CBZ downloads, and the Apps screens."""

    name = "clients"

    def ready(self):
        from mangacircus.pages import settings_section

        settings_section("user", "apps", "Apps", "mc-settings-apps", order=50)
        settings_section("admin", "apps", "Apps & downloads", "mc-settings-admin-apps", order=40)
