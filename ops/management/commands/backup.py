"""Back up DATA into BACKUP now, or verify an archive (docs/backup.md).

    .venv/bin/python manage.py backup
    .venv/bin/python manage.py backup --verify ARCHIVE

While a reader runs, the backup is made by the reader (it holds db.json in memory); otherwise
here, under the data lock. Exit status 1 with the reason when the run or the verification fails.
"""
from django.core.management.base import BaseCommand, CommandError

from mangacircus import localadmin
from mangacircus.commands import OWN_CHECKS
from mangacircus.errors import DomainError
from ops.backups import archive, commands


class Command(BaseCommand):
    help = "Back up DATA into BACKUP now, or verify an archive with --verify ARCHIVE."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("--verify", metavar="ARCHIVE", help="read every member back against the manifest")

    def handle(self, *args, **options):
        if options["verify"]:
            try:
                manifest = archive.read(options["verify"])
            except archive.ArchiveError as e:
                raise CommandError(f"{options['verify']}: NOT verified: {e}") from None
            total = sum(f["size"] for f in manifest["files"].values())
            self.stdout.write(f"{options['verify']}: verified, {len(manifest['files'])} files, {total:,} bytes "
                              f"(made {manifest['created']})")
            return
        try:
            result = commands.backup()
        except (DomainError, localadmin.LocalAdminError) as e:
            raise CommandError(getattr(e, "message", None) or str(e)) from None
        if not result.get("ok"):
            raise CommandError(f"the backup failed: {result.get('error')}")
        removed = result.get("removed") or []
        pruned = f"; retention removed {', '.join(removed)}" if removed else ""
        self.stdout.write(f"backup written and verified: {result['archive']} ({result['size']:,} bytes, "
                          f"{result['files']} files){pruned}")
