from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from mangacircus.pages import settings_section

        from . import apikeys, sessions, users  # noqa: F401  (they register their db.json validators and hooks)

        settings_section("user", "profile", "Profile & password", "mc-settings-profile", order=10)
        settings_section("admin", "users", "Users", "mc-settings-users", order=10)

    def start_runtime(self):
        from . import sessions, setup

        sessions.prune_sessions()
        setup.announce()
