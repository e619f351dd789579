"""Template tags and filters shared by every page."""
import functools
from datetime import datetime, timezone

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone as dj_timezone

from mangacircus.wording import parse_iso

register = template.Library()


@register.simple_tag
def route(name):
    """`{% url name %}` for a route without arguments, reversed once per app root and URLconf: the
    URLconf does not change while the process runs, and `{% url %}` cost ~60 µs a link on every render."""
    return _route(name, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)


@functools.lru_cache(maxsize=1024)
def _route(name, _prefix, urlconf):
    return reverse(name, urlconf=urlconf)


def _local(ms):
    try:
        return datetime.fromtimestamp(ms / 1000, tz=timezone.utc).astimezone(dj_timezone.get_current_timezone())
    except (TypeError, ValueError, OverflowError):
        return None


@register.filter
def ms_date(ms):
    """Milliseconds since the epoch (as stored in the JSON files) → 2026-11-29."""
    moment = _local(ms)
    return moment.strftime("%Y-%m-%d") if moment else ""


@register.filter
def ms_datetime(ms):
    moment = _local(ms)
    return moment.strftime("%Y-%m-%d %H:%M") if moment else ""


@register.filter
def iso_datetime(text):
    """A time as the state files write it ("2026-12-02T03:25:50+0000") → "2026-12-02 03:25", in
    the server's time zone as ms_datetime prints; the text itself when it does not parse."""
    moment = parse_iso(text)
    if moment is None:
        return text or ""
    return moment.astimezone(dj_timezone.get_current_timezone()).strftime("%Y-%m-%d %H:%M")


@register.filter
def ms_duration(ms):
    """Milliseconds of reading → "1 h 05 min", "12 min", "under a minute"."""
    if not isinstance(ms, int) or ms <= 0:
        return "0 min"
    minutes = round(ms / 60000)
    if minutes == 0:
        return "under a minute"
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


@register.filter
def seconds(value):
    """A duration in seconds → "3 d 4 h", "2 h 5 min", "40 s"."""
    try:
        value = int(value)
    except (TypeError, ValueError):
        return ""
    days, rest = divmod(value, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min" if minutes else f"{secs} s"
