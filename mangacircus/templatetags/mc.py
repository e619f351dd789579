"""Template tags and filters shared by every page."""
import functools
from datetime import datetime, timezone

from django import template
from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import formats
from django.utils import timezone as dj_timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from mangacircus.wording import parse_iso, status_name

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


def _dated(moment, with_time):
    """A moment as the pages print it: in English 2026-11-29 (14:37), as always; in the other languages
    the language's short numeric date (and time) from Django's formats (2026/11/29, 29.11.2026);
    the browser prints the same (formatDate in static/js/common.js)."""
    if get_language() in (None, "en"):
        return moment.strftime("%Y-%m-%d %H:%M" if with_time else "%Y-%m-%d")
    return formats.date_format(moment, "SHORT_DATETIME_FORMAT" if with_time else "SHORT_DATE_FORMAT")


@register.filter
def ms_date(ms):
    """Milliseconds since the epoch (as stored in the JSON files) → 2026-11-29."""
    moment = _local(ms)
    return _dated(moment, False) if moment else ""


@register.filter
def ms_datetime(ms):
    moment = _local(ms)
    return _dated(moment, True) if moment else ""


@register.filter
def iso_datetime(text):
    """A time as the state files write it ("2026-12-02T03:25:50+0000") → "2026-12-02 03:25", in
    the server's time zone as ms_datetime prints; the text itself when it does not parse."""
    moment = parse_iso(text)
    if moment is None:
        return text or ""
    return _dated(moment.astimezone(dj_timezone.get_current_timezone()), True)


@register.filter
def ms_duration(ms):
    """Milliseconds of reading → "1 h 05 min", "12 min", "under a minute"."""
    if not isinstance(ms, int) or ms <= 0:
        return _("%(minutes)s min") % {"minutes": 0}
    minutes = round(ms / 60000)
    if minutes == 0:
        return _("under a minute")
    if minutes >= 60:
        return _("%(hours)s h %(minutes)s min") % {"hours": minutes // 60, "minutes": f"{minutes % 60:02d}"}
    return _("%(minutes)s min") % {"minutes": minutes}


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
        return _("%(days)s d %(hours)s h") % {"days": days, "hours": hours}
    if hours:
        return _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": minutes}
    return _("%(minutes)s min") % {"minutes": minutes} if minutes else _("%(seconds)s s") % {"seconds": secs}


@register.filter(name="status_name")
def status_name_filter(value):
    """A manga's status in the reader's language (mangacircus/wording.py STATUS_NAMES)."""
    return status_name(value)
