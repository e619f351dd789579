"""Run the scraper daemon: one queue worker, one remote request at a time, the private API.

Run under systemd: deploy/mangacircus-scraper.service.

The shape follows healthchecks' sendalerts: `process_one_job()` is the unit (tests call it),
`handle()` loops over it and sleeps in 1-second slices when there is nothing to do, and
SIGINT/SIGTERM set `shutdown` so the worker stops at the next page boundary with its
checkpoint saved. `--once` drains the queue (what can run now) and exits.

A LIBRARY that is missing or read-only does not stop the daemon: it waits for it (daemon.py), so
a supervisor does not see it crash again and again. `--once` refuses at once instead.
"""
import signal
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from mangacircus import locks, secretkey
from mangacircus.commands import OWN_CHECKS
from mangacircus.jsonfile import StateFileError

HEARTBEAT_SECONDS = 5


class Command(BaseCommand):
    help = "Run the MangaCircus scraper daemon (docs/scraper.md)."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="run the jobs that can run now, then exit")
        parser.add_argument("--no-api", action="store_true", help="do not start the private control API")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.shutdown = False
        self.daemon = None

    def open(self):
        """Take the lock and load the queue; CommandError with what to do when that fails."""
        from scraper.daemon import Daemon

        if settings.LIBRARY is None:
            raise CommandError("LIBRARY is not set: the scraper publishes chapters into it")
        try:
            locks.hold(settings.DATA / "scraper" / ".lock", "MangaCircus scraper")
            secretkey.ensure()
            self.daemon = Daemon.from_settings()
        except (locks.LockHeld, StateFileError) as e:
            raise CommandError(str(e)) from None
        self.daemon.start()
        return self.daemon

    def process_one_job(self):
        if self.daemon is None:
            self.open()
        return self.daemon.process_one_job()

    def on_signal(self, signum, frame):
        self.stdout.write(f"{signal.Signals(signum).name}, finishing...")
        self.stdout.flush()
        self.shutdown = True
        if self.daemon:
            self.daemon.stop()

    def handle(self, *args, **options):
        signal.signal(signal.SIGTERM, self.on_signal)
        signal.signal(signal.SIGINT, self.on_signal)
        daemon = self.open()
        api = None
        try:
            if not options["no_api"]:
                api = self.start_api(daemon)
            self.stdout.write("runscraper is now running")
            self.stdout.flush()
            if options["once"]:
                if daemon.library_problem:
                    raise CommandError(f"cannot run now: {daemon.library_problem} "
                                       "(the scraper publishes chapters into it)")
                while self.process_one_job() and not self.shutdown:
                    pass
                return
            last_beat = 0
            while not self.shutdown:
                while self.process_one_job() and not self.shutdown:
                    pass
                daemon.tick()
                if time.monotonic() - last_beat >= HEARTBEAT_SECONDS:
                    daemon.heartbeat()
                    last_beat = time.monotonic()
                for _ in range(10):
                    if self.shutdown or daemon.queue_has_work():
                        break
                    daemon.wake.wait(0.1)
                    daemon.wake.clear()
        finally:
            if api:
                api.stop()
            daemon.close()
            self.stdout.write("runscraper stopped")

    def start_api(self, daemon):
        from scraper.api import ApiServer

        if not settings.SCRAPER_TOKEN:
            self.stderr.write("SCRAPER_TOKEN is not set, so the control API stays off: without a token anyone "
                              "on this host could control the daemon. Set SCRAPER_TOKEN for both the reader "
                              "and the scraper to use the admin screens.")
            return None
        try:
            api = ApiServer(daemon, settings.SCRAPER_URL, settings.SCRAPER_TOKEN).start()
        except OSError as e:
            raise CommandError(f"cannot listen on SCRAPER_URL {settings.SCRAPER_URL}: {e.strerror or e}") from None
        self.stdout.write(f"control API on {settings.SCRAPER_URL}")
        return api
