"""What every page's template gets: the account, the app root, the bell's unread count, the theme
(set on <html> by the server, so a light page never flashes dark first) and, for admins, why the
library cannot be read (the banner in base.html), and the page's language (<html lang dir>, and
the browser's catalog script)."""
from django.conf import settings
from django.urls import get_script_prefix
from django.utils import translation

from library import service
from mangacircus import jsi18n, languages

from . import notes, prefs


def user_context(request):
    """Links in templates are root + an app-relative URL."""
    account = getattr(request, "account", None)
    return {
        "account": account, "signup_open": settings.SIGNUP == "open", "root": get_script_prefix(),
        "time_zone": settings.TIME_ZONE,  # for the dates the page scripts print (common.js formatDate)
        "theme": prefs.get_settings(account["name"])["theme"] if account else prefs.DEFAULT_SETTINGS["theme"],
        "unread_notes": notes.unread_count(account["name"]) if account else 0,
        "language": (language := translation.get_language()),
        "language_dir": "rtl" if language in languages.RTL else "ltr",
        "jsi18n_url": jsi18n.url(language),
        "library_banner": service.unavailable() if account and account.get("admin") else None,
    }
