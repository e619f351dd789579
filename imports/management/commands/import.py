"""`manage.py import komga --db PATH | --url URL --login E-MAIL [--user THERE=HERE …] [--apply]`,
`manage.py import kavita --db PATH | --url URL [--user THERE=HERE …] [--apply]` and
`manage.py import mihon --backup PATH --into NAME [--apply]` (docs/import.md): the dry run,
or with --apply the import, through the running reader when there is one (data/ has one writer)."""
import getpass
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from imports import actions, report
from mangacircus import localadmin
from mangacircus.commands import OWN_CHECKS
from mangacircus.errors import DomainError


class Command(BaseCommand):
    help = "Show what importing another server's reading history would do, then do it with --apply."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="source", required=True)
        komga = sub.add_parser("komga", help="a Komga server's database.sqlite (read, never written)")
        where = komga.add_mutually_exclusive_group(required=True)
        where.add_argument("--db", metavar="PATH", help="Komga's database.sqlite")
        where.add_argument("--url", metavar="URL", help="a running Komga server, read through its REST API as "
                           "--login (its password from KOMGA_PASSWORD, else asked)")
        komga.add_argument("--login", metavar="E-MAIL", help="with --url: the Komga user to sign in as")
        kavita = sub.add_parser("kavita", help="a Kavita server's kavita.db (read, never written), or a running "
                                "Kavita")
        where = kavita.add_mutually_exclusive_group(required=True)
        where.add_argument("--db", metavar="PATH", help="Kavita's kavita.db")
        where.add_argument("--url", metavar="URL", help="a running Kavita server, read through its REST API with a "
                           "user's API key (from KAVITA_API_KEY, else asked)")
        tachi = sub.add_parser("mihon", help="a Mihon or Tachiyomi backup (.tachibk, .proto.gz)")
        tachi.add_argument("--backup", required=True, metavar="PATH", help="the backup file")
        tachi.add_argument("--into", required=True, metavar="NAME",
                           help="the account it goes into (made when there is none)")
        for p, there in ((komga, "e-mail"), (kavita, "user name"), (tachi, "e-mail")):
            p.add_argument("--user", action="append", default=[], metavar="THERE=HERE",
                           help=f"import the user THERE ({there}) into the account HERE (repeat for more)")
            p.add_argument("--apply", action="store_true", help="import (after a backup); without it: a dry run")

    def handle(self, *args, source, **options):
        names = {}
        for pair in options["user"]:
            there, sep, here = pair.partition("=")
            if not sep or not there or not here:
                raise CommandError(f"--user {pair}: write it as THERE=HERE, e.g. alice@example.org=alice")
            names[there] = here
        payload = {"source": source, "path": options.get("db") or options.get("backup"), "names": names,
                   "into": options.get("into"), "apply": options["apply"]}
        if options.get("url") and source == "kavita":
            key = os.environ.get("KAVITA_API_KEY") or (getpass.getpass("Kavita API key: ") if sys.stdin.isatty()
                                                       else "")
            if not key:
                raise CommandError("give the Kavita user's API key in KAVITA_API_KEY (or run this on a terminal to be "
                                   "asked)")
            payload.update(url=options["url"], apiKey=key)
        elif options.get("url"):
            if not options.get("login"):
                raise CommandError("--url needs --login: the Komga user (e-mail) to sign in as")
            password = os.environ.get("KOMGA_PASSWORD") or (getpass.getpass(f"Komga password of {options['login']}: ")
                                                           if sys.stdin.isatty() else "")
            if not password:
                raise CommandError("give the Komga password in KOMGA_PASSWORD (or run this on a terminal to be asked)")
            payload.update(url=options["url"], login=options["login"], password=password)
        try:
            result = actions.through_reader(payload)
        except (localadmin.LocalAdminError, DomainError) as e:
            raise CommandError(str(e)) from None
        if options["apply"]:
            self.stdout.write(report.applied(result))
        else:
            self.stdout.write(report.plan(result))
