"""The app in this process, with the interface of bench/server.py's Server and Client.

AppServer(data, library, env).start() points the settings at `data` and `library` and at whatever
`env` changes: mangacircus/settings.py itself turns that environment into settings, so whatever is
derived from a variable (STATIC_ROOT from DATA, the cookie flags from COOKIE_SECURE...) follows.
It then forgets what a new process would not know, runs mangacircus.runtime.start() and waits for
the first scan, so the library is complete before the first request. stop() is runtime.stop().

AppClient sends each request through django.test.Client and the real MIDDLEWARE, CSRF checks on,
with the Host header and cookies a real client would send, and answers (status, headers as
http.client gives them, parsed body) like bench.server.Client. Nothing listens on `port`: it only
names the host that requests claim, as Origin checks compare against it.

The runtime is global to the process, so one AppServer runs at a time.
"""
import http.client
import os
import re
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.test import Client as DjangoClient
from django.test import override_settings
from django.test.client import ClientHandler
from django.urls import clear_script_prefix, set_script_prefix

import mangacircus.settings
from accounts import ratelimit
from bench.server import Client, free_port
from library import index, service
from mangacircus import runtime
from reader import reading_clock

SETTINGS_FILE = Path(mangacircus.settings.__file__)
SETTINGS_CODE = compile(SETTINGS_FILE.read_text(), str(SETTINGS_FILE), "exec")
PER_PROCESS = {"LOGGING", "DATABASES"}  # read once, when Django starts
UNSENDABLE = re.compile("[\x00-\x20\x7f]")  # what http.client refuses to put in a request line


def settings_from(env):
    """The upper-case names mangacircus/settings.py defines under this environment."""
    values = {"__file__": str(SETTINGS_FILE), "__name__": "settings_from"}
    with mock.patch.dict(os.environ, env, clear=True):
        exec(SETTINGS_CODE, values)
    return {name: value for name, value in values.items() if name.isupper()}


class AppServer:
    running = None  # the AppServer started in this process, if any

    def __init__(self, data, library=None, env=None):
        self.data = Path(data)
        self.library = library
        self.port = free_port()
        self.env = {
            **os.environ, "DATA": str(data), "SCRYPT_LOG_N": "10", "SECRET_KEY": "test-secret",
            "SCAN_INTERVAL": "0", "LOG_LEVEL": "WARNING", **(env or {}),
        }
        if library is not None:
            self.env["LIBRARY"] = str(library)
        self.script_name = ""
        self.handler = None
        self._settings = None

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, wait=True):
        if AppServer.running is not None:
            raise RuntimeError("an AppServer is running already: the app's runtime is global to the process")
        self.data.mkdir(parents=True, exist_ok=True)
        values = settings_from(self.env)
        self.script_name = values["SCRIPT_NAME"]
        changed = {k: v for k, v in values.items() if k not in PER_PROCESS and getattr(settings, k, None) != v}
        self._settings = override_settings(**changed)
        self._settings.enable()
        try:
            index.replace(index.Index())  # what a new process knows: nothing until the restore
            ratelimit.reset()
            runtime.start()
            reading_clock.reset_memory()
        except BaseException:
            self._settings.disable()
            raise
        AppServer.running = self
        self.handler = ClientHandler(enforce_csrf_checks=True)
        self.handler.load_middleware()
        if wait:
            service.request_scan(wait=True, timeout=30)
        return self

    def stop(self):
        if AppServer.running is not self:
            return
        try:
            runtime.stop()
        finally:
            self._settings.disable()
            self.handler = None
            AppServer.running = None

    def kill9(self):
        raise NotImplementedError("kill -9 needs a real process: use the real_server fixture")

    def client(self):
        return AppClient(self)


class AppClient(Client):
    """bench.server.Client, with requests handed to Django's test client instead of a socket."""

    def __init__(self, server):
        super().__init__("127.0.0.1", server.port)
        self.server = server

    def send(self, method, path, payload=None, headers=None):
        handler, script_name = self.server.handler, self.server.script_name
        if handler is None:
            raise ConnectionRefusedError(f"the app at {self.server.url} is stopped")
        if UNSENDABLE.search(path):
            raise http.client.InvalidURL(f"URL can't contain control characters. {path!r}")
        if script_name:  # gunicorn moves SCRIPT_NAME from the path into the environ
            if not path.startswith(script_name):
                raise ValueError(f"{path} is not under SCRIPT_NAME {script_name}")
            path = path[len(script_name):]
        client = DjangoClient(enforce_csrf_checks=True, raise_request_exception=False)
        client.handler = handler
        headers = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        set_script_prefix(script_name)  # as Django's WSGIHandler does for each request
        try:
            response = client.generic(method, path, payload or b"", content_type="", headers=headers,
                                      SCRIPT_NAME=script_name)
            body = b"".join(response.streaming_content) if response.streaming else response.content
        finally:
            clear_script_prefix()
        return response.status_code, _http_headers(response), body


def _http_headers(response):
    """The response's headers, Set-Cookie lines included, as an http.client message."""
    message = http.client.HTTPMessage()
    for name, value in response.items():
        message[name] = value
    for morsel in response.cookies.values():
        message["Set-Cookie"] = morsel.OutputString()
    return message
