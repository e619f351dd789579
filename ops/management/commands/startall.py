"""Run the reader and the scraper together, each supervised (ops/supervisor.py).

    .venv/bin/python manage.py startall [--bind ADDRESS:PORT]

Needs no configuration beyond `serve`'s: when SCRAPER_TOKEN is unset, a token is made in
DATA/scraper.token (mode 0600) and given to both children. SIGINT/SIGTERM stop both cleanly and
`startall` exits 0. A second `startall` on the same DATA refuses to start.
"""
import os
import signal
import sys
import threading

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from library import demo
from mangacircus import locks, secretkey
from mangacircus.settings import BASE_DIR
from ops import supervisor

TOKEN_FILE = "scraper.token"


def scraper_token():
    """SCRAPER_TOKEN, or else the token in DATA/scraper.token, made there on the first start."""
    return settings.SCRAPER_TOKEN or secretkey.load_or_create(settings.DATA / TOKEN_FILE)


class Command(BaseCommand):
    help = "Run the reader and the scraper, restarting each when it exits (docs/operations.md)."

    def add_arguments(self, parser):
        parser.add_argument("--bind", help="the reader's address:port (default 0.0.0.0:PORT)")

    def handle(self, *args, **options):
        settings.DATA.mkdir(parents=True, exist_ok=True)
        try:
            locks.hold(settings.DATA / supervisor.LOCK_FILE, "MangaCircus startall")
        except locks.LockHeld as e:
            raise CommandError(str(e)) from None
        made = demo.ensure_default()  # here, so that the reader and the scraper find it made
        if made:
            self.stdout.write(made)
        env = {**os.environ, "SCRAPER_TOKEN": scraper_token(), "PYTHONUNBUFFERED": "1"}
        manage = [sys.executable, str(BASE_DIR / "manage.py")]
        serve = manage + ["serve"] + (["--bind", options["bind"]] if options["bind"] else [])
        services = [
            supervisor.Service("reader", serve, env, stop_timeout=30),
            # One page is bounded by SCRAPER_PAGE_DEADLINE; the scraper stops after it.
            supervisor.Service("scraper", manage + ["runscraper"], env,
                               stop_timeout=int(settings.SCRAPER_PAGE_DEADLINE) + 30),
        ]
        sup = supervisor.Supervisor(services, settings.DATA, out=self.stdout)
        stop = threading.Event()

        def on_signal(signum, frame):
            sup.say(f"startall: {signal.Signals(signum).name}, stopping the reader and the scraper...")
            stop.set()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        sup.say(f"startall: supervising the reader and the scraper (data {settings.DATA})")
        sup.start()
        while not stop.wait(0.25):
            sup.tick()
        codes = sup.stop()
        sup.say(f"startall stopped ({', '.join(f'{k} exit {v}' for k, v in codes.items())})")
