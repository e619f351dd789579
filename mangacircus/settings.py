"""MangaCircus settings: every variable is read once, here, from the environment.

A bad value stops the start with a message naming the variable (see docs/configuration.md).
"""
import ipaddress
import re
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from mangacircus import languages

BASE_DIR = Path(__file__).resolve().parent.parent
env = environ.FileAwareEnv()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _raw(name, default):
    value = env.str(name, default=None)
    return default if value is None else value.strip()


def _bool(name, default):
    value = _raw(name, None)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r}: expected one of 1, 0, true, false, yes, no, on, off")


def _int(name, default, minimum=None, maximum=None):
    value = _raw(name, None)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a whole number") from None
    if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ImproperlyConfigured(f"{name}={value!r}: expected a number from {minimum} to {maximum}")
    return number


def _float(name, default, minimum=None, maximum=None):
    value = _raw(name, None)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r}: expected a number") from None
    if number != number or (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
        raise ImproperlyConfigured(f"{name}={value!r}: expected a number from {minimum} to {maximum}")
    return number


def _choice(name, default, choices):
    value = _raw(name, default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r}: expected one of {', '.join(choices)}")
    return value


def _list(name, default):
    value = _raw(name, None)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def _seconds_list(name, default):
    values = []
    for item in _list(name, None) or []:
        try:
            values.append(float(item))
        except ValueError:
            raise ImproperlyConfigured(f"{name}: {item!r} is not a number of seconds") from None
        if not 0 <= values[-1] <= 86_400 * 7:
            raise ImproperlyConfigured(f"{name}: {item!r} is not from 0 to 604800 seconds")
    return values or default


def _networks(name):
    networks = []
    for item in _list(name, []):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"{name}: {item!r} is not an IP address or network") from None
    return networks


def _url(name, default):
    value = _raw(name, default)
    if not value.startswith(("http://", "https://")):
        raise ImproperlyConfigured(f"{name}={value!r}: expected an http:// or https:// URL")
    return value.rstrip("/")


PORT = _int("PORT", 8080, 1, 65535)
# `startall` runs nginx in front of the reader when nginx is installed (ops/nginx.py): "auto", or
# "off" for the reader alone on PORT. Behind nginx the reader listens on 127.0.0.1:READER_PORT.
NGINX = _choice("NGINX", "auto", ("auto", "off"))
READER_PORT = _int("READER_PORT", PORT + 1 if PORT < 65535 else PORT - 1, 1, 65535)
# The sub-path the app is served under behind a proxy ("" at the root); gunicorn reads it too.
SCRIPT_NAME = _raw("SCRIPT_NAME", "").rstrip("/")
if SCRIPT_NAME and (not SCRIPT_NAME.startswith("/") or "//" in SCRIPT_NAME):
    raise ImproperlyConfigured(f"SCRIPT_NAME={SCRIPT_NAME!r}: expected a path such as /manga")
DATA = Path(_raw("DATA", str(BASE_DIR / "data"))).resolve()
_library = _raw("LIBRARY", "")
# Unset, LIBRARY is the demo library beside manage.py, written by the first command that needs it
# (library/demo.py ensure_default), as the README says.
LIBRARY_IS_DEMO = not _library
LIBRARY = Path(_library).resolve() if _library else BASE_DIR / "demo-library"


