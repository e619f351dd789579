"""CSRF, body size and security headers on every response."""
from tests.support.app import AppServer


def test_it_refuses_non_json_posts(admin):
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        status, _, _ = admin.request("POST", "/api/settings", raw=b'{"skipExtras": true}',
                                     headers={"Content-Type": content_type})
        assert status == 415
    assert admin.get("/api/me")[2]["settings"]["skipExtras"] is False


def test_it_refuses_cross_site_posts(admin):
    assert admin.post("/api/settings", {"skipExtras": True}, headers={"Sec-Fetch-Site": "cross-site"})[0] == 403
    assert admin.post("/api/settings", {"skipExtras": True}, headers={"Origin": "http://evil.example"})[0] == 403
    assert admin.post("/api/settings", {"skipExtras": True}, headers={"Origin": "null"})[0] == 403
    assert admin.post("/api/settings", {"skipExtras": True}, headers={"Sec-Fetch-Site": "same-origin"})[0] == 200


def test_it_accepts_same_origin_posts(admin, server):
    origin = f"http://127.0.0.1:{server.port}"
    assert admin.post("/api/settings", {"skipCovers": True}, headers={"Origin": origin})[0] == 200


def test_it_refuses_bodies_over_1_mb(admin):
    status, _, data = admin.request("POST", "/api/settings", raw=b'{"a": "' + b"x" * (1024 * 1024) + b'"}',
                                    headers={"Content-Type": "application/json"})
    assert status == 413


def test_it_answers_400_to_hostile_json(admin):
    for raw in (b"[" * 100_000, b'{"zoom": 1e999999}', b"NaN", b"\xff", b'"string"'):
        status, _, data = admin.request("POST", "/api/settings", raw=raw, headers={"Content-Type": "application/json"})
        assert status == 400, raw[:20]
        assert data["error"]


def test_it_sends_security_headers_everywhere(admin, guest):
    for client, path in ((guest, "/api/auth"), (guest, "/login/"), (admin, "/api/me"), (guest, "/nowhere")):
        _, headers, _ = client.get(path)
        assert "script-src 'self'" in headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "same-origin"
        assert headers["X-Frame-Options"] == "DENY"


def test_it_answers_json_404_for_unknown_api_routes(admin):
    status, _, data = admin.get("/api/nothing-here")
    assert status == 404 and data == {"error": "not found"}


def test_it_refuses_an_origin_of_another_scheme_port_or_host(admin, server):
    for origin in (f"https://127.0.0.1:{server.port}", f"http://127.0.0.1:{server.port + 1}",
                   f"http://localhost:{server.port}", "http://127.0.0.1", f"http://127.0.0.1:{server.port}.evil"):
        status, _, data = admin.post("/api/settings", {"skipCovers": True}, headers={"Origin": origin})
        assert (status, data["error"]) == (403, "cross-origin requests are refused"), origin
    same = f"HTTP://127.0.0.1:{server.port}"
    assert admin.post("/api/settings", {"skipCovers": True}, headers={"Origin": same})[0] == 200


def test_it_takes_the_scheme_from_a_trusted_proxy_only(data_dir, library_dir):
    srv = AppServer(data_dir, library_dir, env={"TRUSTED_PROXIES": "127.0.0.1"}).start()
    try:
        proxied = {"Host": "manga.example.org", "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
        admin = srv.client().signup("admin")
        assert admin.post("/api/settings", {"skipCovers": True},
                          headers={**proxied, "Origin": "https://manga.example.org"})[0] == 200
        for origin in ("http://manga.example.org", "https://manga.example.org:8443"):
            assert admin.post("/api/settings", {"skipCovers": True}, headers={**proxied, "Origin": origin})[0] == 403
    finally:
        srv.stop()
    # From a client that is not a trusted proxy, X-Forwarded-Proto changes nothing.
    srv = AppServer(data_dir / "other", library_dir, env={"TRUSTED_PROXIES": "10.0.0.0/8"}).start()
    try:
        other = srv.client().signup("admin")
        origin = f"https://127.0.0.1:{srv.port}"
        assert other.post("/api/settings", {"skipCovers": True},
                          headers={"X-Forwarded-Proto": "https", "Origin": origin})[0] == 403
    finally:
        srv.stop()
