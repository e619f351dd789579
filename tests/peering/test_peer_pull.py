"""`manage.py peer pull` queues every manga it can, even when the scraper refuses one of them
(peers/management/commands/peer.py). The peer's list and the daemon's answers stand in for the
other two processes; the e2e tests (test_peering_e2e.py) run the whole path for real."""
import io

import pytest
from django.core.management import CommandError, call_command

from peers.management.commands import peer as command


def test_a_manga_the_scraper_refuses_is_named_and_the_rest_are_still_queued(monkeypatch):
    offered = ["Alpha", "Beta", "Gamma"]
    asked = []

    def actions(action, payload):
        answers = {"peer-get": {"url": "https://alpha.example", "enabled": True}, "peer-remote": {"manga": offered}}
        return answers[action]

    def scraper(method, path, body):
        asked.append(body["series"])
        if body["series"] == "alpha/Beta":
            return 400, {"error": "a peer series id is <peer>/<manga folder>"}
        return 201, {"created": True, "job": {"id": f"j{len(asked)}"}}

    monkeypatch.setattr(command.peer_actions, "run", actions)
    monkeypatch.setattr(command, "_scraper", scraper)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 of 3 manga were not queued: Beta"):
        call_command("peer", "pull", "alpha", stdout=out, stderr=err)
    assert asked == ["alpha/Alpha", "alpha/Beta", "alpha/Gamma"]
    assert "queued: Alpha from alpha" in out.getvalue() and "queued: Gamma from alpha" in out.getvalue()
    assert "the scraper refused Beta" in err.getvalue()
