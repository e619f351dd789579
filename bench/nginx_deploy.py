"""nginx running deploy/nginx.conf, exactly as shipped but for its paths, on loopback.

The site file is copied with LIBRARY, DATA, the reader's address and the listening port put in
place of the example ones, and included from a small main configuration that keeps nginx in the
foreground with its pid, logs and temporary files in a temporary folder. Used by the signed-link
tests (tests/library/test_signed_links.py) and by `python -m bench`.
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from ops import nginx

from .server import free_port

NGINX = nginx.binary()

MAIN = """\
{user}worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/site.conf;
}}
"""


def site(library, data, app_port, port, cache):
    """deploy/nginx.conf with these paths and ports in place of the example ones."""
    return nginx.site(library, data, app_port, f"127.0.0.1:{port}", cache)


class NginxProcess:
    """nginx in the foreground on a free loopback port, from a nginx.conf that a subclass writes into
    `tmp` (its pid, logs and temporary files stay there); `user` is the line nginx needs as root."""

    def __init__(self, prefix, cpus=None):
        self.tmp = Path(tempfile.mkdtemp(prefix=prefix))
        self.port = free_port()
        self.user = nginx.user_line()
        self.cpus = cpus
        self.proc = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        self.proc = subprocess.Popen([NGINX, "-p", str(self.tmp), "-c", str(self.tmp / "nginx.conf")],
                                     stdout=subprocess.DEVNULL, stderr=open(self.tmp / "stderr.log", "wb"),
                                     start_new_session=True)
        if self.cpus:
            os.sched_setaffinity(self.proc.pid, self.cpus)  # the worker is forked after the config is read
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx exited: {(self.tmp / 'stderr.log').read_text()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start listening")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        shutil.rmtree(self.tmp, ignore_errors=True)


class DeployedNginx(NginxProcess):
    def __init__(self, library, data, app_port, cpus=None):
        super().__init__("mc-nginx-", cpus)
        (self.tmp / "site.conf").write_text(site(library, data, app_port, self.port, self.tmp / "cache"))
        (self.tmp / "nginx.conf").write_text(MAIN.format(user=self.user, tmp=self.tmp))
