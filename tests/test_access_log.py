"""The reader's access log line (mangacircus/accesslog.py) is gunicorn's own default line, made
without gunicorn's table of atoms: the same text for the same request, quotes escaped, the Basic
user named, the OpenID callback's code and state left out."""
import base64
import logging
from datetime import timedelta
from types import SimpleNamespace

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from mangacircus.accesslog import AccessLogger

STAMP = "[04/Dec/2026:01:02:03 +0000]"
BASE = {"REQUEST_METHOD": "GET", "PATH_INFO": "/manga/Moon Garden/", "QUERY_STRING": "",
        "RAW_URI": "/manga/Moon%20Garden/", "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "192.0.2.7"}
REQUESTS = {
    "a page": (BASE, "200 OK", 5120),
    "nothing sent yet": ({**BASE, "REQUEST_METHOD": "HEAD"}, "304 Not Modified", None),
    "quotes everywhere": ({**BASE, "RAW_URI": '/search?q="x"', "HTTP_REFERER": 'http://h/"r"',
                           "HTTP_USER_AGENT": 'Agent "quoted" 1.0'}, "404 Not Found", 0),
    "a Komga app with Basic": ({**BASE, "PATH_INFO": "/komga/api/v1/series", "RAW_URI": "/komga/api/v1/series?page=0",
                                "HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"sam:secret").decode()}, 200, 88),
    "the OpenID callback": ({**BASE, "PATH_INFO": "/login/oidc/callback/", "QUERY_STRING": "code=c0de&state=s",
                             "RAW_URI": "/login/oidc/callback/?code=c0de&state=s"}, "302 Found", 0),
}


def logged(logger_class, environ, status, sent):
    """The line a logger of this class writes for the request, at the fixed time STAMP."""
    cfg = Config()
    cfg.set("accesslog", "-")
    logger = logger_class(cfg)
    logger.now = lambda: STAMP
    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    logger.access_log.handlers = [handler]
    answer = SimpleNamespace(status=status, sent=sent, headers=[("Content-Type", "text/html")])
    logger.access(answer, SimpleNamespace(headers=[("HOST", "h")]), environ, timedelta(microseconds=900))
    [line] = lines
    return line


class Gunicorns(AccessLogger):
    """gunicorn's own line (its access() over its table of atoms), with the callback's query hidden."""

    access = Logger.access


@pytest.mark.parametrize("case", list(REQUESTS))
def test_it_writes_gunicorns_default_line(case):
    environ, status, sent = REQUESTS[case]
    assert logged(AccessLogger, environ, status, sent) == logged(Gunicorns, environ, status, sent)


def test_it_leaves_out_the_code_and_state_of_the_openid_callback():
    line = logged(AccessLogger, *REQUESTS["the OpenID callback"])
    assert "c0de" not in line and '"GET /login/oidc/callback/?(left out) HTTP/1.1" 302 0' in line


def test_it_names_the_basic_user_and_escapes_quotes():
    assert " - sam [04/Dec/2026" in logged(AccessLogger, *REQUESTS["a Komga app with Basic"])
    line = logged(AccessLogger, *REQUESTS["quotes everywhere"])
    assert r'"GET /search?q=\"x\" HTTP/1.1" 404 0 "http://h/\"r\"" "Agent \"quoted\" 1.0"' in line
