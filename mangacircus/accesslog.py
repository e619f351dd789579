"""gunicorn's access log, less the query of the OpenID callback: it carries the provider's one-time
code and the state (docs/accounts.md, "OpenID Connect"), which the log must not keep.

The line in gunicorn's default format (the combined log format) is written here without the table
of every atom gunicorn builds for any format: that table was 14 % of the reader's Python time on a
page served from the page cache. Another ACCESS_LOG_FORMAT-style format would go through gunicorn's
own code (the reader sets none)."""
import time
import traceback

from gunicorn.glogging import Logger

SECRET_QUERY_PATHS = ("/login/oidc/callback/",)
LEFT_OUT = "(left out)"
DEFAULT_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"'


def _hidden(environ):
    if environ.get("PATH_INFO", "").endswith(SECRET_QUERY_PATHS) and environ.get("QUERY_STRING"):
        path = environ.get("RAW_URI", "").split("?", 1)[0]
        return {**environ, "QUERY_STRING": LEFT_OUT, "RAW_URI": f"{path}?{LEFT_OUT}"}
    return environ


def _quoted(value):
    return value.replace('"', '\\"')


class AccessLogger(Logger):
    _second, _stamp = None, ""

    def atoms(self, resp, req, environ, request_time):
        return super().atoms(resp, req, _hidden(environ), request_time)

    def access(self, resp, req, environ, request_time):
        if not self.access_log_enabled:
            return
        if self.cfg.access_log_format != DEFAULT_FORMAT:
            super().access(resp, req, environ, request_time)
            return
        try:
            self.access_log.info(self.line(resp, environ))
        except Exception:
            self.error(traceback.format_exc())

    def line(self, resp, environ):
        """The default format's line, as gunicorn would write it."""
        environ = _hidden(environ)
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        sent = getattr(resp, "sent", None)
        request = f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}"
        return (f"{_quoted(environ.get('REMOTE_ADDR', '-'))} - {_quoted(self._get_user(environ) or '-')} "
                f"{self._now()} \"{_quoted(request)}\" {status} {'-' if sent is None else sent} "
                f"\"{_quoted(environ.get('HTTP_REFERER', '-'))}\" \"{_quoted(environ.get('HTTP_USER_AGENT', '-'))}\"")

    def _now(self):
        """now() once a second: its strftime is the same for every request of that second."""
        second = int(time.time())
        if second != self._second:
            self._second, self._stamp = second, self.now()
        return self._stamp