def _libraries(value, single):
    """LIBRARIES ("Manga=/srv/manga;Comics=/srv/comics") → {name: folder}, in that order; unset,
    the one LIBRARY as a library named "Library" (docs/configuration.md, "Several libraries")."""
    if not value:
        return {"Library": single}
    if _library:
        raise ImproperlyConfigured("set LIBRARY or LIBRARIES, not both: LIBRARIES names every library")
    found = {}
    for item in (i.strip() for i in value.split(";")):
        name, sep, path = (part.strip() for part in item.partition("="))
        if not item:
            continue
        if not sep or not name or not path:
            raise ImproperlyConfigured(f"LIBRARIES: {item!r} is not name=/path/to/folder")
        if len(name) > 100 or any(c in name for c in "/\\\0") or name.casefold() in {n.casefold() for n in found}:
            raise ImproperlyConfigured(f"LIBRARIES: {name!r} is repeated, or not a name (no slashes, at most 100)")
        root = Path(path).resolve()
        for other, folder in found.items():
            if root == folder or root.is_relative_to(folder) or folder.is_relative_to(root):
                raise ImproperlyConfigured(f"LIBRARIES: the folders of {other!r} and {name!r} overlap; "
                                           "each library needs a folder of its own")
        found[name] = root
    if not found:
        raise ImproperlyConfigured("LIBRARIES is set but names no library")
    return found


# name → folder, in the order given; the first is LIBRARY for what knows one folder only.
LIBRARIES = _libraries(_raw("LIBRARIES", ""), LIBRARY)
LIBRARY = next(iter(LIBRARIES.values()))
LIBRARY_IS_DEMO = LIBRARY_IS_DEMO and not _raw("LIBRARIES", "")
_backup = _raw("BACKUP", "")
BACKUP = Path(_backup).resolve() if _backup else None
SIGNUP = _choice("SIGNUP", "closed", ("closed", "open"))
SCAN_INTERVAL = _int("SCAN_INTERVAL", 5, 0, 10_000)  # minutes; 0 turns the periodic check off
FULL_SCAN_INTERVAL = _int("FULL_SCAN_INTERVAL", 1440, 0, 1_000_000)
# Seconds a chapter folder must stay unchanged before a scan indexes it (a copy still running is
# left out until then, library/scan.py); 0 indexes folders as soon as they are seen.
SCAN_SETTLE = _float("SCAN_SETTLE", 5, 0, 3600)
# Header reads at once during a scan. Measured (bench/imagesize_bench.py, 2 CPUs): warm reads take
# ~20 µs a page alone and 2-5x longer in a pool (the GIL); a cold disk gains only ~25 % from 4-8.
SCAN_CONCURRENCY = _int("SCAN_CONCURRENCY", 1, 1, 64)
# Megabytes of DATA/page-cache/: the pages of solid archives (solid RAR, 7z), unpacked once
# (library/pagecache.py); the least recently read archives go first.
PAGE_CACHE_MB = _int("PAGE_CACHE_MB", 2048, 16, 1_000_000)
DEFAULT_DIRECTION = _choice("DEFAULT_DIRECTION", "rtl", ("rtl", "ltr", "ttb"))


def _directions(value):
    """LIBRARY_DIRECTIONS ("Comics=ltr;Webtoons=ttb") → {library: direction}; the others read DEFAULT_DIRECTION."""
    found = {}
    for item in (i.strip() for i in value.split(";") if i.strip()):
        name, _, direction = (part.strip() for part in item.partition("="))
        if name not in LIBRARIES:
            raise ImproperlyConfigured(f"LIBRARY_DIRECTIONS: {name!r} is not one of LIBRARIES ({', '.join(LIBRARIES)})")
        if direction not in ("rtl", "ltr", "ttb"):
            raise ImproperlyConfigured(f"LIBRARY_DIRECTIONS: {item!r}: expected {name}=rtl, ltr or ttb")
        found[name] = direction
    return found


