"""/lib/ image throughput against nginx serving the same file, directly and with the hand-off.

nginx (Debian: `apt-get install nginx`) runs on loopback from a config written to a temporary
folder, pinned to the server's CPU with the reader. It serves three things:
- /direct/<path>: the file straight from LIBRARY (the baseline: what a web server alone does), and
  /direct-thumbs/<path>: a cover or page thumbnail straight from DATA (thumbs/, page-thumbs/);
- /lib/<path>: proxied to a reader started with SENDFILE_HEADER=x-accel-redirect, which checks the
  session and answers with an empty X-Accel-Redirect response that nginx then fills;
- /protected-library/: internal, the target of those redirects, with the two headers nginx would
  otherwise drop (the snippet in docs/performance.md).
"""
import os
import time
from pathlib import Path
from urllib.parse import quote

from library.links import signature

from . import loadgen
from .nginx_deploy import NGINX, DeployedNginx, NginxProcess
from .report import Row, skipped, target

CONFIG = """\
{user}worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    types {{ image/jpeg jpg jpeg; image/png png; image/webp webp; image/gif gif; image/avif avif; }}
    default_type application/octet-stream;
    upstream reader {{
        server 127.0.0.1:{app_port};
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        location /direct/ {{
            alias {library}/;
        }}
        location /direct-thumbs/ {{
            alias {thumbs}/;
        }}
        location /protected-library/ {{
            internal;
            alias {library}/;
            add_header X-Content-Type-Options nosniff always;
            add_header Content-Security-Policy "sandbox; default-src 'none'" always;
        }}
        location / {{
            proxy_pass http://reader;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
        }}
    }}
}}
"""


class Nginx(NginxProcess):
    def __init__(self, library, app_port, cpus=None, data=None):
        super().__init__("mc-bench-nginx-", cpus)
        (self.tmp / "nginx.conf").write_text(CONFIG.format(
            user=self.user, tmp=self.tmp, app_port=app_port, port=self.port, library=os.path.realpath(library),
            thumbs=os.path.realpath(data or library)))


def _rate(r, size):
    return f"{r['rps']:,.0f}/s · {r['rps'] * size / 1e6:,.0f} MB/s · p99 {r['p99']:.3g} ms"


def signed_url(data, rel, sid):
    """A page link as the reader signs it (library/links.py), valid for the next hour."""
    until = int(time.time()) + 3600
    return f"/lib/{quote(rel)}?e={until}&s={signature(rel, sid, until, (Path(data) / 'link-secret').read_text())}"


def _signed(library, data, path, cover, thumb, handoff, cookies, seconds, clients, server_cpus, client_cpus):
    """Load on a signed link, on a cover with the link cookies and on a page thumbnail with its page's
    signed link, through deploy/nginx.conf: the three figures and the thumbnail's bytes, after checking
    each image comes back (a thumbnail's first request fills nginx's cache)."""
    site = DeployedNginx(library, data, handoff.port, cpus=server_cpus).start()
    try:
        via = handoff.__class__("127.0.0.1", site.port)
        via.cookies = dict(handoff.cookies)
        for url in (path, cover, thumb):
            status, headers, body = via.request("GET", url)
            assert status == 200 and headers.get("Content-Type", "").startswith("image/"), (status, dict(headers))
        page = loadgen.run(site.url, path, cookies=cookies, clients=clients, seconds=seconds, cpus=client_cpus)
        browser = {"Cookie": "; ".join(f"{k}={v}" for k, v in handoff.cookies.items())}
        covers = loadgen.run(site.url, cover, headers=browser, clients=clients, seconds=seconds, cpus=client_cpus)
        thumbs = loadgen.run(site.url, thumb, cookies=cookies, clients=clients, seconds=seconds, cpus=client_cpus)
        return page, covers, thumbs, body
    finally:
        site.stop()


def _file_holding(folder, data):
    """The file under `folder` whose bytes are `data` (the thumbnail the reader made and nginx kept)."""
    return next(p for p in Path(folder).rglob("*.webp") if p.stat().st_size == len(data) and p.read_bytes() == data)


