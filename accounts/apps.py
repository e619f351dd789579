from django.apps import AppConfig
from django.utils.translation import gettext_lazy


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from mangacircus import db, events, health, localadmin
        from mangacircus.pages import settings_section

        from . import actions, apikeys, basic, passkeys, sessions, totp, users

        db.add_validator(users.validate)
        db.add_validator(totp.validate)
        db.add_validator(passkeys.validate)
        health.register("accounts", lambda: {"lookAlikes": users.look_alikes()})
        events.user_deleted.connect(sessions.end_all)
        events.user_deleted.connect(apikeys.forget_user)
        events.user_deleted.connect(basic.forget_user)
        events.user_deleted.connect(totp.forget_user)
        events.user_deleted.connect(passkeys.forget_user)
        localadmin.register("twofactor-reset", actions.reset_second_factor)

        settings_section("user", "profile", gettext_lazy("Profile & password"), "mc-settings-profile", order=10)
        settings_section("admin", "users", gettext_lazy("Users"), "mc-settings-users", order=10)

    def start_runtime(self):
        from . import basic, sessions, setup

        sessions.prune_sessions()
        basic.prune()
        setup.announce()
