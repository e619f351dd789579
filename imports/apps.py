from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class ImportsConfig(AppConfig):
    """Bringing reading history over from Komga or a Mihon backup (docs/import.md): `manage.py import` and
    Settings → Admin → Import."""

    name = "imports"

    def ready(self):
        from mangacircus import localadmin
        from mangacircus.pages import settings_section

        from . import actions

        localadmin.register("import", actions.handler)
        settings_section("admin", "import", gettext_lazy("Import"), "mc-admin-import", order=55)
