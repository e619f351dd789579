"""Restore DATA from a backup archive, with the reader and the scraper stopped (docs/backup.md).

    .venv/bin/python manage.py restore ARCHIVE
"""
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from mangacircus.commands import OWN_CHECKS
from ops.backups.restore import RestoreError, restore


class Command(BaseCommand):
    help = "Restore DATA from a backup archive (the services must be stopped)."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("archive", help="a mangacircus-*.tar.gz made by `manage.py backup`")

    def handle(self, *args, **options):
        try:
            done = restore(options["archive"], settings.DATA)
        except RestoreError as e:
            raise CommandError(str(e)) from None
        for folder in done["cleaned"]:
            self.stdout.write(f"removed {folder}, left by a restore that was stopped before it finished")
        if done["ignored"]:
            self.stdout.write(f"ignored {', '.join(done['ignored'])} in the archive: a backup never holds "
                              "this server's secrets, so they were not restored (new ones are made at start)")
        files = done["manifest"]["files"]
        self.stdout.write(f"verified {options['archive']}: {len(files)} files, made {done['manifest']['created']}")
        if done["moved_aside"]:
            self.stdout.write(f"the data that was in {done['restored']} is now in {done['moved_aside']}")
        self.stdout.write(f"restored {len(files)} files into {done['restored']}; start the services again "
                          "(caches such as the library index are rebuilt by the first scan)")
