"""The rule of tests/test_translations.py (docs/translating.md): the English words a template shows
that are not marked for translation.

1. Drop what is marked or is not shown: {% translate %} and {% blocktranslate %}…{% endblocktranslate %},
   template comments, the blocks that fill an attribute (`{% block body_class %}`, `main_class`,
   `theme`), every other tag and variable.
2. Read what is left as HTML: each text node outside <script>, <style>, <code> and <pre> (code and
   commands stay as typed), and the attributes a reader sees or hears (title, alt, aria-label,
   placeholder, and the value of an <input> button; a <button>'s value is sent, not shown), is a
   finding when it holds a letter and is not one of EXCEPTIONS.
"""
import re
from html.parser import HTMLParser

# Shown as they are in every language: the product's name and names of formats, protocols and services.
EXCEPTIONS = {"MangaCircus", "OPDS", "Komga", "CBZ", "JSON", "ntfy", "Gotify", "AniList", "MyAnimeList",
              "MangaUpdates", "MangaDex", "TOTP", "URL", "API", "Mihon", "Komelia", "CBL", "ComicInfo.xml"}
SHOWN_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder"}

_MARKED = re.compile(r"{%\s*blocktrans(?:late)?\b.*?{%\s*endblocktrans(?:late)?\s*%}|{%\s*trans(?:late)?\s.*?%}", re.S)
_COMMENT = re.compile(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}"
                      r"|{%\s*block\s+(?:\w+_class|theme)\s*%}.*?{%\s*endblock", re.S)
_HIDDEN = ("script", "style", "code", "pre")
_ELEMENT_NAME = re.compile(r"(</?){{.*?}}")
_TAG = re.compile(r"{%.*?%}|{{.*?}}", re.S)
_LETTER = re.compile(r"[^\W\d_]")


def _blank(text):
    text = _ELEMENT_NAME.sub(r"\1x", _MARKED.sub(" ", text))  # <{{ g.ordered|yesno:"ol,ul" }} …>
    return _TAG.sub(" ", _COMMENT.sub(" ", text))


class _Finder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self._hidden = [], 0

    def _note(self, text, where):
        text = " ".join(text.split())
        if _LETTER.search(text) and text not in EXCEPTIONS:
            self.found.append((self.getpos()[0], where, text))

    def handle_starttag(self, tag, attrs):
        if tag in _HIDDEN:
            self._hidden += 1
        values = dict(attrs)
        for name, value in attrs:
            button = name == "value" and tag == "input" and values.get("type") in ("submit", "button", "reset")
            if value and (name in SHOWN_ATTRIBUTES or button):
                self._note(value, f"<{tag} {name}>")

    def handle_endtag(self, tag):
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)

    def handle_data(self, data):
        if not self._hidden:
            self._note(data, "text")


def findings(source):
    """(line, where, text) of each unmarked English string of a template's source."""
    finder = _Finder()
    finder.feed(_blank(source))
    finder.close()
    return finder.found
