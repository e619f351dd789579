"""Accounts and sessions over HTTP (docs/accounts.md): through the app in process, and against a
real server for what must survive a kill -9."""
import orjson

from tests.conftest import PASSWORD
from tests.support.app import AppServer


def test_it_makes_the_first_account_the_admin_and_then_closes_signup(guest, server):
    assert guest.get("/api/auth")[2] == {"firstRun": True, "signup": True}
    status, _, data = guest.post("/api/signup", {"name": "admin", "password": PASSWORD})
    assert (status, data) == (200, {"name": "admin", "admin": True})
    other = server.client()
    assert other.get("/api/auth")[2] == {"firstRun": False, "signup": False}
    status, _, data = other.post("/api/signup", {"name": "mallory", "password": PASSWORD})
    assert status == 403 and "closed" in data["error"]


def test_it_lets_anyone_sign_up_when_signup_is_open(data_dir, library_dir):
    srv = AppServer(data_dir, library_dir, env={"SIGNUP": "open"}).start()
    try:
        srv.client().signup("admin")
        status, _, data = srv.client().post("/api/signup", {"name": "reader", "password": PASSWORD})
        assert (status, data["admin"]) == (200, False)
        assert srv.client().post("/api/signup", {"name": "READER", "password": PASSWORD})[0] == 409
    finally:
        srv.stop()


def test_it_rejects_bad_names_and_short_passwords(guest):
    assert guest.post("/api/signup", {"name": "../x", "password": PASSWORD})[0] == 400
    assert guest.post("/api/signup", {"name": "ok", "password": "short"})[0] == 400
    assert guest.post("/api/signup", {"name": 5, "password": PASSWORD})[0] == 400


def test_it_stores_only_the_sha256_of_the_session_token_and_a_costed_hash(server, admin):
    token = admin.cookies["sid"]
    assert len(token) == 64
    server.stop()
    raw = (server.data / "db.json").read_bytes()
    assert token.encode() not in raw
    db = orjson.loads(raw)
    assert db["users"]["admin"]["hash"].startswith("scrypt$10$8$1$")
    assert PASSWORD.encode() not in raw


def test_it_sets_the_cookie_httponly_samesite_lax_for_a_year(guest):
    status, headers, _ = guest.post("/api/signup", {"name": "admin", "password": PASSWORD})
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=31536000" in cookie
    assert "Secure" not in cookie


def test_it_marks_the_cookie_secure_with_cookie_secure(data_dir, library_dir):
    srv = AppServer(data_dir, library_dir, env={"COOKIE_SECURE": "1"}).start()
    try:
        _, headers, _ = srv.client().post("/api/signup", {"name": "admin", "password": PASSWORD})
        assert "Secure" in headers["Set-Cookie"]
    finally:
        srv.stop()


def test_it_never_adopts_a_planted_session_token(server, admin):
    victim = server.client()
    victim.cookies["sid"] = "a" * 64
    victim.login("admin")
    assert victim.cookies["sid"] != "a" * 64
    planted = server.client()
    planted.cookies["sid"] = "a" * 64
    assert planted.get("/api/me")[0] == 401


def test_it_refuses_wrong_passwords_and_unknown_users_alike(server, admin):
    wrong = server.client().post("/api/login", {"name": "admin", "password": "wrong password"})
    unknown = server.client().post("/api/login", {"name": "nobody", "password": "wrong password"})
    assert wrong[0] == unknown[0] == 401
    assert wrong[2] == unknown[2]


def test_it_limits_password_checks_per_account_and_address(server, admin):
    client = server.client()
    statuses = [client.post("/api/login", {"name": "admin", "password": f"guess {i}"})[0] for i in range(10)]
    assert statuses == [401] * 10
    status, headers, data = client.post("/api/login", {"name": "admin", "password": PASSWORD})
    assert status == 429 and int(headers["Retry-After"]) > 0
    assert data["error"] == "too many attempts; try again in 15 minutes"  # not "in 893 seconds"
    # A forged X-Forwarded-For from an untrusted client changes nothing.
    spoofed = client.post("/api/login", {"name": "admin", "password": PASSWORD},
                          headers={"X-Forwarded-For": "203.0.113.9"})
    assert spoofed[0] == 429
    # Another account from the same address is not blocked.
    assert client.post("/api/login", {"name": "other", "password": "x" * 8})[0] == 401


def test_it_limits_failed_password_checks_per_address_across_names(server, admin):
    client = server.client()
    for i in range(29):
        assert client.post("/api/login", {"name": f"invented{i}", "password": "wrong password"})[0] == 401
    for _ in range(3):  # a right password is not a failure
        client.login("admin")
    assert client.post("/api/login", {"name": "invented", "password": "wrong password"})[0] == 401
    status, headers, data = client.post("/api/login", {"name": "admin", "password": PASSWORD})
    assert status == 429 and int(headers["Retry-After"]) > 0 and "too many" in data["error"]


