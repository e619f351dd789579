"""How times and durations are said to people: one place, so that no page says "893 seconds".

static/js/common.js has the same wording for the browser (inWords)."""
import math
from datetime import datetime

from django.utils.translation import gettext_lazy, ngettext


def in_words(seconds):
    """A wait in seconds as a person says it: "in 40 seconds", "in 15 minutes", "in 5 hours",
    "in 3 days". Seconds under a minute, minutes under two hours, hours under two days; rounded
    up, so the time said is never shorter than the wait."""
    seconds = max(0, math.ceil(float(seconds)))
    if seconds < 60:
        return ngettext("in %(n)s second", "in %(n)s seconds", seconds) % {"n": seconds}
    if seconds < 7200:
        n = math.ceil(seconds / 60)
        return ngettext("in %(n)s minute", "in %(n)s minutes", n) % {"n": n}
    if seconds < 172_800:
        n = math.ceil(seconds / 3600)
        return ngettext("in %(n)s hour", "in %(n)s hours", n) % {"n": n}
    n = math.ceil(seconds / 86400)
    return ngettext("in %(n)s day", "in %(n)s days", n) % {"n": n}


def parse_iso(text):
    """The aware datetime of a time written with time.strftime("%Y-%m-%dT%H:%M:%S%z"), or None."""
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z")
    except (TypeError, ValueError):
        return None


# A manga's publication status as its folder writes it (manga.json, ComicInfo, Mihon's details.json;
# casefolded), with its name in the reader's language: in English the value capitalised, as it
# was always shown. Any other value is shown as written, capitalised.
_STATUSES = ("ongoing", "completed", "hiatus", "on hiatus", "cancelled", "canceled", "abandoned", "ended",
             "licensed", "publishing finished", "unknown")
STATUS_NAMES = {"ongoing": gettext_lazy("Ongoing"), "completed": gettext_lazy("Completed"),
                "hiatus": gettext_lazy("Hiatus"), "on hiatus": gettext_lazy("On hiatus"),
                "cancelled": gettext_lazy("Cancelled"), "canceled": gettext_lazy("Canceled"),
                "abandoned": gettext_lazy("Abandoned"), "ended": gettext_lazy("Ended"),
                "licensed": gettext_lazy("Licensed"), "publishing finished": gettext_lazy("Publishing finished"),
                "unknown": gettext_lazy("Unknown")}


def status_name(value):
    """A status as the reader reads it: "Ongoing" (連載中 in Japanese), else the value, capitalised."""
    if not isinstance(value, str) or not value:
        return ""
    known = STATUS_NAMES.get(value.strip().casefold())
    return str(known) if known is not None else value[:1].upper() + value[1:]
