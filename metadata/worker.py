"""The metadata worker's unit of work, for `runmetadata` (and tests, which call it directly).

The worker never opens the reader's state files: the reader is their only writer. It asks the
running reader for manga to look up and hands each result back, both through the local-admin
channel (mangacircus/localadmin.py: `metadata-next`, `metadata-result`), as the commands do. With
no reader running there is nothing to do, and it waits. It writes only DATA/metadata/ (the
providers' answers, covers, its status file).
"""
import logging
import time

import orjson
from django.conf import settings

from mangacircus import jsonfile, localadmin, locks

from . import lookup, providers
from .client import Client

log = logging.getLogger(__name__)
BATCH = 20


class ReaderChannel:
    """The local-admin actions of the running reader; no reader, no work."""

    def next(self, limit):
        if not locks.is_held(settings.DATA / ".lock"):
            return []
        return localadmin.run("metadata-next", {"limit": limit}, lambda payload: {"items": []})["items"]

    def hand_in(self, result):
        localadmin.run("metadata-result", result, self._no_reader)

    @staticmethod
    def _no_reader(payload):
        raise localadmin.LocalAdminError("the reader stopped; the result is asked for again once it runs")


class Worker:
    def __init__(self, channel=None, client=None, chosen=None, threshold=None):
        self.channel = channel or ReaderChannel()
        self.client = client or Client()
        self.providers = providers.chosen() if chosen is None else chosen
        self.threshold = settings.METADATA_THRESHOLD if threshold is None else threshold
        self.pending = []
        self.status = settings.DATA / "metadata" / "status.json"

    def process_one_job(self):
        """Look up one manga and hand its result to the reader; False when there is nothing to do."""
        if not self.providers:
            return False
        if not self.pending:
            self.pending = list(self.channel.next(BATCH))
        if not self.pending:
            return False
        item = self.pending.pop(0)
        self.beat(item["name"])
        result = lookup.look_up(item, self.providers, self.client, self.threshold)
        for warning in result["warnings"]:
            log.warning("%s: %s", item["name"], warning)
        self.channel.hand_in(result)
        self.beat(None)
        return True

    def beat(self, current):
        """The heartbeat, like the scraper's status.json: when it last worked, and on what."""
        self.status.parent.mkdir(parents=True, exist_ok=True)
        payload = {"updated": int(time.time() * 1000), "manga": current,
                   "providers": [p.key for p in self.providers]}
        jsonfile.write_atomic(self.status, orjson.dumps(payload), mode=0o644)

    def stop(self):
        self.client.stop()