def lib_rows(library, rel, direct, handoff, seconds, clients, server_cpus, client_cpus, handoff_data=None):
    """/lib/<rel> from gunicorn alone (`direct`: a reader without the hand-off) and through nginx with
    the hand-off (`handoff`: a reader with SENDFILE_HEADER=x-accel-redirect and IMAGE_LINKS=signed),
    and as a signed link through deploy/nginx.conf, against nginx alone serving the same file; a cover
    thumbnail through deploy/nginx.conf with the link cookies, against nginx alone serving its file."""
    name_direct = f"/lib/ image, gunicorn alone, {clients} clients"
    name_proxy = f"/lib/ image, nginx + hand-off, {clients} clients"
    name_signed = f"/lib/ signed link, nginx, {clients} clients"
    name_cover = f"/thumb/ cover, link cookies, {clients} clients"
    name_thumb = f"/lib-thumb/ page thumbnail, {clients} clients"
    if NGINX is None:
        why = "nginx is not installed (Debian: apt-get install nginx); no baseline"
        return [skipped(name_direct, why), skipped(name_proxy, why),
                skipped(name_signed, why, "ratio >= 0.8 | ≥ 0.8× nginx"),
                skipped(name_cover, why, "ratio >= 0.8 | ≥ 0.8× nginx"),
                skipped(name_thumb, why, "ratio >= 0.8 | ≥ 0.8× nginx")]
    size = (Path(library) / rel).stat().st_size
    path = "/lib/" + quote(rel)
    check = handoff.request("GET", path)
    assert check[0] == 200 and check[1].get("X-Accel-Redirect"), (check[0], dict(check[1]))
    cookies = [handoff.cookies["sid"]]
    nginx = Nginx(library, handoff.port, cpus=server_cpus).start()
    try:
        via = handoff.__class__("127.0.0.1", nginx.port)
        via.cookies = dict(handoff.cookies)
        status, headers, body = via.request("GET", path)
        assert status == 200 and len(body) == size, (status, len(body), size)
        # The snippet in docs/performance.md: nginx restates these two, which it drops on a hand-off.
        assert headers.get("X-Content-Type-Options") == "nosniff" and "sandbox" in headers.get(
            "Content-Security-Policy", ""), dict(headers)
        alone = loadgen.run(nginx.url, "/direct/" + quote(rel), clients=clients, seconds=seconds, cpus=client_cpus)
        proxied = loadgen.run(nginx.url, path, cookies=cookies, clients=clients, seconds=seconds, cpus=client_cpus)
        # The bound for any check made in Python: the reader's cheapest route through the same nginx.
        floor = loadgen.run(nginx.url, "/api/auth", cookies=cookies, clients=clients, seconds=seconds,
                            cpus=client_cpus)
    finally:
        nginx.stop()
    signed = None
    if handoff_data is not None:
        link = signed_url(handoff_data, rel, cookies[0])
        cover = "/" + handoff.get("/api/library?limit=1")[2]["manga"][0]["cover"]  # brings the link cookies too
        thumb = Path(handoff_data) / "thumbs" / cover.rsplit("/", 1)[1]
        signed, covers, page_thumbs, page_thumb = _signed(
            library, handoff_data, link, cover, link.replace("/lib/", "/lib-thumb/", 1), handoff, cookies, seconds,
            clients, server_cpus, client_cpus)
        page_thumb = _file_holding(Path(handoff_data) / "page-thumbs", page_thumb)
        nginx = Nginx(library, handoff.port, cpus=server_cpus, data=handoff_data).start()  # nginx alone, right after
        try:
            again = loadgen.run(nginx.url, "/direct/" + quote(rel), clients=clients, seconds=seconds,
                                cpus=client_cpus)
            thumb_alone = loadgen.run(nginx.url, "/direct-thumbs/thumbs/" + thumb.name, clients=clients,
                                      seconds=seconds, cpus=client_cpus)
            page_thumb_alone = loadgen.run(nginx.url, "/direct-thumbs/" + quote(
                page_thumb.relative_to(handoff_data).as_posix()), clients=clients, seconds=seconds, cpus=client_cpus)
        finally:
            nginx.stop()
    gun = loadgen.run(f"http://127.0.0.1:{direct.port}", path, cookies=[direct.cookies["sid"]], clients=clients,
                      seconds=seconds, cpus=client_cpus)
    baseline = f"nginx {_rate(alone, size)}"
    note = f"one {size / 1000:.0f} KB page: {rel}"
    rows = [
        Row(name_direct, value=gun["rps"], shown=_rate(gun, size), baseline=baseline,
            ratio=gun["rps"] / alone["rps"], note=note),
        Row(name_proxy, value=proxied["rps"], shown=_rate(proxied, size), baseline=baseline,
            ratio=proxied["rps"] / alone["rps"],
            note=f"bound: GET /api/auth (no work) through the same nginx answers {floor['rps']:,.0f}/s = "
                 f"{floor['rps'] / alone['rps']:.2f}× nginx's rate for the file"),
    ]
    if signed is not None:
        mean = (alone["rps"] + again["rps"]) / 2
        rows.append(Row(name_signed, value=signed["rps"], shown=_rate(signed, size),
                        baseline=f"nginx {mean:,.0f}/s (before {alone['rps']:,.0f}, after {again['rps']:,.0f})",
                        ratio=signed["rps"] / mean, target=target("ratio >= 0.8 | ≥ 0.8× nginx"),
                        note=f"{signed['errors']} of {signed['requests']} failed" if signed["errors"] else ""))
        size = thumb.stat().st_size
        rows.append(Row(name_cover, value=covers["rps"],
                        shown=_rate(covers, size), baseline=f"nginx, the thumbnail's file {_rate(thumb_alone, size)}",
                        ratio=covers["rps"] / thumb_alone["rps"], target=target("ratio >= 0.8 | ≥ 0.8× nginx"),
                        note=f"a {size / 1000:.0f} KB WebP from nginx's cache"
                             + (f"; {covers['errors']} of {covers['requests']} failed" if covers["errors"] else "")))
        size = page_thumb.stat().st_size
        rows.append(Row(name_thumb, value=page_thumbs["rps"], shown=_rate(page_thumbs, size),
                        baseline=f"nginx, the thumbnail's file {_rate(page_thumb_alone, size)}",
                        ratio=page_thumbs["rps"] / page_thumb_alone["rps"],
                        target=target("ratio >= 0.8 | ≥ 0.8× nginx"),
                        note=f"a {size / 1000:.0f} KB WebP from nginx's cache"
                             + (f"; {page_thumbs['errors']} of {page_thumbs['requests']} failed"
                                if page_thumbs["errors"] else "")))
    return rows
