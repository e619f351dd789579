"""nginx in front of the reader under `startall`, from the shipped deploy/nginx.conf.

When nginx is installed and NGINX is not `off`, `startall` listens with nginx on the public address
and runs the reader on 127.0.0.1:READER_PORT behind it, with signed page links and the /lib/ hand-off
on, so page images are served from disk without a Python request each (docs/proxy.md).

nginx runs as the user running `startall`, in the foreground, with everything it writes under
DATA/nginx/: the generated nginx.conf and site.conf, its pid, temporary files and the thumbnail
cache. Its errors go to stderr, which the supervisor copies with an `[nginx]` prefix.
"""
import os
import pwd
import shutil
from pathlib import Path

from django.conf import settings

from library import libraries

SITE = Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf"
FOLDER = "nginx"
SENDFILE_PREFIX = "/protected-library/"  # the internal location of deploy/nginx.conf
# The paths and addresses of the shipped site file that a running copy replaces.
EXAMPLE = {"LIBRARY": "/srv/manga", "DATA": "/var/lib/mangacircus", "APP": "127.0.0.1:8080",
           "LISTEN": "listen 80;", "CACHE": "/var/lib/nginx/mangacircus-covers"}

MAIN = """\
# Written by `manage.py startall` at each start; edit deploy/nginx.conf instead.
{user}worker_processes 1;
daemon off;
pid {prefix}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/tmp/body;
    proxy_temp_path {prefix}/tmp/proxy;
    fastcgi_temp_path {prefix}/tmp/fastcgi;
    uwsgi_temp_path {prefix}/tmp/uwsgi;
    scgi_temp_path {prefix}/tmp/scgi;
    include {prefix}/site.conf;
}}
"""


def binary():
    """The nginx program, or None. Debian puts it in /usr/sbin, which a user's PATH may lack."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def wanted():
    """The nginx program when `startall` should run it in front of the reader, else None."""
    return binary() if settings.NGINX != "off" else None


PAGE_ALIAS = "alias /srv/manga/$mangacircus_page;"
HAND_OFF = "    # The reader's hand-off target for /lib/ requests it answered itself (SENDFILE_PREFIX).\n"


def _placeholder(i):
    return f"\0library{i}\0"


def several(text, count, prefixes):
    """The site for several libraries (docs/proxy.md, "Several libraries"): a signed page is looked
    for in each library's folder in LIBRARIES' order, the order in which the scan gives a name to
    the first library holding it, and each further library gets a hand-off location of its own."""
    if PAGE_ALIAS not in text or HAND_OFF not in text:
        raise ValueError("deploy/nginx.conf no longer holds the page alias and the hand-off location")
    # Placeholders for the folders, put in by site() once the example's folder is replaced.
    tries = " ".join(f"{_placeholder(i) if i else EXAMPLE['LIBRARY']}/$mangacircus_page" for i in range(count))
    text = text.replace(PAGE_ALIAS, f"root /;\n        try_files {tries} =404;")
    extra = "".join(f"    location {prefix}/ {{\n        internal;\n        alias {_placeholder(i)}/;\n"
                    "        add_header X-Content-Type-Options nosniff always;\n"
                    "        add_header Content-Security-Policy \"sandbox; default-src 'none'\" always;\n    }\n\n"
                    for i, prefix in enumerate(prefixes, start=1))
    return text.replace(HAND_OFF, extra + HAND_OFF)


def site(library, data, app_port, listen, cache, more=()):
    """deploy/nginx.conf with these paths and addresses in place of the example ones. `more`:
    the (folder, hand-off prefix) of each library after the first."""
    text = SITE.read_text()
    if more:  # first, as the example folder is then replaced, and a real one may hold its name
        text = several(text, 1 + len(more), [prefix for _, prefix in more])
    for key, value in (("LIBRARY", os.path.realpath(library)), ("DATA", os.path.realpath(data)),
                       ("APP", f"127.0.0.1:{app_port}"), ("LISTEN", f"listen {listen};"), ("CACHE", str(cache))):
        if EXAMPLE[key] not in text:
            raise ValueError(f"deploy/nginx.conf no longer holds {EXAMPLE[key]!r}")
        text = text.replace(EXAMPLE[key], value)
    for i, (root, _) in enumerate(more, start=1):
        text = text.replace(_placeholder(i), os.path.realpath(root))
    return text


FORWARDED = "        proxy_set_header X-Forwarded-Proto $scheme;\n"


def sign_in_headers(text, names, trusted):
    """The site with the proxy sign-in headers (docs/accounts.md, "Signing in through your proxy")
    passed on to the reader only from `trusted` networks, and sent empty (so not at all) from anyone
    else: the reader believes this nginx, on 127.0.0.1, so without it anyone who reaches nginx could
    name any user."""
    if FORWARDED not in text:
        raise ValueError("deploy/nginx.conf no longer forwards X-Forwarded-Proto to the reader")
    nets = "".join(f"    {net} 1;\n" for net in trusted)
    head = f"geo $mangacircus_from_proxy {{\n    default 0;\n{nets}}}\n"
    lines = ""
    for name in names:
        var = "$mangacircus_" + name.lower().replace("-", "_")
        head += (f"map $mangacircus_from_proxy {var} {{\n    1 $http_{name.lower().replace('-', '_')};\n"
                 f"    default \"\";\n}}\n")
        lines += f"        proxy_set_header {name} {var};\n"
    return head + "\n" + text.replace(FORWARDED, FORWARDED + lines)


def user_line():
    """As root, nginx's workers would become `nobody`, who may not read DATA or LIBRARY."""
    return f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""


def write_config(listen, app_port):
    """DATA/nginx/nginx.conf for nginx on `listen` (address:port) in front of the reader on app_port."""
    prefix = Path(settings.DATA) / FOLDER
    for sub in ("tmp", "cache"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    first, *others = libraries.all()
    more = [(lib.root, SENDFILE_PREFIX.rstrip("/") + "-" + lib.slug) for lib in others]
    text = site(first.root, settings.DATA, app_port, listen, prefix / "cache", more)
    names = [name for name in (settings.REMOTE_USER_HEADER, settings.REMOTE_GROUPS_HEADER) if name]
    if settings.REMOTE_USER_HEADER:
        text = sign_in_headers(text, names, settings.TRUSTED_PROXIES)
    (prefix / "site.conf").write_text(text)
    conf = prefix / "nginx.conf"
    conf.write_text(MAIN.format(user=user_line(), prefix=prefix))
    return conf


def argv(program, conf):
    # -e stderr: nginx would otherwise first open its built-in /var/log/nginx/error.log.
    return [program, "-e", "stderr", "-p", str(conf.parent), "-c", str(conf)]


def reader_env(env):
    """The reader's settings behind this nginx: signed links, the hand-off, and nginx as its proxy."""
    trusted = [p for p in env.get("TRUSTED_PROXIES", "").split(",") if p.strip()]
    return {**env, "IMAGE_LINKS": "signed", "SENDFILE_HEADER": "x-accel-redirect",
            "SENDFILE_PREFIX": SENDFILE_PREFIX, "TRUSTED_PROXIES": ",".join(trusted + ["127.0.0.1"])}
