"""`manage.py catalog export-research [--manga NAME …] FILE` and `manage.py catalog import-proposals FILE`
(docs/catalog.md). Both go through the running reader when there is one (data/ has one writer)."""
import json

from django.core.management.base import BaseCommand, CommandError

from catalog import research
from mangacircus import localadmin
from mangacircus.commands import OWN_CHECKS
from mangacircus.errors import DomainError
from mangacircus.jsonfile import StateFileError, read_capped, write_atomic


class Command(BaseCommand):
    help = "Export the research work list, or import research proposals for the curators to review."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        export = sub.add_parser("export-research", help="write the work list (JSON) to FILE")
        export.add_argument("--manga", action="append", default=[], metavar="NAME",
                            help="only this manga (repeat for more); default: every manga")
        export.add_argument("file")
        imp = sub.add_parser("import-proposals", help="store the proposals in FILE as open proposals")
        imp.add_argument("file")

    def handle(self, *args, action, file, **options):
        try:
            if action == "export-research":
                self.export(file, options["manga"])
            else:
                self.import_(file)
        except (localadmin.LocalAdminError, StateFileError, DomainError) as e:
            raise CommandError(str(e)) from None

    def export(self, file, names):
        result = localadmin.run("catalog-export", {"manga": names}, research.offline_export)
        try:
            write_atomic(file, json.dumps(result, ensure_ascii=False, indent=1).encode(), mode=0o644)
        except OSError as e:
            raise CommandError(f"cannot write {file}: {e.strerror or e}") from None
        self.stdout.write(f"Wrote the work list of {len(result['manga'])} manga to {file}.")

    def import_(self, file):
        try:
            batch = json.loads(read_capped(file))
        except OSError as e:
            raise CommandError(f"cannot read {file}: {e.strerror or e}") from None
        except ValueError as e:
            raise CommandError(f"{file} is not valid JSON: {e}") from None
        result = localadmin.run("catalog-import", {"batch": batch}, research.offline_import)
        if result.get("errors"):
            lines = [f"  item {e['index']}{' ' + e['field'] if e['field'] else ''}: {e['reason']}"
                     for e in result["errors"]]
            raise CommandError("\n".join([f"{file}: {result['error']}", *lines]))
        self.stdout.write(f"Stored {len(result['stored'])} proposal(s) for review in Settings → Admin → Catalog.")
        for dup in result["duplicates"]:
            self.stdout.write(f"  item {dup['index']} skipped: {dup['reason']}")