LIBRARY_DIRECTIONS = _directions(_raw("LIBRARY_DIRECTIONS", ""))
COOKIE_SECURE = _bool("COOKIE_SECURE", False)
SCRAPER_URL = _url("SCRAPER_URL", "http://127.0.0.1:8091")
SCRAPER_TOKEN = _raw("SCRAPER_TOKEN", "")
STALL_SECONDS = _int("STALL_SECONDS", 120, 1, 86_400)
# The scraper daemon's limits (docs/scraper.md). Seconds unless named otherwise.
SCRAPER_CONNECT_TIMEOUT = _float("SCRAPER_CONNECT_TIMEOUT", 10, 0.1, 600)
SCRAPER_READ_TIMEOUT = _float("SCRAPER_READ_TIMEOUT", 30, 0.1, 600)  # no byte for this long: abort
SCRAPER_PAGE_DEADLINE = _float("SCRAPER_PAGE_DEADLINE", 120, 0.5, 3600)  # one request, all bytes
SCRAPER_MAX_PAGE_MB = _int("SCRAPER_MAX_PAGE_MB", 50, 1, 4096)
SCRAPER_REQUEST_RETRIES = _int("SCRAPER_REQUEST_RETRIES", 4, 0, 20)  # 5xx/timeouts, within one attempt
SCRAPER_RETRY_BASE = _float("SCRAPER_RETRY_BASE", 2, 0, 600)  # full-jitter backoff base
SCRAPER_JOB_RETRY_DELAYS = _seconds_list("SCRAPER_JOB_RETRY_DELAYS", [60, 300, 1800])  # then failed
SCRAPER_MIN_FREE_MB = _int("SCRAPER_MIN_FREE_MB", 200, 0, 10_000_000)
SCRAPER_LIBRARY_RETRY = _float("SCRAPER_LIBRARY_RETRY", 30, 0.1, 3600)  # a missing or read-only LIBRARY
# Folders the folder source may import from; empty turns folder imports off.
SCRAPER_IMPORT_ROOTS = [Path(p).resolve() for p in _list("SCRAPER_IMPORT_ROOTS", [])]
# Extra source modules to load (dotted paths), besides the built-in ones.
SCRAPER_SOURCES = _list("SCRAPER_SOURCES", [])
# Another base for the MangaDex module (a mirror, a caching proxy, a test server); covers and the
# image report then go to the same base, and its host:port may be a private address.
MANGADEX_API_URL = _url("MANGADEX_API_URL", "https://api.mangadex.org")
MANGADEX_AUTH_URL = _url("MANGADEX_AUTH_URL", "https://auth.mangadex.org")  # its OAuth server (accounts)
# Metadata providers (docs/metadata.md): which ones `runmetadata` asks, in order ("" turns it off:
# nothing is sent anywhere), their bases (a test server or proxy may be on the LAN), the score a
# match needs to be taken without an admin, and the days before a matched manga is asked again.
METADATA_PROVIDERS = _list("METADATA_PROVIDERS", [])
for _provider in METADATA_PROVIDERS:
    if _provider not in ("anilist", "mangaupdates", "mangadex"):
        raise ImproperlyConfigured(f"METADATA_PROVIDERS: {_provider!r} is not one of anilist, mangaupdates, mangadex")
ANILIST_API_URL = _url("ANILIST_API_URL", "https://graphql.anilist.co")
MANGAUPDATES_API_URL = _url("MANGAUPDATES_API_URL", "https://api.mangaupdates.com/v1")
METADATA_THRESHOLD = _float("METADATA_THRESHOLD", 0.85, 0, 1)
METADATA_REFRESH_DAYS = _int("METADATA_REFRESH_DAYS", 30, 1, 3650)
# Trackers (docs/trackers.md): each user's AniList, MyAnimeList and MangaUpdates list kept in step.
# AniList and MyAnimeList are offered once their client id is set (an app registered with them,
# whose redirect address is PUBLIC_URL's /settings/user/apps/trackers/<tracker>/callback/).
ANILIST_OAUTH_URL = _url("ANILIST_OAUTH_URL", "https://anilist.co/api/v2/oauth")
ANILIST_CLIENT_ID = _raw("ANILIST_CLIENT_ID", "")
ANILIST_CLIENT_SECRET = _raw("ANILIST_CLIENT_SECRET", "")
MAL_API_URL = _url("MAL_API_URL", "https://api.myanimelist.net/v2")
MAL_OAUTH_URL = _url("MAL_OAUTH_URL", "https://myanimelist.net/v1/oauth2")
MAL_CLIENT_ID = _raw("MAL_CLIENT_ID", "")
MAL_CLIENT_SECRET = _raw("MAL_CLIENT_SECRET", "")
MANGAUPDATES_TRACKER = _bool("MANGAUPDATES_TRACKER", True)
TRUSTED_PROXIES = _networks("TRUSTED_PROXIES")


