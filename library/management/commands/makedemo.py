"""Write the demo library (library/demo.py) to a new or empty folder."""
import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from library import demo


class Command(BaseCommand):
    help = "Write a demo library (six manga with every layout the reader knows) to PATH, a new or empty folder."
    # The checks would warn that LIBRARY does not exist yet: this command is what makes it.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("path", help="folder to create; it must not exist or be empty")

    def handle(self, *args, **options):
        path = Path(options["path"]).absolute()
        started = time.monotonic()
        try:
            summary = demo.make_demo(path)
        except demo.TargetNotEmpty as e:
            raise CommandError(f"{e}; nothing was written") from None
        except OSError as e:
            raise CommandError(f"could not write the demo library: {e}") from None
        seconds = time.monotonic() - started
        for manga in summary:
            books = f"{manga['books']} book{'s' if manga['books'] > 1 else ''}, " if manga["books"] else ""
            self.stdout.write(f"  {manga['folder']}: {manga['direction']}, {books}"
                              f"{manga['versions']} chapter folders, {manga['pages']} pages")
        pages = sum(manga["pages"] for manga in summary)
        megabytes = demo.tree_size(path) / 1e6
        self.stdout.write(f"Made a demo library in {path}: {len(summary)} manga, {pages} pages, "
                          f"{megabytes:.1f} MB in {seconds:.1f} s")
        self.stdout.write(f"Read it with: LIBRARY='{path}' .venv/bin/python manage.py serve")
