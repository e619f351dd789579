"""The first account: from a browser on the server itself, or with the setup code from the server's
log or `manage.py setupcode` (docs/accounts.md). In process, so requests can come from anywhere."""
import io
import ipaddress
import json
import logging
import stat

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from mangacircus import runtime
from tests.conftest import PASSWORD

AFAR = {"REMOTE_ADDR": "203.0.113.5", "HTTP_HOST": "manga.example.org"}
HERE = {"REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "localhost:8080"}


def signup(where, **fields):
    body = {"name": "admin", "password": PASSWORD, **fields}
    response = Client(**where).post("/api/signup", body, content_type="application/json")
    return response.status_code, response.json()


def first_run(where):
    return Client(**where).get("/api/auth").json()["firstRun"]


def test_it_needs_the_setup_code_for_a_first_sign_up_from_afar(start, data_dir):
    start()
    code_file = data_dir / "setup-code"
    assert stat.S_IMODE(code_file.stat().st_mode) == 0o600
    status, data = signup(AFAR)
    assert status == 403 and "setup code" in data["error"]
    assert signup(AFAR, setupCode="WRONG-CODE-0000")[0] == 403
    assert first_run(AFAR)
    status, data = signup(AFAR, setupCode=code_file.read_text().strip().lower())
    assert (status, data) == (200, {"name": "admin", "admin": True})
    assert not code_file.exists()


def test_it_needs_no_code_from_a_browser_on_the_server_itself(start, data_dir):
    start()
    for host in ("localhost", "127.0.0.1:8080", "[::1]:8080"):
        assert Client(**{**HERE, "HTTP_HOST": host}).get("/login/").content.count(b'name="setupCode"') == 0
    assert signup(HERE) == (200, {"name": "admin", "admin": True})
    assert not (data_dir / "setup-code").exists()


@pytest.mark.parametrize("where", [
    {**HERE, "HTTP_HOST": "rebound.example:8080"},  # a DNS-rebinding page in the server's own browser
    {**HERE, "HTTP_X_FORWARDED_FOR": "203.0.113.5"},  # a proxy on the machine that is not TRUSTED_PROXIES
    {**HERE, "REMOTE_ADDR": "192.168.1.20"},
], ids=["rebinding", "untrusted-proxy", "lan"])
def test_it_counts_only_loopback_with_a_loopback_host_name_as_the_server_itself(start, where):
    start()
    assert signup(where)[0] == 403
    assert first_run(HERE)


def test_it_takes_the_address_behind_a_trusted_proxy(start, settings):
    settings.TRUSTED_PROXIES = [ipaddress.ip_network("127.0.0.1")]
    start()
    assert signup({**HERE, "HTTP_X_FORWARDED_FOR": "203.0.113.5"})[0] == 403
    assert signup({**HERE, "HTTP_X_FORWARDED_FOR": "127.0.0.1"})[0] == 200


def test_it_asks_for_the_setup_code_on_the_first_run_form_from_afar(start, data_dir):
    start()
    browser = Client(**AFAR)
    page = browser.get("/login/")
    assert b'name="setupCode"' in page.content and b"manage.py setupcode" in page.content
    form = {"action": "signup", "name": "admin", "password": PASSWORD, "password2": PASSWORD}
    refused = browser.post("/signup/", form)
    assert refused.status_code == 403 and b"setup code" in refused.content
    code = (data_dir / "setup-code").read_text()
    assert browser.post("/signup/", {**form, "setupCode": f" {code} "}).status_code == 302
    assert browser.get("/api/me").json()["admin"] is True


def test_it_logs_the_code_and_shows_it_with_the_setupcode_command(start, data_dir, caplog):
    with caplog.at_level(logging.WARNING):
        start()
    code = (data_dir / "setup-code").read_text().strip()
    assert code in caplog.text and "setupcode" in caplog.text
    out = io.StringIO()
    call_command("setupcode", stdout=out)
    assert out.getvalue().strip() == code
    assert signup(AFAR, setupCode=code)[0] == 200
    with pytest.raises(CommandError, match="already"):
        call_command("setupcode", stdout=io.StringIO())
    runtime.stop()
    caplog.clear()
    start()
    assert not (data_dir / "setup-code").exists() and code not in caplog.text


def test_the_setupcode_command_makes_the_code_before_the_first_start(settings, data_dir):
    settings.DATA = data_dir
    out = io.StringIO()
    call_command("setupcode", stdout=out)
    assert out.getvalue().strip() == (data_dir / "setup-code").read_text().strip()
    (data_dir / "db.json").write_text(json.dumps({"users": {"admin": {"name": "admin", "hash": "x"}}}))
    with pytest.raises(CommandError, match="already"):
        call_command("setupcode", stdout=io.StringIO())
