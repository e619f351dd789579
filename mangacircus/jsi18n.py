"""The browser's translations: one script per language, at a URL holding the hash of its content, so
that it can be kept a year and a new translation is a new URL (docs/translating.md).

The script is Django's JavaScriptCatalog for the `djangojs` domain: it defines gettext, ngettext,
interpolate and the language's plural rule and formats. The catalogs are read once, at start, so the
script is made once per language and kept.
"""
import hashlib
import threading

from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.i18n import JavaScriptCatalog

from . import languages

_lock = threading.Lock()
_scripts = {}  # language → (digest, body)


def script(language):
    """(digest, body) of `language`'s catalog script."""
    kept = _scripts.get(language)
    if kept is None:
        with translation.override(language):
            body = JavaScriptCatalog(domain="djangojs").get(None).content
        kept = (hashlib.sha256(body).hexdigest()[:16], body)
        with _lock:
            _scripts[language] = kept
    return kept


def url(language):
    """The address of `language`'s catalog script, under the app's root."""
    return reverse("mc-jsi18n", kwargs={"lang": language, "digest": script(language)[0]})


def view(request, lang, digest):
    if lang not in languages.OFFERED:
        raise Http404("no such language")
    current, body = script(lang)
    if digest != current:
        raise Http404("an older catalog")
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
