"""The local admin channel: a command changes data/ through the running reader, or itself when none runs."""
import fcntl
import json
import os
import urllib.error
import urllib.request

import pytest

from mangacircus import localadmin


def _lock_is_free(data):
    with open(data / ".lock", "a+") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(f, fcntl.LOCK_UN)
        return True


def test_a_command_does_the_action_itself_while_no_reader_runs(settings, data_dir):
    settings.DATA = data_dir
    seen = []

    def offline(payload):
        seen.append((payload, _lock_is_free(data_dir)))
        return {"done": "here"}

    assert localadmin.run("ping", {"n": 1}, offline) == {"done": "here"}
    assert seen == [({"n": 1}, False)]  # it held the lock: no reader could start meanwhile
    assert _lock_is_free(data_dir)  # and let it go


def _post(server, action, token, body=b"{}"):
    request = urllib.request.Request(
        f"{server.url}/api/local/{action}", data=body, method="POST",
        headers={"Content-Type": "application/json", **({localadmin.TOKEN_HEADER: token} if token else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_command_hands_the_action_to_the_running_reader(real_server, settings):
    settings.DATA = real_server.data

    def offline(payload):
        raise AssertionError("a second writer while the reader runs")

    answer = localadmin.run("ping", {}, offline)
    worker = answer["reader"]
    with open(f"/proc/{worker}/stat") as f:
        parent = int(f.read().rsplit(")", 1)[1].split()[1])
    assert parent == real_server.proc.pid  # the reader's worker did it, not this process
    with pytest.raises(localadmin.LocalAdminError, match="no local action 'nothing'"):
        localadmin.run("nothing", {}, offline)
    assert not _lock_is_free(real_server.data)


def test_the_route_wants_the_token_and_nothing_else(real_server, settings):
    settings.DATA = real_server.data
    token = (real_server.data / localadmin.TOKEN_FILE).read_text()
    assert oct(os.stat(real_server.data / localadmin.TOKEN_FILE).st_mode & 0o777) == "0o600"
    assert _post(real_server, "ping", token)[0] == 200
    assert _post(real_server, "ping", None) == (401, {"error": "this route is for commands run on the server itself"})
    assert _post(real_server, "ping", token[:-1] + ("x" if token[-1] != "x" else "y"))[0] == 401
    assert _post(real_server, "ping", token, b"[1]") == (400, {"error": "request body must be a JSON object"})


def test_a_reader_that_holds_the_lock_but_does_not_answer_is_named(settings, data_dir):
    settings.DATA = data_dir
    localadmin.publish_address("127.0.0.1:9")  # discard: nothing listens there
    with open(data_dir / ".lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(localadmin.LocalAdminError, match="holds the data lock but does not answer at http://127.0.0.1:9"):
            localadmin.run("ping", {}, lambda payload: {})
