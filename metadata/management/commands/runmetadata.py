"""Run the metadata worker: manga of the library looked up at the providers of METADATA_PROVIDERS.

Run as a service of `startall` (it starts one when METADATA_PROVIDERS is set) or under a supervisor of your own.

Shaped like runscraper (healthchecks' sendalerts): `process_one_job()` is the unit, `handle()`
loops over it and sleeps in 1-second slices when there is nothing to do, SIGINT/SIGTERM set
`shutdown` and interrupt a wait for a provider's pace or Retry-After. `--once` looks up what is
due now and exits. Results go to the running reader (metadata/worker.py); DATA/metadata/.lock
keeps a second worker off the same data.
"""
import signal
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from mangacircus import localadmin, locks
from mangacircus.commands import OWN_CHECKS
from scraper.errors import Interrupted

IDLE_SECONDS = 60  # between two questions to the reader when nothing was due


class Command(BaseCommand):
    help = "Look manga up at the metadata providers (docs/metadata.md)."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="look up what is due now, then exit")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.shutdown = False
        self.worker = None

    def open(self):
        from metadata.worker import Worker

        if not settings.METADATA_PROVIDERS:
            raise CommandError("METADATA_PROVIDERS is empty: set it (anilist,mangaupdates,mangadex) to choose "
                               "the providers manga are looked up at (docs/metadata.md)")
        try:
            locks.hold(settings.DATA / "metadata" / ".lock", "MangaCircus metadata worker")
        except locks.LockHeld as e:
            raise CommandError(str(e)) from None
        self.worker = Worker()
        return self.worker

    def process_one_job(self):
        if self.worker is None:
            self.open()
        try:
            return self.worker.process_one_job()
        except localadmin.LocalAdminError as e:
            self.stderr.write(f"the reader did not take the work: {e}")
            return False

    def on_signal(self, signum, frame):
        self.stdout.write(f"{signal.Signals(signum).name}, finishing...")
        self.stdout.flush()
        self.shutdown = True
        if self.worker:
            self.worker.stop()

    def handle(self, *args, **options):
        signal.signal(signal.SIGTERM, self.on_signal)
        signal.signal(signal.SIGINT, self.on_signal)
        self.open()
        self.stdout.write("runmetadata is now running")
        self.stdout.flush()
        try:
            while not self.shutdown:
                while self.process_one_job() and not self.shutdown:
                    pass
                if options["once"]:
                    return
                for _ in range(IDLE_SECONDS):
                    if self.shutdown:
                        break
                    time.sleep(1)
        except Interrupted:
            pass
