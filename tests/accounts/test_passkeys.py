"""Passkeys (docs/accounts.md, "Passkeys"): registered in Settings → Profile, then signing in alone or
after the password. A software authenticator (tests/support/passkey_authenticator.py) answers the
server's options, so every answer goes through py_webauthn's real checks."""
import io

import pytest
from django.core.management import CommandError, call_command

from accounts import passkeys
from tests.conftest import PASSWORD
from tests.reader.komga.apps import basic
from tests.support.forms import post_form
from tests.support.passkey_authenticator import SoftAuthenticator, b64url

PROFILE = "/settings/user/profile/"


def register(server, client, label="Phone"):
    device = SoftAuthenticator(server.url)
    status, _, begun = client.post("/api/passkeys/register/begin", {})
    assert status == 200, begun
    options = begun["options"]
    assert options["rp"]["id"] == "127.0.0.1" and options["authenticatorSelection"]["residentKey"] == "required"
    answer = device.create(options)
    status, _, data = client.post("/api/passkeys/register/finish", {"name": label, "credential": answer})
    assert (status, data) == (200, {"ok": True})
    return device


def sign_in(client, device, ticket=None, **answer):
    body = {"ticket": ticket} if ticket else {}
    status, _, begun = client.post("/api/passkeys/login/begin", body)
    assert status == 200, begun
    return client.post("/api/passkeys/login/finish", {**body, "credential": device.get(begun["options"], **answer)})


def test_it_registers_a_passkey_and_lists_it_with_its_date(server, reader_user):
    register(server, reader_user, label="Work <laptop>")
    html = reader_user.get(PROFILE)[2].decode()
    assert "Work &lt;laptop&gt;" in html and "added 20" in html and "Passkey added" in html
    assert [k["name"] for k in passkeys.listed("reader")] == ["Work <laptop>"]


def test_it_signs_in_with_a_passkey_alone(server, reader_user):
    device = register(server, reader_user)
    client = server.client()
    status, _, begun = client.post("/api/passkeys/login/begin", {})
    assert begun["options"]["userVerification"] == "required" and begun["options"]["allowCredentials"] == []
    status, _, data = client.post("/api/passkeys/login/finish",
                                  {"credential": device.get(begun["options"]), "next": "/history/"})
    assert (status, data) == (200, {"next": "/history/"})
    assert client.get("/api/me")[2]["name"] == "reader"
    assert passkeys.listed("reader")[0]["used"]


def test_alone_it_needs_user_verification(server, reader_user):
    device = register(server, reader_user)
    client = server.client()
    status, _, data = sign_in(client, device, verified=False)
    assert status == 401 and "verif" in data["error"] and client.get("/api/me")[0] == 401


def test_it_asks_for_the_passkey_after_the_password(server, reader_user):
    device = register(server, reader_user)
    client = server.client()
    status, _, data = client.post("/api/login", {"name": "reader", "password": PASSWORD})
    assert status == 401 and data["factors"] == {"code": False, "passkey": True} and "passkey" in data["error"]
    assert client.get("/api/me")[0] == 401
    begun = client.post("/api/passkeys/login/begin", {"ticket": data["ticket"]})[2]
    assert [c["id"] for c in begun["options"]["allowCredentials"]] == [device.id]
    answer = device.get(begun["options"])
    assert client.post("/api/passkeys/login/finish", {"ticket": data["ticket"], "credential": answer})[0] == 200
    assert client.get("/api/me")[0] == 200


def test_a_code_does_not_stand_for_the_passkey(server, reader_user):
    register(server, reader_user)
    ticket = server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[2]["ticket"]
    status, _, data = server.client().post("/api/login/code", {"ticket": ticket, "code": "123456"})
    assert status == 401 and "passkey" in data["error"]


def test_the_code_step_page_offers_the_passkey(server, reader_user):
    register(server, reader_user)
    status, _, body = post_form(server.client(), "/login/", {"name": "reader", "password": PASSWORD})
    html = body.decode()
    assert status == 200 and "Use a passkey" in html and 'name="code"' not in html and "js/passkeys" in html