def _header_name(name):
    value = _raw(name, "")
    if value and not re.fullmatch(r"[A-Za-z0-9-]{1,64}", value):
        raise ImproperlyConfigured(f"{name}={value!r}: expected a header name such as Remote-User")
    return value


# Sign-in by a trusted proxy's header (Authelia, Authentik forward auth; docs/accounts.md): the header
# naming the user ("" turns it off), the one listing their groups, the group that makes an admin, and
# whether a name the server does not know gets an account.
REMOTE_USER_HEADER = _header_name("REMOTE_USER_HEADER")
REMOTE_GROUPS_HEADER = _header_name("REMOTE_GROUPS_HEADER")
if REMOTE_USER_HEADER and not TRUSTED_PROXIES:
    raise ImproperlyConfigured("REMOTE_USER_HEADER is set but TRUSTED_PROXIES is not: the header is believed only "
                               "from the proxies listed there")
REMOTE_ADMIN_GROUP = _raw("REMOTE_ADMIN_GROUP", "")
REMOTE_SIGNUP = _bool("REMOTE_SIGNUP", False)
# Sign-in with OpenID Connect (Authentik, Authelia, Keycloak, Pocket ID; docs/accounts.md): the
# issuer ("" turns it off), this app's client at the provider, the claims that name the user and
# list their groups, the group that makes an admin, whether a new name gets an account, and the
# button's label. PASSWORD_LOGIN=0 leaves the web to the provider or the proxy (apps keep theirs).
OIDC_ISSUER = _url("OIDC_ISSUER", "") if _raw("OIDC_ISSUER", "") else ""
OIDC_CLIENT_ID = _raw("OIDC_CLIENT_ID", "")
OIDC_CLIENT_SECRET = _raw("OIDC_CLIENT_SECRET", "")
if OIDC_ISSUER and not OIDC_CLIENT_ID:
    raise ImproperlyConfigured("OIDC_ISSUER is set but OIDC_CLIENT_ID is not: the provider knows this app by its "
                               "client id")
OIDC_USERNAME_CLAIM = _raw("OIDC_USERNAME_CLAIM", "preferred_username") or "preferred_username"
OIDC_GROUPS_CLAIM = _raw("OIDC_GROUPS_CLAIM", "groups") or "groups"
OIDC_ADMIN_GROUP = _raw("OIDC_ADMIN_GROUP", "")
OIDC_SIGNUP = _bool("OIDC_SIGNUP", False)
OIDC_PROVIDER_NAME = _raw("OIDC_PROVIDER_NAME", "") or "OpenID Connect"
PASSWORD_LOGIN = _bool("PASSWORD_LOGIN", True)
if not PASSWORD_LOGIN and not (OIDC_ISSUER or REMOTE_USER_HEADER):
    raise ImproperlyConfigured("PASSWORD_LOGIN=0 needs OIDC_ISSUER or REMOTE_USER_HEADER: without a password, an "
                               "OpenID provider or a proxy, nobody could sign in on the web")
# Passkeys (accounts/passkey_ceremony.py) are bound to this host name; unset, to the host name each
# request asks for. Set it to the parent domain to keep passkeys working when the reader moves
# between its subdomains; it must be the page's host name or a domain that ends it.
WEBAUTHN_RP_ID = _raw("WEBAUTHN_RP_ID", "").strip().lower()
ALLOWED_HOSTS = _list("ALLOWED_HOSTS", ["*"])
if "*" not in ALLOWED_HOSTS:
    # The machine itself may always ask (health checks, `curl localhost`); a DNS-rebinding page
    # sends its own host name, not one of these.
    ALLOWED_HOSTS += [h for h in ("localhost", "127.0.0.1", "[::1]") if h not in ALLOWED_HOSTS]
