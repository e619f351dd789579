"""The security headers, in process: Django's SecurityMiddleware and XFrameOptionsMiddleware send
nosniff and X-Frame-Options, mangacircus/middleware.py the CSP, Referrer-Policy and COOP; /lib/
images keep their sandbox CSP."""
import pytest
from django.test import Client

PAGE = "/lib/Moon%20Garden/b01%20Spring/c0001%20Seeds/001.png"


@pytest.fixture
def client(start):
    start()
    return Client(HTTP_HOST="localhost")  # the server's own browser: it may make the first account


def test_html_pages_and_library_images_carry_the_security_headers(client):
    login = client.get("/login/")
    assert login.status_code == 200 and login["Content-Type"].startswith("text/html")
    assert client.post("/api/signup", {"name": "admin", "password": "correct horse"},
                       content_type="application/json").status_code == 200
    home, image = client.get("/"), client.get(PAGE)
    assert home.status_code == 200 and home["Content-Type"].startswith("text/html")
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    for response in (login, home, image):
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["X-Frame-Options"] == "DENY"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    for response in (login, home):
        assert "script-src 'self'" in response["Content-Security-Policy"]
    assert image["Content-Security-Policy"] == "sandbox; default-src 'none'"
    image.close()