def test_it_refuses_a_wrong_challenge_a_wrong_origin_and_an_unknown_passkey(server, reader_user):
    device = register(server, reader_user)
    client = server.client()
    assert sign_in(client, device, challenge=b64url(b"x" * 32))[0] == 401
    status, _, data = sign_in(client, device, origin="http://evil.example")
    assert status == 401 and "origin" in data["error"]
    stranger = SoftAuthenticator(server.url)
    status, _, data = sign_in(client, stranger)
    assert status == 401 and "not registered" in data["error"]
    assert client.get("/api/me")[0] == 401


def test_it_refuses_a_counter_that_did_not_grow_and_keeps_the_new_one(server, reader_user):
    device = register(server, reader_user)
    assert sign_in(server.client(), device, count=5)[0] == 200
    client = server.client()
    status, _, data = sign_in(client, device, count=5)
    assert status == 401 and "sign count" in data["error"] and client.get("/api/me")[0] == 401
    assert sign_in(server.client(), device, count=6)[0] == 200


def test_a_replayed_answer_with_its_own_state_is_refused(server, reader_user):
    device = register(server, reader_user)
    client = server.client()
    begun = client.post("/api/passkeys/login/begin", {})[2]
    state = client.cookies["passkey-sign-in"]
    answer = device.get(begun["options"], count=0)
    assert client.post("/api/passkeys/login/finish", {"credential": answer})[0] == 200
    replay = server.client()
    replay.cookies["passkey-sign-in"] = state
    status, _, data = replay.post("/api/passkeys/login/finish", {"credential": answer})
    assert status == 400 and "used already" in data["error"] and replay.get("/api/me")[0] == 401


def test_a_finish_without_its_begin_is_a_clear_400(server, reader_user):
    device = register(server, reader_user)
    status, _, data = server.client().post("/api/passkeys/login/finish", {"credential": device.get({"challenge": "x"})})
    assert status == 400 and "passkey request" in data["error"]
    status, _, data = reader_user.post("/api/passkeys/register/finish", {"name": "", "credential": {}})
    assert status == 400 and "name" in data["error"]


def test_refused_answers_count_in_the_sign_in_rate_limit(server, reader_user):
    device = register(server, reader_user)
    client = server.client()
    statuses = [sign_in(client, device, origin="http://evil.example")[0] for _ in range(10)]
    assert statuses == [401] * 10
    status, headers, _ = sign_in(client, device)
    assert status == 429 and int(headers["Retry-After"]) > 0
    assert server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 429


def test_a_passkey_refuses_basic_like_a_code_app(server, reader_user):
    me = "/komga/api/v2/users/me"
    assert server.client().get(me, headers={"Authorization": basic("reader")})[0] == 200
    register(server, reader_user)
    status, _, data = server.client().get(me, headers={"Authorization": basic("reader")})
    assert status == 401 and "API key" in data["error"]


def test_it_removes_a_passkey(server, reader_user):
    device = register(server, reader_user)
    status, _, _ = post_form(reader_user, PROFILE, {"id": device.id}, action="/settings/user/profile/passkeys/")
    assert status == 302 and passkeys.listed("reader") == []
    assert "removed" in reader_user.get(PROFILE)[2].decode()
    assert sign_in(server.client(), device)[0] == 401
    assert server.client().post("/api/login", {"name": "reader", "password": PASSWORD})[0] == 200


def test_a_passkey_counts_for_the_admins_rule(server, admin):
    register(server, admin)
    status, _, _ = post_form(admin, "/settings/admin/users/", {"admins": "on"}, action="/settings/admin/two-factor/")
    assert status == 302
    assert admin.get("/api/library")[0] == 200  # not sent to set up a code app


def test_the_reset_for_a_lost_device_removes_passkeys(server, admin, reader_user, settings):
    register(server, reader_user)
    post_form(admin, "/settings/admin/users/", {"action": "twofactor"}, action="/settings/admin/users/reader/")
    assert passkeys.listed("reader") == []
    register(server, reader_user)
    server.stop()
    settings.DATA = server.data
    out = io.StringIO()
    call_command("resettwofactor", "reader", stdout=out)
    assert out.getvalue().startswith("reader's second factor is reset")
    with pytest.raises(CommandError, match="reader has no second factor"):
        call_command("resettwofactor", "reader")


@pytest.mark.parametrize("body", [{"credential": "text"}, {"credential": {}, "ticket": 5}])
def test_it_answers_bad_input_with_400(server, body):
    assert server.client().post("/api/passkeys/login/finish", body)[0] == 400
