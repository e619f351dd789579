"""The UI's languages (docs/translating.md): which exist, which are offered, and how a language tag
from the environment or a browser's Accept-Language header maps to one of them.

Only languages whose catalog is complete are offered (OFFERED; tests/test_translations.py checks each
of them). A language added to NAMES (settings.LANGUAGES) is offered once its catalog is complete.
"""
from django.utils.translation.trans_real import parse_accept_lang_header

# Each language under its own name, as a reader looking for it recognises it.
NAMES = {
    "en": "English",
    "ja": "日本語",
    "zh-hans": "简体中文",
    "zh-hant": "繁體中文",
    "ko": "한국어",
    "es": "Español",
    "fr": "Français",
    "de": "Deutsch",
    "pt-br": "Português (Brasil)",
    "it": "Italiano",
    "ru": "Русский",
    "ar": "العربية",
}
OFFERED = ("en", "ja", "zh-hans", "zh-hant", "ko", "es", "fr", "de", "pt-br", "it", "ru", "ar")
RTL = {"ar"}
DEFAULT = "en"

# Region tags that name a script rather than a country's own variant.
_REGIONS = {"zh-cn": "zh-hans", "zh-sg": "zh-hans", "zh-tw": "zh-hant", "zh-hk": "zh-hant", "zh-mo": "zh-hant",
            "zh": "zh-hans", "pt": "pt-br"}


def match(tag, among=OFFERED):
    """The language of `among` a tag names ("ja", "ja-JP", "pt_BR", "zh_TW.UTF-8", "zh-Hant-TW"), or None.

    1. Lower-case it, drop a POSIX encoding or modifier (".UTF-8", "@euro"), and read "_" as "-".
    2. The whole tag, when it is a language of its own (zh-hant, pt-br).
    3. Its script (zh-hant-tw → zh-hant), then its country (zh-tw → zh-hant, pt-pt → pt-br).
    4. Its language alone (ja-jp → ja)."""
    tag = tag.strip().split(".")[0].split("@")[0].replace("_", "-").lower()
    parts = tag.split("-")
    tries = [tag, "-".join(parts[:2]), _REGIONS.get("-".join(parts[:2]), ""), _REGIONS.get(parts[0], ""), parts[0]]
    return next((t for t in tries if t in among), None)


def from_environment(value):
    """LANGUAGE's value ("ja", "pt_BR", "en_US:en", "fr:de") → (the first offered language, or
    DEFAULT; whether one matched). POSIX systems set it for gettext, so an unknown one is no error."""
    for tag in value.split(":"):
        found = match(tag) if tag.strip() else None
        if found:
            return found, True
    return DEFAULT, not value.strip()


def from_header(header):
    """The offered language an Accept-Language header prefers most, or None."""
    for tag, _ in parse_accept_lang_header(header or ""):
        if tag == "*":
            return None
        found = match(tag)
        if found:
            return found
    return None


def choices():
    """(code, own name) of each offered language, for a select."""
    return [(code, NAMES[code]) for code in OFFERED]