DEBUG = _bool("DEBUG", False)
# gunicorn's access log costs about a fifth of a small request; a reverse proxy keeps its own.
ACCESS_LOG = _bool("ACCESS_LOG", True)
# Seconds a client has to send a whole request, head and body, before `serve` answers 408 and
# closes (mangacircus/gworker.py); the request is read by the worker's loop, not by a request thread.
HEADER_TIMEOUT = _float("HEADER_TIMEOUT", 10, 1, 300)
# log2 of the scrypt cost N for new password hashes (2^17 = 128 MiB, ~0.6 s). Tests lower it.
SCRYPT_LOG_N = _int("SCRYPT_LOG_N", 17, 10, 20)
# Hand /lib/ files to a reverse proxy after the auth check: "" (off), "x-accel-redirect", "x-sendfile".
SENDFILE_HEADER = _choice("SENDFILE_HEADER", "", ("", "x-accel-redirect", "x-sendfile"))
SENDFILE_PREFIX = _raw("SENDFILE_PREFIX", "/protected-library/")
# Page URLs nginx's secure_link checks by itself (library/links.py): "" (off) or "signed", and how
# long such a link lives at most, in seconds.
IMAGE_LINKS = _choice("IMAGE_LINKS", "", ("", "signed"))
IMAGE_LINK_SECONDS = _int("IMAGE_LINK_SECONDS", 600, 60, 86_400)
# The reading apps' routes (/komga/: Mihon, Komelia, KMReader; /opds/): HTTP Basic, API keys and
# their session cookie (docs/apps.md). 0 turns them off: every such route answers 404.
APPS_API = _bool("APPS_API", True)


def _allowlist(name):
    """Hosts and IP networks that webhooks may reach although they are not public addresses."""
    entries = []
    for item in _list(name, []):
        try:
            entries.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            if not re.fullmatch(r"(?i)[a-z0-9]([a-z0-9-]{0,62}\.?)*", item) or len(item) > 253:
                raise ImproperlyConfigured(f"{name}: {item!r} is no host name, IP address or network") from None
            entries.append(item.lower().rstrip("."))
    return entries


# Webhooks never reach loopback, private, link-local or metadata addresses, unless listed here
# (a LAN ntfy or Gotify: "ntfy.lan, 192.168.1.0/24").
WEBHOOK_ALLOW = _allowlist("WEBHOOK_ALLOW")
# Peers likewise: a peer on the LAN or on this machine is reached only when listed here (docs/peering.md).
PEER_ALLOW = _allowlist("PEER_ALLOW")
# The address people open the reader at (https://manga.example.org), for links in webhook messages.
PUBLIC_URL = _url("PUBLIC_URL", "") if _raw("PUBLIC_URL", "") else ""
# The `sub` of Web Push's VAPID claims (reader/webpush.py): how a push service's operator may reach
# this server's, a mailto: or https: URL. Unset: PUBLIC_URL when it is https, else a placeholder.
PUSH_CONTACT = _raw("PUSH_CONTACT", "")
if PUSH_CONTACT and not re.fullmatch(r"mailto:[^@\s]+@[^@\s]+\.[^@\s]+|https://[^/\s]+\S*", PUSH_CONTACT):
    raise ImproperlyConfigured(f"PUSH_CONTACT={PUSH_CONTACT!r}: expected mailto:you@example.org or an https:// URL")


# Django's signing key (it signs the messages cookie). Unset, it comes from DATA/secret_key, which
# the processes that need it make when they start (mangacircus/secretkey.py): importing the settings
# writes nothing, and Django refuses to use the key while it is still empty.
SECRET_KEY = _raw("SECRET_KEY", "")

INSTALLED_APPS = [
    "django.contrib.staticfiles",
    "django.contrib.messages",
    "mangacircus",
    "accounts",
    "catalog",  # before shelf: catalog.json is open when the shelf's caches are first built
    "reader",
    "shelf",
    "clients",
    "peers",
    "library",  # after the apps that register scan hooks: the first scan starts here
    "scraper",
    "imports",
    "metadata",
    "trackers",
    "ops",  # last: the backup schedule starts once every state file is open
]