def test_it_limits_failed_password_checks_per_account_across_addresses(data_dir, library_dir):
    srv = AppServer(data_dir, library_dir, env={"TRUSTED_PROXIES": "127.0.0.1"}).start()
    try:
        srv.client().signup("admin")
        client = srv.client()

        def login(password, address):
            return client.post("/api/login", {"name": "Admin", "password": password},
                               headers={"X-Forwarded-For": address})

        assert [login("wrong password", f"198.51.100.{i}")[0] for i in range(100)] == [401] * 100
        status, headers, _ = login(PASSWORD, "203.0.113.1")
        assert status == 429 and int(headers["Retry-After"]) > 3600
        assert client.post("/api/login", {"name": "other", "password": "wrong password"},
                           headers={"X-Forwarded-For": "203.0.113.1"})[0] == 401
    finally:
        srv.stop()


def test_it_believes_x_forwarded_for_only_from_trusted_proxies(data_dir, library_dir):
    srv = AppServer(data_dir, library_dir, env={"TRUSTED_PROXIES": "127.0.0.1"}).start()
    try:
        srv.client().signup("admin")
        client = srv.client()
        for i in range(10):
            client.post("/api/login", {"name": "admin", "password": f"guess {i}"},
                        headers={"X-Forwarded-For": "203.0.113.9"})
        blocked = client.post("/api/login", {"name": "admin", "password": PASSWORD},
                              headers={"X-Forwarded-For": "203.0.113.9"})
        other_client = client.post("/api/login", {"name": "admin", "password": PASSWORD},
                                   headers={"X-Forwarded-For": "198.51.100.7"})
        assert blocked[0] == 429
        assert other_client[0] == 200
    finally:
        srv.stop()


def test_it_ends_the_session_on_logout(server, admin):
    token = admin.cookies["sid"]
    assert admin.post("/api/logout")[0] == 200
    stolen = server.client()
    stolen.cookies["sid"] = token
    assert stolen.get("/api/me")[0] == 401


def test_it_ends_other_sessions_when_the_password_changes(server, admin):
    laptop = server.client().login("admin")
    status, _, data = admin.post("/api/password", {"old": PASSWORD, "new": "a better password"})
    assert status == 200, data
    assert laptop.get("/api/me")[0] == 401
    assert admin.get("/api/me")[0] == 200
    assert server.client().post("/api/login", {"name": "admin", "password": PASSWORD})[0] == 401
    server.client().login("admin", "a better password")


def test_it_keeps_security_changes_through_a_kill_9(real_server, admin):
    token = admin.cookies["sid"]
    assert admin.post("/api/logout")[0] == 200
    real_server.kill9()
    real_server.start()
    stolen = real_server.client()
    stolen.cookies["sid"] = token
    assert stolen.get("/api/me")[0] == 401


def test_it_guards_admin_routes(server, admin, reader_user, guest):
    assert guest.get("/api/admin")[0] == 401
    assert reader_user.get("/api/admin")[0] == 403
    assert reader_user.post("/api/admin/user", {"name": "x", "password": PASSWORD})[0] == 403
    status, _, data = admin.get("/api/admin")
    assert status == 200
    assert [u["name"] for u in data["users"]] == ["admin", "reader"]


def test_it_grants_and_revokes_admin_rights_but_never_your_own(server, admin, reader_user):
    assert admin.post("/api/admin/user/role", {"name": "reader", "admin": True})[0] == 200
    assert reader_user.get("/api/admin")[0] == 200
    status, _, data = admin.post("/api/admin/user/role", {"name": "admin", "admin": False})
    assert status == 400 and "own" in data["error"]
    assert reader_user.post("/api/admin/user/role", {"name": "reader", "admin": False})[0] == 400
    assert reader_user.post("/api/admin/user/role", {"name": "admin", "admin": False})[0] == 200
    assert admin.get("/api/admin")[0] == 403
    assert admin.post("/api/admin/user/role", {"name": "ghost", "admin": True})[0] == 403


def test_it_resets_a_password_and_deletes_a_user_with_their_sessions(server, admin, reader_user):
    assert admin.post("/api/admin/user", {"name": "reader", "password": "new password"})[2]["created"] is False
    assert reader_user.get("/api/me")[0] == 401
    reader_user.login("reader", "new password")
    assert admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 200
    assert reader_user.get("/api/me")[0] == 401
    assert admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 404
    assert admin.post("/api/admin/user/delete", {"name": "admin"})[0] == 400
