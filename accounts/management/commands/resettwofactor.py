"""Reset a user's second factor (code app and passkeys), for a lost phone or device: they sign in with
their password alone again and can set up a new one in Settings → Profile (docs/accounts.md,
"Two-factor sign-in" and "Passkeys").

Goes through the running reader, or is done here under the data lock when none runs
(accounts/actions.py, mangacircus/localadmin.py).
"""
from django.core.management.base import BaseCommand, CommandError

from accounts import actions
from mangacircus.commands import OWN_CHECKS
from mangacircus.errors import DomainError
from mangacircus.localadmin import LocalAdminError


class Command(BaseCommand):
    help = "Reset a user's second factor (two-factor sign-in and passkeys), for a lost phone or device."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("name", help="the account, in any case")

    def handle(self, *args, name, **options):
        try:
            done = actions.run_reset_second_factor(name)
        except (DomainError, LocalAdminError) as e:
            raise CommandError(getattr(e, "message", None) or str(e)) from None
        self.stdout.write(f"{done['name']}'s second factor is reset: they sign in with their password alone, and "
                          "can set up a new one in Settings → Profile")
