"""gunicorn's access log, less the query of the OpenID callback: it carries the provider's one-time
code and the state (docs/accounts.md, "OpenID Connect"), which the log must not keep."""
from gunicorn.glogging import Logger

SECRET_QUERY_PATHS = ("/login/oidc/callback/",)
LEFT_OUT = "(left out)"


class AccessLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        if environ.get("PATH_INFO", "").endswith(SECRET_QUERY_PATHS) and environ.get("QUERY_STRING"):
            path = environ.get("RAW_URI", "").split("?", 1)[0]
            environ = {**environ, "QUERY_STRING": LEFT_OUT, "RAW_URI": f"{path}?{LEFT_OUT}"}
        return super().atoms(resp, req, environ, request_time)
