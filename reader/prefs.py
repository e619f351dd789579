"""The per-user reader settings (docs/api.md): defaults, validation of a partial update, and reading
and saving them in the user's record (accounts/users.py stores only what the user changed)."""
from urllib.parse import urlsplit

from django.utils.translation import gettext as _

from accounts import users
from mangacircus import languages
from mangacircus.errors import Invalid

DEFAULT_SETTINGS = {
    "startMode": "last",
    "lastMode": "page",
    "adapt": True,
    "skipExtras": False,
    "skipCovers": False,
    "flowPageGap": True,
    "flowContinues": True,
    "readingClock": False,
    "readingStory": True,
    "discovery": False,
    "zoom": {"flow": 1, "page": 1, "book": 1, "strip": 1},
    "theme": "dark",
    "pageFit": "screen",
    "split": "off",
    "webhook": "",
    "webhookFormat": "ntfy",
    "offlineAhead": 3,  # "Keep the next N unread chapters offline" (docs/offline.md)
    "language": "",  # the UI's language (mangacircus/languages.py OFFERED); "": the browser's, else LANGUAGE
    "offlineFollowed": False,  # keep the next offlineAhead unread chapters of followed manga by themselves
}

CHOICES = {
    "startMode": ("last", "flow", "page", "book"),
    "lastMode": ("flow", "page", "book"),
    "webhookFormat": ("ntfy", "gotify", "json"),
    "theme": ("dark", "light", "system"),
    "pageFit": ("screen", "width", "height", "original"),
    "split": ("off", "phone", "always"),
}
BOOLEANS = ("adapt", "skipExtras", "skipCovers", "flowPageGap", "flowContinues", "readingClock", "readingStory",
            "discovery", "offlineFollowed")
NUMBERS = {"offlineAhead": (1, 20)}  # key: (lowest, highest), whole numbers
ZOOM_KEYS = ("flow", "page", "book", "strip")
ZOOM_MIN, ZOOM_MAX = 0.2, 6.0


def merged_settings(stored):
    """The defaults overlaid with what the user stored; a stored key that is no setting (any more)
    stays in db.json but is not answered."""
    # zoom is the one nested default; a deepcopy of all of them was a third of GET /api/chapter's own time
    result = {**DEFAULT_SETTINGS, "zoom": dict(DEFAULT_SETTINGS["zoom"])}
    for key, value in (stored or {}).items():
        if key == "zoom" and isinstance(value, dict):
            result["zoom"].update(value)
        elif key in result:
            result[key] = value
    return result


def validate_settings(changes):
    """Check a partial settings update; raises Invalid naming the first bad key."""
    clean = {}
    for key, value in changes.items():
        if key in CHOICES:
            if value not in CHOICES[key]:
                raise Invalid(_("%(key)s must be one of %(choices)s")
                              % {"key": key, "choices": ', '.join(CHOICES[key])})
        elif key in BOOLEANS:
            if not isinstance(value, bool):
                raise Invalid(_("%(key)s must be true or false") % {"key": key})
        elif key in NUMBERS:
            low, high = NUMBERS[key]
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise Invalid(_("%(key)s must be a whole number from %(low)s to %(high)s")
                              % {"key": key, "low": low, "high": high})
        elif key == "zoom":
            value = _zoom(value)
        elif key == "webhook":
            value = _webhook(value)
        elif key == "language":
            if value != "" and value not in languages.OFFERED:
                raise Invalid(_("language must be \"\" (automatic) or one of %(languages)s")
                              % {"languages": ', '.join(languages.OFFERED)})
        else:
            raise Invalid(_("%(key)s is not a setting") % {"key": key})
        clean[key] = value
    return clean


def _zoom(value):
    if not isinstance(value, dict):
        raise Invalid(_("zoom must be an object"))
    for mode, z in value.items():
        if mode not in ZOOM_KEYS:
            raise Invalid(_("zoom.%(mode)s is not a zoom key (%(keys)s)")
                          % {"mode": mode, "keys": ', '.join(ZOOM_KEYS)})
        if isinstance(z, bool) or not isinstance(z, (int, float)) or not ZOOM_MIN <= z <= ZOOM_MAX:
            raise Invalid(_("zoom.%(mode)s must be a number from %(zoom_min)s to %(zoom_max)s")
                          % {"mode": mode, "zoom_min": ZOOM_MIN, "zoom_max": ZOOM_MAX})
    return {mode: round(float(z), 4) for mode, z in value.items()}


def _webhook(value):
    if not isinstance(value, str):
        raise Invalid(_("webhook must be a string"))
    value = value.strip()
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname or len(value) > 2000:
        raise Invalid(_("webhook must be an http:// or https:// URL"))
    return value


def get_settings(name):
    return merged_settings(users.stored_settings(name))


def update_settings(name, changes):
    """Apply already validated changes; returns the full settings."""
    def apply(current):
        for key, value in changes.items():
            current[key] = {**current.get("zoom", {}), **value} if key == "zoom" else value
        return merged_settings(current)

    return users.change_settings(name, apply)
