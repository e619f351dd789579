"""What can go wrong in a job, and what the daemon does about it.

Sources and the transports raise these; the daemon decides: `retry` errors are retried with the
job backoff (1 min, 5 min, 30 min by default) and then fail the job with the message kept; the
others fail it at once. `Parked` puts the job back until a time without using an attempt.
"""


class ScraperError(Exception):
    retry = True

    def __init__(self, message):
        super().__init__(message)
        self.message = message


class Transient(ScraperError):
    """A network error, timeout, truncated body or 5xx that outlived the per-request retries."""


class BadImage(ScraperError):
    """A page body that is not an image of an allowed type (HTML, SVG, truncated, a bomb...)."""


class Mismatch(ScraperError):
    """A page whose bytes differ from the size or hash its source announced: never stored."""


class NoPages(ScraperError):
    """The source lists a chapter without pages (an empty MangaDex at-home answer): that chapter fails."""


class Refused(ScraperError):
    """A request the client will not make or finish: scheme, private address, redirects, size."""
    retry = False


class NotFound(ScraperError):
    retry = False


class InvalidInput(ScraperError):
    """Bad input from the admin (a series id, a path): answered with 400, never retried."""
    retry = False


class Parked(ScraperError):
    """Come back later (`until`, ms since the epoch): a long Retry-After or a full disk."""

    def __init__(self, message, until):
        super().__init__(message)
        self.until = until


class Interrupted(ScraperError):
    """The daemon is stopping or pausing: the job goes back to the queue at its checkpoint."""


class Stalled(ScraperError):
    """The stall watchdog aborted the request (docs/scraper.md)."""


class Cancelled(ScraperError):
    """An admin cancelled the running job: it stops at the next page boundary."""


class SourceChanged(ScraperError):
    """The source answered in a shape the module does not know (a field missing or of another
    type): the module is out of date. Never retried: retrying would not change the answer."""
    retry = False
