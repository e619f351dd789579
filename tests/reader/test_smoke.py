def test_it_serves_auth_state_from_a_real_server(guest):
    status, headers, data = guest.get("/api/auth")
    assert status == 200
    assert data == {"firstRun": True, "signup": True}
    assert "default-src 'self'" in headers["Content-Security-Policy"]
