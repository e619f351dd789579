"""Run the reader under gunicorn: one worker process with threads, the single writer of DATA.

The worker is gunicorn's gthread worker reading whole requests, head and body, in its loop, so a slow
client does not hold a request thread (mangacircus/gworker.py). Run under systemd: deploy/mangacircus-web.service.
"""
import logging
import os
import resource
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.urls import get_resolver

from library import demo
from mangacircus import jsonfile, localadmin, locks, runtime, secretkey
from mangacircus.commands import OWN_CHECKS
from mangacircus.jsonfile import StateFileError

# Open connections at once (gunicorn's worker_connections, its default): those being served, kept
# alive, or still sending their request. More wait in the listen backlog.
MAX_CONNECTIONS = 1000
# File descriptors kept for the rest of the process: the files being sent, state files, logs, pipes.
SPARE_FILES = 256


class Command(BaseCommand):
    help = "Run the MangaCircus reader (gunicorn, one worker process, threads)."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        parser.add_argument("--bind", help="address:port to listen on (default 0.0.0.0:PORT)")
        parser.add_argument("--threads", type=int, default=8, help="request threads (default 8)")
        parser.add_argument("--workers", type=int, default=1, help="must be 1: the reader is the single writer of DATA")
        parser.add_argument("--no-collectstatic", action="store_true", help="skip collecting static files")

    def handle(self, *args, **options):
        if options["workers"] != 1:
            raise CommandError("--workers must be 1: the reader is the single writer of DATA; use --threads")
        if not 1 <= options["threads"] <= 64:
            raise CommandError("--threads must be from 1 to 64")
        try:
            settings.DATA.mkdir(parents=True, exist_ok=True)
            locks.hold(settings.DATA / ".lock", "MangaCircus reader")
            secretkey.ensure()
            runtime.check()
        except (locks.LockHeld, StateFileError) as e:
            raise CommandError(str(e)) from None
        made = demo.ensure_default()
        if made:
            self.stdout.write(made)
        if not options["no_collectstatic"]:
            call_command("collectstatic", interactive=False, verbosity=0)
        bind = options["bind"] or f"0.0.0.0:{settings.PORT}"
        localadmin.publish_address(bind)
        self.stdout.write(f"MangaCircus reader on http://{bind}/ (data {settings.DATA}, library {settings.LIBRARY})")
        self.stdout.flush()
        connections = connection_limit()
        get_resolver().url_patterns  # noqa: B018 (every view imported here, before gunicorn forks its worker)
        try:
            ReaderServer({"bind": bind, "threads": options["threads"], "connections": connections}).run()
        except SystemExit as stop:
            exit_at_once(stop.code)


def exit_at_once(code):
    """End this process (gunicorn's master, or its worker, whose stack this is too) without tearing
    down the interpreter.

    gunicorn ends both with SystemExit once they have stopped: the worker after its worker_exit
    hook has stopped the runtime, flushing and closing every state file. What Python would still
    do, freeing every module and object, took 0.2-0.4 s a process and saves nothing."""
    if isinstance(code, str):
        print(code, file=sys.stderr)
    jsonfile.flush_all()  # what atexit would have done (nothing is open after a clean stop)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code if isinstance(code, int) else (0 if code is None else 1))


def connection_limit():
    """MAX_CONNECTIONS, once the limit on open files allows it (raised up to the hard limit if
    needed); fewer if the hard limit is lower. Running out of descriptors would stop the worker."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = MAX_CONNECTIONS + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < want:
        raised = want if hard == resource.RLIM_INFINITY else min(want, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(16, min(MAX_CONNECTIONS, soft - SPARE_FILES))


def _worker_exit(server, worker):
    runtime.stop()


def _worker_int(worker):
    runtime.stop()


class ReaderServer:
    """A gunicorn application object built here so the master is this process (it holds the lock)."""

    def __new__(cls, options):
        from gunicorn.app.base import BaseApplication

        from mangacircus.gworker import WholeRequestWorker
        from mangacircus.http import MAX_BODY

        WholeRequestWorker.request_timeout = settings.HEADER_TIMEOUT  # head and body
        WholeRequestWorker.max_body = MAX_BODY

        class _App(BaseApplication):
            def load_config(self):
                self.cfg.set("bind", [options["bind"]])
                self.cfg.set("workers", 1)
                # gthread, but a thread gets a connection only once its whole request is in.
                self.cfg.set("worker_class", "mangacircus.gworker.WholeRequestWorker")
                self.cfg.set("threads", options["threads"])
                self.cfg.set("worker_connections", options["connections"])
                self.cfg.set("graceful_timeout", 10)
                self.cfg.set("timeout", 60)
                # No request-line limit of gunicorn's (4 KB, answered with a bare text page): the
                # app answers an address over 8 KB itself (mangacircus/middleware.py LongUrlMiddleware).
                self.cfg.set("limit_request_line", 0)
                self.cfg.set("accesslog", "-" if settings.ACCESS_LOG else None)
                self.cfg.set("logger_class", "mangacircus.accesslog.AccessLogger")  # no OpenID codes
                self.cfg.set("worker_exit", _worker_exit)
                self.cfg.set("worker_int", _worker_int)
                self.cfg.set("proc_name", "mangacircus-reader")
                # The control socket could add workers at run time; the reader must stay single.
                self.cfg.set("control_socket_disable", True)
                # Forwarded headers (X-Forwarded-Proto, SCRIPT_NAME) only from TRUSTED_PROXIES.
                self.cfg.set("forwarded_allow_ips", ",".join(str(n) for n in settings.TRUSTED_PROXIES))

            def load(self):
                from mangacircus.wsgi import application

                return application

        return _App()


if __name__ == "__main__":
    sys.exit("use: .venv/bin/python manage.py serve")
