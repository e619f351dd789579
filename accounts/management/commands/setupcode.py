"""Show the setup code that creates the first account from anywhere but the server itself."""
import orjson
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts import setup
from mangacircus.commands import OWN_CHECKS
from mangacircus.jsonfile import StateFileError, read_capped


def _has_accounts(path):
    """Read db.json without opening it as the server does (that would remove the server's tmp)."""
    try:
        data = orjson.loads(read_capped(path))
    except FileNotFoundError:
        return False
    except (OSError, StateFileError, orjson.JSONDecodeError) as e:
        raise CommandError(f"{path} cannot be read: {e}") from None
    return bool(isinstance(data, dict) and data.get("users"))


class Command(BaseCommand):
    help = "Show the setup code that creates the first (admin) account from a browser elsewhere."
    requires_system_checks = OWN_CHECKS

    def handle(self, *args, **options):
        if _has_accounts(settings.DATA / "db.json"):
            raise CommandError("there is an account already, so there is no setup code: sign in, "
                               "or ask an admin for an account")
        settings.DATA.mkdir(parents=True, exist_ok=True)
        self.stdout.write(setup.ensure())
