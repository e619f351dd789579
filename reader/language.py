"""The language each request is answered in (docs/translating.md): the signed-in user's `language`
setting, else the browser's Accept-Language, else the server's LANGUAGE. The reading apps' protocols
(OPDS, the Komga API) carry data, not pages: they follow only the app's own Accept-Language, else
English, so an app that asks for nothing gets what every app of the protocol expects."""
from django.conf import settings
from django.utils import translation
from django.utils.cache import patch_vary_headers

from mangacircus import languages

from . import prefs

APP_PATHS = ("/opds/", "/komga/")


def chosen(request):
    """The language of `request`, one of languages.OFFERED.

    1. The user's own setting, when they picked one that is still offered.
    2. The first offered language of the browser's Accept-Language.
    3. The server's default (LANGUAGE, English when unset).
    A reading app's request (APP_PATHS) takes only its Accept-Language, else English."""
    if request.path_info.startswith(APP_PATHS):
        return languages.from_header(request.META.get("HTTP_ACCEPT_LANGUAGE")) or languages.DEFAULT
    account = getattr(request, "account", None)
    if account:  # the record the session middleware read, settings included: no second lookup
        own = (account.get("settings") or {}).get("language")
        if own in languages.OFFERED:
            return own
    return languages.from_header(request.META.get("HTTP_ACCEPT_LANGUAGE")) or settings.LANGUAGE_CODE


def of_user(name):
    """The language a user's notifications are made in, outside any request: their own setting,
    else the server's default (a browser's choice is known only while it asks)."""
    try:
        own = prefs.get_settings(name).get("language")
    except KeyError:  # no such user (any more)
        own = None
    return own if own in languages.OFFERED else settings.LANGUAGE_CODE


class LanguageMiddleware:
    """Activates the request's language for its answer and names it in Content-Language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        language = chosen(request)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        try:
            response = self.get_response(request)
        finally:
            translation.deactivate()
        response.headers.setdefault("Content-Language", language)
        if response.get("Content-Type", "").startswith("text/html"):
            patch_vary_headers(response, ("Accept-Language",))  # a shared cache keeps one page per language
        return response
