from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from mangacircus import db, events, health
        from mangacircus.pages import settings_section

        from . import apikeys, basic, sessions, users

        db.add_validator(users.validate)
        health.register("accounts", lambda: {"lookAlikes": users.look_alikes()})
        events.user_deleted.connect(sessions.end_all)
        events.user_deleted.connect(apikeys.forget_user)
        events.user_deleted.connect(basic.forget_user)

        settings_section("user", "profile", "Profile & password", "mc-settings-profile", order=10)
        settings_section("admin", "users", "Users", "mc-settings-users", order=10)

    def start_runtime(self):
        from . import basic, sessions, setup

        sessions.prune_sessions()
        basic.prune()
        setup.announce()
