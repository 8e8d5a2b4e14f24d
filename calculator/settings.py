"""Settings for the mahjong scoring calculator.

Everything that differs between a laptop and production comes from the environment (docs/deployment.md lists
every variable). The defaults are safe: DEBUG is off, and a process that serves requests without DEBUG refuses to
start unless SECRET_KEY and ALLOWED_HOSTS are set. DJANGO_ENV picks the profile:

- ``production`` (the default when DEBUG is off and not under tests): HTTPS only, HSTS, secure cookies, the
  X-Forwarded-Proto header of the reverse proxy trusted, hashed and compressed static files, JSON log lines;
- ``development`` (the default when DEBUG is on): plain HTTP, the development key, readable logs;
- ``test`` (the default under pytest): as development, with DEBUG off.
"""

import json
import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from calculator.plumbing.proxies import DEFAULT_TRUSTED_PROXIES, parse_networks

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None or not value.strip() else value.strip().lower() in ("1", "true", "yes", "on")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
# pytest in this process, or a subprocess a test started (pytest sets PYTEST_CURRENT_TEST while a test runs).
TESTING = "pytest" in sys.modules or "PYTEST_CURRENT_TEST" in os.environ or sys.argv[1:2] == ["test"]
DJANGO_ENV = os.environ.get("DJANGO_ENV", "").strip().lower() or (
    "test" if TESTING else "development" if DEBUG else "production"
)
if DJANGO_ENV not in ("production", "development", "test"):
    raise ImproperlyConfigured(f"DJANGO_ENV must be production, development or test, not {DJANGO_ENV!r}")
PRODUCTION = DJANGO_ENV == "production"

# Commands that neither serve requests nor sign anything may run without the production secrets (a build step
# runs collectstatic before the secrets exist; the scoring CLI is pure computation).
OFFLINE_COMMANDS = {"score", "collectstatic", "compilemessages", "makemessages", "migrate", "createcachetable"}
NEEDS_SECRETS = PRODUCTION and (sys.argv[1] if len(sys.argv) > 1 else None) not in OFFLINE_COMMANDS

SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
SECRET_KEY_FALLBACKS = env_list(
    "SECRET_KEY_FALLBACKS"
)  # old keys while rotating: signatures made with them still verify
if not SECRET_KEY:
    if NEEDS_SECRETS:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. In production set SECRET_KEY to a long random value, e.g. the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`; for local development set DEBUG=1 "
            "(or DJANGO_ENV=development)."
        )
    SECRET_KEY = "dev-only-insecure-key-set-SECRET_KEY-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "" if PRODUCTION else "127.0.0.1,localhost,testserver,[::1]")
if not ALLOWED_HOSTS and NEEDS_SECRETS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS is not set. In production set it to the site's host names, comma-separated "
        "(e.g. ALLOWED_HOSTS=mahjong.example.org); every request for another host is refused."
    )
# Origins (scheme://host) allowed to POST forms besides the site itself, e.g. https://mahjong.example.org
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
    "django_htmx",
    "crispy_forms",
    "crispy_bootstrap5",
    "calculator",
    "calculator.plumbing.ratelimit",
    "calculator.plumbing.health",
]

MIDDLEWARE = [
    "calculator.plumbing.middleware.AccessLogMiddleware",  # one line per request, as the answer leaves (ACCESS_LOG)
    # after a database fault anywhere below, the connection is closed: the next request sees the database anew
    "calculator.plumbing.faults.FreshConnectionAfterFaultMiddleware",
    # Response headers first, so that every answer carries them, whichever layer below made it: a redirect, a
    # static file, a 405, 413, 414, 429, 431 or 503, the health check.
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "calculator.plumbing.middleware.EditLinkMiddleware",  # no-store for a URL with an edit token
    "calculator.plumbing.middleware.RequestLimitsMiddleware",  # 414 / 431 for an oversized request line or headers
    "calculator.plumbing.middleware.HealthCheckMiddleware",  # GET /healthz for load balancers: before the host check
    # pages and partials compressed for phones (a result partial is ~10 KB of HTML, ~2 KB gzipped); static files
    # come precompressed from whitenoise in production and pass through (they carry Content-Encoding already)
    "django.middleware.gzip.GZipMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "calculator.plumbing.middleware.ApiErrorMiddleware",  # every /api/* error answers JSON, whatever layer refused it
    "calculator.plumbing.middleware.BodySizeLimitMiddleware",  # 413 before anything reads an oversized body
    "calculator.plumbing.middleware.RateLimitMiddleware",  # 429 for too many requests from one client, counted in the database
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "calculator.plumbing.faults.DatabaseFaultMiddleware",  # a database fault in a view answers 503 busy, never 500
]
# No sessions: the language choice is Django's language cookie, and nothing else keeps per-visitor state (each
# middleware runs on every request, and the result partial is asked for on every tap).

ROOT_URLCONF = "calculator.urls"
WSGI_APPLICATION = "calculator.wsgi.application"

# The pages are Django templates. The result card and the strip (jinja2/), rendered on every tap, are Jinja2
# templates rendered without Django by calculator/presentation/render.py (the phone runs the same code, issue 22).
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "calculator.plumbing.django_locale.glossary_context",
            ],
        },
    },
]
# A form's widgets (every radio button and option of the calculator's form) are drawn with Django's own Jinja2
# widget templates: the same markup as its Django-template ones (but blank lines between options), in a fifth less
# of the calculator page's time (docs/PERFORMANCE.md § The suite).
FORM_RENDERER = "django.forms.renderers.Jinja2"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # synchronous=FULL keeps each commit on disk before it is answered (a recorded hand survives a power cut).
    # Write-ahead logging (readers never wait for the writer, a commit appends to the log; it matters because every
    # request writes, the rate limit counts reads too: docs/PERFORMANCE.md § The rate limiter's cost) is switched
    # on when a connection opens (calculator/plumbing/sqlite.py), not here: on a read-only file that statement
    # fails, and an init_command that fails fails every connection, so not a page could be read.
    DATABASES["default"].setdefault("OPTIONS", {})["init_command"] = "PRAGMA synchronous=FULL;"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "Asia/Shanghai"
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# The offline pack (issue 22, calculator/offline/): the pinned Pyodide that `npm ci` installs, served as static
# files under offline/pyodide/ (compressed and cached like every static file), and the app's zip with the
# manifest that `manage.py build_offline_pack` writes into OFFLINE_PACK_DIR (served by calculator.offline.served).
OFFLINE_RUNTIME_DIR = BASE_DIR / "node_modules" / "pyodide"
OFFLINE_PACK_DIR = Path(os.environ.get("OFFLINE_PACK_DIR") or BASE_DIR / "build" / "offline")
OFFLINE_RUNTIME_PREFIX = "offline/pyodide"  # + "-<npm version>/": a new runtime is a new URL, never a stale copy
if (OFFLINE_RUNTIME_DIR / "package.json").is_file():
    OFFLINE_RUNTIME_PREFIX += "-" + json.loads((OFFLINE_RUNTIME_DIR / "package.json").read_text())["version"]
    STATICFILES_DIRS.append((OFFLINE_RUNTIME_PREFIX, OFFLINE_RUNTIME_DIR))
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# In production (STATIC_MANIFEST on by default there) pages link to hashed names (app.3f2a….css) that
# `collectstatic` wrote into STATIC_ROOT with .gz and .br twins; whitenoise serves them compressed and cached
# forever. Without collectstatic every page fails loudly ("Missing staticfiles manifest entry").
# Development and tests serve the files in static/ as they are.
STATIC_MANIFEST = env_bool("STATIC_MANIFEST", PRODUCTION)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
# Files served at the site's root as they are: the service worker (public/sw.js), whose scope must cover the pages.
WHITENOISE_ROOT = BASE_DIR / "public"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"

# A strict policy: every script and style comes from our own static files.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:", "blob:"],  # blob: the verdict's picture, drawn in the phone (static/js/picture.js)
    "connect-src": [CSP.SELF],
    "worker-src": [CSP.SELF],  # the service worker, public/sw.js
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

# HTTPS and the reverse proxy. TRUSTED_PROXIES are the addresses (or networks) of the reverse proxies and load
# balancers in front of the app server: FORWARDED_ALLOW_IPS, the variable gunicorn itself reads to believe their
# X-Forwarded-Proto (is this HTTPS?), so that one setting names them for both. The rate limit's client address is
# taken from X-Forwarded-For only when the connection comes from one of them, walking the header from its right end
# past every trusted proxy (calculator.plumbing.proxies.client_address); Django reads the scheme gunicorn decided
# (wsgi.url_scheme; no SECURE_PROXY_SSL_HEADER: Django would take that header from anyone). Default: this machine
# (loopback). TRUSTED_PROXIES, the name before issue 31, is read when FORWARDED_ALLOW_IPS is not set.
_PROXIES_FROM = "FORWARDED_ALLOW_IPS" if os.environ.get("FORWARDED_ALLOW_IPS") else "TRUSTED_PROXIES"
try:
    TRUSTED_PROXIES = parse_networks(os.environ.get(_PROXIES_FROM) or DEFAULT_TRUSTED_PROXIES)
except ValueError as error:
    raise ImproperlyConfigured(f"{_PROXIES_FROM}: {error}; give addresses or networks, comma-separated") from None
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # load balancers probe over plain HTTP
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", PRODUCTION)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", PRODUCTION)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"  # share links carry the hand in the query string: keep it on this site
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_COOKIE_SECURE = LANGUAGE_COOKIE_SECURE = env_bool("SECURE_COOKIES", PRODUCTION)
LANGUAGE_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = LANGUAGE_COOKIE_SAMESITE = "Lax"
CSRF_FAILURE_VIEW = "calculator.plumbing.error_pages.csrf_failure"

# Request size caps. Forms: Django's own limits (a 400 beyond them). /api/*: BodySizeLimitMiddleware answers 413
# for a body over API_MAX_BODY_BYTES before anything reads it (a score request is well under 1 KiB).
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 256 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env_int("DATA_UPLOAD_MAX_NUMBER_FIELDS", 200)
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024)
# The request line and headers (RequestLimitsMiddleware: 414 / 431, JSON under /api/). nginx in front accepts more
# (large_client_header_buffers in deploy/nginx.conf), so that these are the limits a client meets.
LIMIT_REQUEST_LINE = env_int("LIMIT_REQUEST_LINE", 4094)
LIMIT_REQUEST_FIELDS = env_int("LIMIT_REQUEST_FIELDS", 60)
LIMIT_REQUEST_FIELD_SIZE = env_int("LIMIT_REQUEST_FIELD_SIZE", 8190)

# Rate limits per client address, "count/seconds", counted in the database so that every server process on every
# machine shares them (calculator/plumbing/ratelimit). Generous: a table of four scoring every hand never comes near them.
# A request over a limit gets 429 with Retry-After; a write the database cannot count gets 503 with Retry-After.
# Off by default under tests (most tests use no database); the rate limit tests switch it on.
RATE_LIMIT_ENABLED = env_bool("RATE_LIMIT_ENABLED", not TESTING)
RATE_LIMITS = {
    "read": os.environ.get("RATE_LIMIT_READ", "1800/60"),  # GET and HEAD: pages, the result partial, table reads
    "write": os.environ.get("RATE_LIMIT_WRITE", "600/60"),  # any write: scoring, recording hands, the page's POST
    "create": os.environ.get("RATE_LIMIT_CREATE", "120/3600"),  # new tables (API and page), on top of "write"
}
# A heavy read (a table of more than RATE_LIMIT_HEAVY_ENTRIES entries: its page, live part, JSON or CSV) counts as
# RATE_LIMIT_HEAVY_COST reads, and one client runs at most RATE_LIMIT_HEAVY_CONCURRENT of them at once on all the
# workers together; a third is refused (429, Retry-After: 1). Scores and light reads are never held back by them.
RATE_LIMIT_HEAVY_COST = env_int("RATE_LIMIT_HEAVY_COST", 20)
RATE_LIMIT_HEAVY_CONCURRENT = env_int("RATE_LIMIT_HEAVY_CONCURRENT", 2)
RATE_LIMIT_HEAVY_ENTRIES = env_int("RATE_LIMIT_HEAVY_ENTRIES", 100)
# A picture drawn on the server as PNG (a shared link's preview image, issue 32: ~0.2 s of CPU) counts as this many
# writes (a score is one); the reverse proxy and the chat apps keep a drawn one (its URL never changes).
RATE_LIMIT_PICTURE_COST = env_int("RATE_LIMIT_PICTURE_COST", 10)
# Which writes also count as "create": regular expressions over the path.
RATE_LIMIT_CREATE_PATHS = [r"^/api/tables/?$", r"^/tables/new/?$"]

# The table ledger's bounds (API.md, issue 15): hands and events per table (past it, 409 table_full: start a new
# table), tables one client may create per day (past it, 429), and how long a table nobody writes to is kept
# (`manage.py prune_tables`, safe to run from cron: docs/deployment.md).
LEDGER_MAX_HANDS = env_int("LEDGER_MAX_HANDS", 1000)
LEDGER_TABLES_PER_DAY = env_int("LEDGER_TABLES_PER_DAY", 50)
LEDGER_RETENTION_DAYS = env_int("LEDGER_RETENTION_DAYS", 180)
# `/healthz` writes a heartbeat row each time it checks (calculator/plumbing/health); a process that found the
# database healthy less than this many seconds ago answers ok without writing again (a flood of probes costs one
# write a second). Every check writes under tests.
HEALTH_CHECK_REUSE = env_int("HEALTH_CHECK_REUSE", 0 if TESTING else 1)

# Logs go to stdout, one JSON object a line in production (LOG_FORMAT=json|plain); edit tokens are redacted from
# every line (calculator/plumbing/edit_tokens.py). The access log (one line per request, the `access` logger:
# calculator.plumbing.middleware.AccessLogMiddleware) is on in production; runserver writes its own.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json" if PRODUCTION else "plain")
ACCESS_LOG = env_bool("ACCESS_LOG", PRODUCTION)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {
            "()": "calculator.plumbing.jsonlog.PlainFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
        },
        "json": {"()": "calculator.plumbing.jsonlog.JSONFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
        }
    },
    "loggers": {"access": {"handlers": ["console"], "level": "INFO", "propagate": False}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
