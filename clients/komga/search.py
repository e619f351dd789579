"""Komga's search conditions (POST …/series/list and …/books/list): {"allOf": […]}, {"anyOf": […]}
or {field: {"operator": …, "value"|"dateTime"|"duration": …}}. Keys and operator names are
matched case-insensitively (apps send "isnot", "oneshot"); the "type" key is ignored. A field
this server does not know matches everything rather than failing."""
import re
from datetime import datetime, timezone

from mangacircus.clock import now_ms
from mangacircus.errors import Invalid

MAX_DEPTH = 20


def _duration_ms(text):
    match = re.fullmatch(r"P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?", str(text or "").upper())
    if not match or not any(match.groups()):
        raise Invalid(f"duration {text!r} is not an ISO-8601 duration such as PT720H")
    d, h, m, s = match.groups()
    return ((int(d or 0) * 24 + int(h or 0)) * 60 + int(m or 0)) * 60_000 + int(float(s or 0) * 1000)


def _date_ms(text):
    try:
        return int(datetime.fromisoformat(str(text).replace("Z", "+00:00")).astimezone(timezone.utc).timestamp() * 1000)
    except ValueError:
        raise Invalid(f"dateTime {text!r} is not an ISO-8601 date-time") from None


def _lower_keys(obj):
    return {str(k).lower(): v for k, v in obj.items()} if isinstance(obj, dict) else {}


def _as_list(value):
    return value if isinstance(value, (list, tuple, set)) else [value]


def _compare(op, actual, spec):
    """One operator against the item's value(s) for the field (a scalar, a list, or None)."""
    value = spec.get("value")
    items = [a for a in _as_list(actual) if a is not None]
    low = [str(a).lower() for a in items]
    text = str(value).lower() if value is not None else ""
    if op == "is":
        return text in low
    if op == "isnot":
        return text not in low
    if op == "istrue":
        return bool(actual) is True
    if op == "isfalse":
        return not actual
    if op in ("contains", "doesnotcontain"):
        hit = any(text in a for a in low)
        return hit if op == "contains" else not hit
    if op in ("beginswith", "doesnotbeginwith"):
        hit = any(a.startswith(text) for a in low)
        return hit if op == "beginswith" else not hit
    if op in ("endswith", "doesnotendwith"):
        hit = any(a.endswith(text) for a in low)
        return hit if op == "endswith" else not hit
    if op in ("greaterthan", "lessthan"):
        try:
            limit = float(value)
        except (TypeError, ValueError):
            raise Invalid("greaterThan and lessThan need a number") from None
        return any(isinstance(a, (int, float)) and (a > limit if op == "greaterthan" else a < limit) for a in items)
    if op in ("before", "after"):
        limit = _date_ms(spec.get("datetime"))
        return any(isinstance(a, int) and (a < limit if op == "before" else a > limit) for a in items)
    if op in ("isinthelast", "isnotinthelast"):
        since = now_ms() - _duration_ms(spec.get("duration"))
        dates = [a for a in items if isinstance(a, int)]
        if op == "isinthelast":
            return any(a >= since for a in dates)
        return bool(dates) and all(a < since for a in dates)  # no date is in no period, as in Komga's SQL
    if op == "isnull":
        return not items
    if op == "isnotnull":
        return bool(items)
    return True


def matches(condition, field_of, depth=0):
    """Whether an item matches; `field_of(name)` gives the item's value for a lower-case field
    name, or raises KeyError for a field it does not know (matched as true)."""
    if condition is None:
        return True
    if depth > MAX_DEPTH:
        raise Invalid("the search condition is nested too deeply")
    cond = _lower_keys(condition)
    if not isinstance(condition, dict):
        raise Invalid("a search condition must be an object")
    if "allof" in cond:
        return all(matches(c, field_of, depth + 1) for c in _as_list(cond["allof"]))
    if "anyof" in cond:
        parts = _as_list(cond["anyof"])
        return not parts or any(matches(c, field_of, depth + 1) for c in parts)
    for key, spec in cond.items():
        if key == "type":
            continue
        spec = _lower_keys(spec)
        try:
            actual = field_of(key)
        except KeyError:
            continue
        if not _compare(str(spec.get("operator", "")).lower(), actual, spec):
            return False
    return True


def parse_body(data):
    """(condition or None, full-text search words) from a list request's body."""
    condition = data.get("condition") if isinstance(data, dict) else None
    if condition is not None and not isinstance(condition, dict):
        raise Invalid("condition must be an object")
    text = data.get("fullTextSearch") if isinstance(data, dict) else None
    if text is not None and not isinstance(text, str):
        raise Invalid("fullTextSearch must be a string")
    return condition, (text or "").casefold().split()
