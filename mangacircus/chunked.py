"""Chunked request bodies, for Django.

Django reads CONTENT_LENGTH bytes of wsgi.input and nothing when that is missing, so a valid
`Transfer-Encoding: chunked` body (gunicorn decodes it into wsgi.input) reached the views empty
and got 400. This WSGI wrapper reads such a body up to one byte past MAX_BODY and hands it on with
its Content-Length, so the usual size checks answer 413 for one that is too large.
"""
import io

from .http import MAX_BODY


def whole_bodies(app):
    def wrapper(environ, start_response):
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
        if chunked and not environ.get("CONTENT_LENGTH"):
            body = environ["wsgi.input"].read(MAX_BODY + 1)
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
        return app(environ, start_response)

    return wrapper
