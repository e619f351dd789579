"""The local-admin channel (/api/local/, mangacircus/localadmin.py) behind a loopback proxy (battery
A11): behind the shipped nginx every outside client arrives from loopback, so the channel refuses
anything that came through a proxy, and deploy/nginx.conf does not pass it on at all."""
import pytest

from bench.nginx_deploy import DeployedNginx
from bench.server import Client, Server
from mangacircus.localadmin import TOKEN_FILE, TOKEN_HEADER

pytestmark = [pytest.mark.reliability, pytest.mark.process]

FORWARDED = [{"X-Forwarded-For": "203.0.113.9"}, {"X-Forwarded-Proto": "https"}, {"X-Real-IP": "203.0.113.9"},
             {"Forwarded": "for=203.0.113.9"}, {"X-Forwarded-Host": "evil.example"}, {"Via": "1.1 proxy"}]


def test_a11_the_local_channel_refuses_whatever_came_through_a_proxy(figures, data_dir, library_dir):
    # As deploy/ runs it: signed image links (the include nginx.conf reads) and nginx as a trusted proxy.
    env = {"TRUSTED_PROXIES": "127.0.0.1", "IMAGE_LINKS": "signed", "SENDFILE_HEADER": "x-accel-redirect",
           "SENDFILE_PREFIX": "/protected-library/"}
    server = Server(data_dir, library_dir, env=env).start()
    nginx = DeployedNginx(library_dir, data_dir, server.port).start()
    try:
        token = (data_dir / TOKEN_FILE).read_text().strip()
        direct = Client("127.0.0.1", server.port)
        wrong = []
        answered = direct.post("/api/local/ping", {}, headers={TOKEN_HEADER: token})
        if answered[0] != 200:
            wrong.append(f"the command's own request: {answered[0]}")
        for headers in FORWARDED:
            status = direct.post("/api/local/ping", {}, headers={TOKEN_HEADER: token, **headers})[0]
            if status != 401:
                wrong.append(f"with {headers}: {status}")
        proxied = Client("127.0.0.1", nginx.port)
        through = proxied.post("/api/local/ping", {}, headers={TOKEN_HEADER: token})[0]
        if through != 404:
            wrong.append(f"through the shipped nginx: {through}")
        sent = 2 + len(FORWARDED)
        figures.check("A11", "local channel behind a loopback proxy", f"{sent} requests with the token "
                      f"({len(FORWARDED)} forwarding headers, one through nginx)",
                      "200 only for the command's own request; 401 with any forwarding header; 404 from nginx",
                      f"{len(wrong)} wrong" + (f": {wrong}" if wrong else ""), not wrong)
    finally:
        nginx.stop()
        server.stop()
