"""Run the reader and the scraper together, each supervised (ops/supervisor.py), and nginx in
front of the reader when it is installed (ops/nginx.py; NGINX=off leaves it out).

    .venv/bin/python manage.py startall [--bind ADDRESS:PORT]

--bind is the address people open: nginx's when it runs, the reader's otherwise.

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

from library import demo, links
from mangacircus import locks, secretkey
from mangacircus.commands import OWN_CHECKS
from mangacircus.settings import BASE_DIR
from ops import nginx, supervisor

TOKEN_FILE = "scraper.token"


def scraper_token():
    """SCRAPER_TOKEN, or else the token in DATA/scraper.token, made there on the first start."""
    return settings.SCRAPER_TOKEN or secretkey.load_or_create(settings.DATA / TOKEN_FILE)


class Command(BaseCommand):
    help = "Run the reader and the scraper, restarting each when it exits (docs/operations.md)."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("--bind", help="the address:port people open (default 0.0.0.0:PORT)")

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
        bind = options["bind"] or f"0.0.0.0:{settings.PORT}"
        program = nginx.wanted()
        if program:
            links.secret()  # DATA/link-secret.nginx, which the site file includes, before nginx reads it
            conf = nginx.write_config(bind, settings.READER_PORT)
            serve = manage + ["serve", "--bind", f"127.0.0.1:{settings.READER_PORT}"]
            front = [supervisor.Service("nginx", nginx.argv(program, conf), stop_timeout=10)]
            self.stdout.write(f"startall: nginx on http://{bind}/ in front of the reader on "
                              f"127.0.0.1:{settings.READER_PORT} (NGINX=off runs the reader alone)")
        else:
            serve = manage + ["serve", "--bind", bind]
            front = []
            if settings.NGINX != "off":
                self.stdout.write("startall: nginx is not installed; the reader serves page images itself "
                                  "(apt-get install nginx serves them faster, docs/proxy.md)")
        services = [
            supervisor.Service("reader", serve, nginx.reader_env(env) if program else env, stop_timeout=30),
            *front,
            # One page is bounded by SCRAPER_PAGE_DEADLINE; the scraper stops after it.
            supervisor.Service("scraper", manage + ["runscraper"], env,
                               stop_timeout=int(settings.SCRAPER_PAGE_DEADLINE) + 30),
        ]
        if settings.METADATA_PROVIDERS:  # metadata is off, and nothing is sent to a provider, unless asked for
            services.append(supervisor.Service("metadata", manage + ["runmetadata"], env, stop_timeout=90))
        sup = supervisor.Supervisor(services, settings.DATA, out=self.stdout)
        stop = threading.Event()

        def on_signal(signum, frame):
            sup.say(f"startall: {signal.Signals(signum).name}, stopping {', '.join(sup.services)}...")
            stop.set()

        signal.signal(signal.SIGTERM, on_signal)
        signal.signal(signal.SIGINT, on_signal)
        sup.say(f"startall: supervising {', '.join(sup.services)} (data {settings.DATA})")
        sup.start()
        while not stop.wait(0.25):
            sup.tick()
        codes = sup.stop()
        sup.say(f"startall stopped ({', '.join(f'{k} exit {v}' for k, v in codes.items())})")