MIDDLEWARE = [
    # Before whitenoise, so static files get the headers too.
    "django.middleware.security.SecurityMiddleware",  # X-Content-Type-Options
    "django.middleware.clickjacking.XFrameOptionsMiddleware",  # X-Frame-Options
    "mangacircus.middleware.SecurityHeadersMiddleware",  # CSP, Referrer-Policy, COOP
    "mangacircus.middleware.AllowedHostMiddleware",  # 400 for a Host not in ALLOWED_HOSTS
    "mangacircus.middleware.LongUrlMiddleware",  # 414 with the styled page for an address over 8 KB
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "mangacircus.middleware.ApiGuardMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "accounts.middleware.SessionMiddleware",
    "reader.language.LanguageMiddleware",  # after the session: the user's own setting wins
    "reader.linkcookies.LinkCookieMiddleware",  # cover thumbnails nginx serves alone (IMAGE_LINKS)
    "django.contrib.messages.middleware.MessageMiddleware",
    "mangacircus.middleware.ErrorPageMiddleware",  # the styled error page for an empty error answer
]

ROOT_URLCONF = "mangacircus.urls"
WSGI_APPLICATION = "mangacircus.wsgi.application"
DATABASES = {}

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["mangacircus.templatetags.mc"],  # {% route %} and the shared filters, in every template
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.messages.context_processors.messages",
                "reader.context.user_context",
            ],
        },
    },
]

MESSAGE_STORAGE = "django.contrib.messages.storage.cookie.CookieStorage"
CSRF_COOKIE_HTTPONLY = True
CSRF_FAILURE_VIEW = "mangacircus.pages.csrf_failure"  # the styled error page
CSRF_COOKIE_SECURE = COOKIE_SECURE
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Referrer-Policy and Cross-Origin-Opener-Policy come from mangacircus/middleware.py, with the CSP.
SECURE_REFERRER_POLICY = None
SECURE_CROSS_ORIGIN_OPENER_POLICY = None
# `check --deploy` warnings that do not apply (docs/deploy.md): TLS, and with it HSTS (W004) and the
# redirect to https (W008), belong to the reverse proxy in front; Referrer-Policy (W022) is sent by
# mangacircus/middleware.py, not by Django's setting.
SILENCED_SYSTEM_CHECKS = ["security.W004", "security.W008", "security.W022"]
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
USE_X_FORWARDED_HOST = False
if TRUSTED_PROXIES:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# The UI's language when neither the user's setting nor the browser's Accept-Language names an offered
# one (mangacircus/languages.py). POSIX systems set LANGUAGE for gettext ("en_US:en"), so a value naming
# no offered language is English with a warning at start (mangacircus/apps.py), not a refusal.
LANGUAGE_GIVEN = _raw("LANGUAGE", "")
LANGUAGE_CODE, LANGUAGE_KNOWN = languages.from_environment(LANGUAGE_GIVEN)
LANGUAGES = list(languages.NAMES.items())
LANGUAGES_BIDI = sorted(languages.RTL)
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TZ", default="UTC")
USE_I18N = True
USE_TZ = True

# Static URLs carry the sub-path themselves: Django resolves a relative STATIC_URL once, at start,
# before any request has set the script prefix. Whitenoise matches the path after the sub-path.
STATIC_URL = f"{SCRIPT_NAME}/static/"
WHITENOISE_STATIC_PREFIX = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(_raw("STATIC_ROOT", str(DATA / "static")))
STORAGES = {"staticfiles": {"BACKEND": "mangacircus.staticstorage.StaticStorage"}}
WHITENOISE_USE_FINDERS = True
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}  # "Add to home screen" wants this type

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": _choice("LOG_LEVEL", "INFO", ("DEBUG", "INFO", "WARNING", "ERROR"))},
}
