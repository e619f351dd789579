"""Peers from the command line (docs/peering.md): add, list, share, remove, pull.

Changes go through the running reader, or are made here under the data lock when none runs
(peers/actions.py, mangacircus/localadmin.py). `pull` asks the scraper daemon (SCRAPER_URL,
SCRAPER_TOKEN) to copy what is missing here; the daemon does the transfer.
"""
import http.client
from pathlib import Path
from urllib.parse import urlsplit

import orjson
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from mangacircus.commands import OWN_CHECKS
from mangacircus.errors import DomainError
from mangacircus.localadmin import LocalAdminError
from peers import actions as peer_actions


class Command(BaseCommand):
    help = "Manage peers: servers this one shares manga with and copies manga from (docs/peering.md)."
    requires_system_checks = OWN_CHECKS

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True)
        add = sub.add_parser("add", help="add a peer")
        add.add_argument("name")
        add.add_argument("url")
        add.add_argument("--present-secret-file", required=True, help="file holding the secret this server presents")
        add.add_argument("--accept-secret-file", help="file holding the secret the peer presents (made when left out)")
        sub.add_parser("list", help="list peers")
        share = sub.add_parser("share", help="what a peer may see: none, all, or manga folder names")
        share.add_argument("name")
        share.add_argument("manga", nargs="+")
        remove = sub.add_parser("remove", help="remove a peer (its secret stops working at once)")
        remove.add_argument("name")
        pull = sub.add_parser("pull", help="queue the transfer of what the peer shares and is missing here")
        pull.add_argument("name")
        pull.add_argument("manga", nargs="*")

    def handle(self, *args, what, **options):
        try:
            getattr(self, f"do_{what}")(**options)
        except (DomainError, LocalAdminError) as e:
            raise CommandError(getattr(e, "message", None) or str(e)) from None

    def _secret(self, path, what):
        try:
            return Path(path).read_text().strip()
        except OSError as e:
            raise CommandError(f"cannot read the {what} secret file {path}: {e.strerror}") from None

    def do_add(self, name, url, present_secret_file, accept_secret_file, **_):
        payload = {"name": name, "url": url, "present": self._secret(present_secret_file, "presented")}
        if accept_secret_file:
            payload["accept"] = self._secret(accept_secret_file, "accepted")
        answer = peer_actions.run("peer-add", payload)
        self.stdout.write(f"added peer {name} at {answer['peer']['url']}; it shares nothing yet "
                          f"(`.venv/bin/python manage.py peer share {name} all`, or a list of manga)")
        if not accept_secret_file:
            self.stdout.write(f"the secret {name} must present to this server (shown only now): {answer['accept']}")

    def do_list(self, **_):
        listed = peer_actions.run("peer-list", {})["peers"]
        if not listed:
            self.stdout.write("no peers")
        for peer in listed:
            share = peer["share"] if isinstance(peer["share"], str) else ", ".join(peer["share"])
            state = "enabled" if peer["enabled"] else "disabled"
            self.stdout.write(f"{peer['name']}\t{peer['url']}\t{state}\tshares: {share}")

    def do_share(self, name, manga, **_):
        policy = manga[0] if len(manga) == 1 and manga[0] in ("none", "all") else manga
        peer = peer_actions.run("peer-share", {"name": name, "share": policy})["peer"]
        listed = peer["share"]
        shown = listed if isinstance(listed, str) else f"{len(listed)} manga: " + ", ".join(listed)
        self.stdout.write(f"{name} now sees: {shown}")

    def do_remove(self, name, **_):
        peer_actions.run("peer-remove", {"name": name})
        self.stdout.write(f"removed peer {name}; its secret no longer opens anything here")

    def do_pull(self, name, manga, **_):
        peer_actions.run("peer-get", {"name": name})
        offered = peer_actions.run("peer-remote", {"name": name})["manga"]
        unknown = [m for m in manga if m not in offered]
        if unknown:
            raise CommandError(f"{name} shares no manga named {', '.join(repr(m) for m in unknown)}")
        refused = []
        for title in manga or offered:
            status, data = _scraper("POST", "/jobs", {"kind": "add", "source": "peer", "series": f"{name}/{title}"})
            if status not in (200, 201):
                # One manga the scraper will not take must not keep the rest from being queued.
                refused.append(title)
                self.stderr.write(f"the scraper refused {title}: {data.get('error', status)}")
                continue
            verb = "queued" if data.get("created") else "already queued"
            self.stdout.write(f"{verb}: {title} from {name} (job {data['job']['id']})")
        if not (manga or offered):
            self.stdout.write(f"{name} shares nothing with this server")
        if refused:
            raise CommandError(f"{len(refused)} of {len(manga or offered)} manga were not queued: "
                               + ", ".join(refused))


def _scraper(method, path, body):
    """One call to the scraper daemon's control API (docs/scraper.md)."""
    if not settings.SCRAPER_TOKEN:
        raise CommandError("SCRAPER_TOKEN is not set: the transfer runs in the scraper daemon (runscraper)")
    parts = urlsplit(settings.SCRAPER_URL)
    cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = cls(parts.hostname, parts.port, timeout=30)
    try:
        conn.request(method, (parts.path or "") + path, body=orjson.dumps(body),
                     headers={"Authorization": f"Bearer {settings.SCRAPER_TOKEN}", "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, orjson.loads(response.read(1 << 20) or b"{}")
    except (OSError, http.client.HTTPException, orjson.JSONDecodeError) as e:
        raise CommandError(f"the scraper daemon does not answer at {settings.SCRAPER_URL} ({e}); "
                           "start it with `.venv/bin/python manage.py runscraper`") from None
    finally:
        conn.close()
