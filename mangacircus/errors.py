"""Domain errors: what went wrong, in words, without HTTP.

Domain code raises these; `@api` (mangacircus/http.py) and `@page` (mangacircus/pages.py) turn
them into an HTTP answer in one place each. `status` is the HTTP status they map to.
"""


class DomainError(Exception):
    status = 500

    def __init__(self, message, retry_after=None):
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after

    @property
    def headers(self):
        return {"Retry-After": str(self.retry_after)} if self.retry_after else {}


class Invalid(DomainError):
    """The input breaks a rule; the message names the field or the rule."""
    status = 400


class WrongCredentials(DomainError):
    status = 401


class Forbidden(DomainError):
    status = 403


class NotFound(DomainError):
    status = 404


class Conflict(DomainError):
    status = 409


class TooLarge(DomainError):
    status = 413


class RateLimited(DomainError):
    status = 429


class Unavailable(DomainError):
    """The server cannot do it right now (a failing disk, a process that is down); try again."""
    status = 503
