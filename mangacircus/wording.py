"""How times and durations are said to people: one place, so that no page says "893 seconds".

static/js/common.js has the same wording for the browser (inWords)."""
import math
from datetime import datetime


def in_words(seconds):
    """A wait in seconds as a person says it: "in 40 seconds", "in 15 minutes", "in 5 hours",
    "in 3 days". Seconds under a minute, minutes under two hours, hours under two days; rounded
    up, so the time said is never shorter than the wait."""
    seconds = max(0, math.ceil(float(seconds)))
    for unit, size, below in (("second", 1, 60), ("minute", 60, 7200), ("hour", 3600, 172_800)):
        if seconds < below:
            return _count(math.ceil(seconds / size), unit)
    return _count(math.ceil(seconds / 86400), "day")


def _count(n, unit):
    return f"in {n} {unit}{'' if n == 1 else 's'}"


def parse_iso(text):
    """The aware datetime of a time written with time.strftime("%Y-%m-%dT%H:%M:%S%z"), or None."""
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S%z")
    except (TypeError, ValueError):
        return None
