"""Settings shared by every environment, read from environment variables.

With nothing configured the service runs on an embedded default: a SQLite file
in the project folder and Celery tasks run in-process. Set ``DATABASE_URL``
(PostgreSQL) and ``REDIS_URL`` (the Celery broker) to run it for real.

| variable | meaning | default |
|---|---|---|
| ``DATABASE_URL`` | database, e.g. ``postgres://user@host:5432/name`` | SQLite ``db.sqlite3`` |
| ``REDIS_URL`` | Celery broker and result backend | unset: tasks run eagerly |
| ``DJANGO_SECRET_KEY`` | signing key (required in production) | a development key |
| ``DJANGO_DEBUG`` | ``true`` / ``false`` | per settings module |
| ``DJANGO_ALLOWED_HOSTS`` | comma-separated host names | ``localhost,127.0.0.1`` |
"""

import os
from pathlib import Path

import dj_database_url
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parents[3]


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY", "django-insecure-development-key-change-me-for-any-real-deployment"
)
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_celery_beat",
    "axes",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "clabber_league.core",
    "clabber_league.site",  # the home page, health, the service worker
    "clabber_league.demo",  # manage.py seed_demo
    "clabber_league.calculator",
    "clabber_league.clubs",
    "clabber_league.leagues",
    "clabber_league.scheduling",
    "clabber_league.games",
    "clabber_league.backup",
    "clabber_league.standings",
    "clabber_league.members",
    "clabber_league.events",
    "clabber_league.cups",
    "clabber_league.webhooks",
    "clabber_league.federation",  # federations above the clubs (issue 34)
    "clabber_league.live",  # live scores: SSE and polling (issue 35)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # NUL bytes, lone surrogates, control characters: 400 before any view (core/text.py).
    "clabber_league.core.text.HostileTextMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The language of the answer: the member's own, the switcher's, the browser's; English
    # for the API; a club's page may put the club's own before the browser's (club_view).
    "clabber_league.site.locale.LanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Location on the API's 201/202, RateLimit headers where throttled.
    "clabber_league.core.middleware.ApiHeadersMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

# Login throttling (django-axes): after 5 failed logins for one username from one address,
# that pair waits 15 minutes.
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = float(os.environ.get("AXES_COOLOFF_HOURS", "0.25"))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False
# allauth's sign-in form names its field "login" (a username or an email address).
AXES_USERNAME_FORM_FIELD = "login"

# --- Accounts (django-allauth): sign-in, sign-up from an invitation, password reset ----
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_ADAPTER = "clabber_league.members.adapters.AccountAdapter"
ACCOUNT_FORMS = {"login": "clabber_league.members.forms.AxesLoginForm"}
ACCOUNT_LOGOUT_REDIRECT_URL = "home"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Clabber League] "
# django-axes locks a username out after AXES_FAILURE_LIMIT wrong passwords; allauth's own
# failed-login limit would only duplicate it. Its other limits (password reset mails) stay.
ACCOUNT_RATE_LIMITS = {"login_failed": False}
# Two-factor sign-in (allauth.mfa): an authenticator app's codes (TOTP) and recovery
# codes; the QR code is drawn with segno (members.adapters.MFAAdapter). A club may require
# it of its admins (Club.admins_need_mfa).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_ADAPTER = "clabber_league.members.adapters.MFAAdapter"
MFA_TOTP_ISSUER = "Clabber League"
# A member's confirmation PIN: wrong tries before it locks (the member then sets a new one).
MEMBER_PIN_MAX_FAILURES = int(os.environ.get("MEMBER_PIN_MAX_FAILURES", "5"))
# Invitation links last this many days unless the club admin picks another expiry.
MEMBER_INVITATION_DAYS = int(os.environ.get("MEMBER_INVITATION_DAYS", "14"))
# Behind a reverse proxy (docs/production.md): how many proxies in front of the service
# append to X-Forwarded-For. 0: none, the client is REMOTE_ADDR. Login lockouts and API
# throttles key on the same address (clabber_league.core.proxy.client_ip).
TRUSTED_PROXY_COUNT = int(os.environ.get("DJANGO_TRUSTED_PROXY_COUNT") or "0")
AXES_CLIENT_IP_CALLABLE = "clabber_league.core.proxy.client_ip"

# Content-Security-Policy (django-csp): scripts, styles, images and fonts from this site
# only, no inline script or style; 'wasm-unsafe-eval' lets the phone compile the rules
# engine's WebAssembly (Pyodide) and nothing else. The API docs use drf-spectacular's
# split Swagger view, whose script is a file too.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'wasm-unsafe-eval'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

ROOT_URLCONF = "clabber_league.config.urls"
WSGI_APPLICATION = "clabber_league.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "clabber_league.clubs.context_processors.clubs",
            ],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Many scorers on one laptop: wait for the write lock instead of failing at once.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20

# PostgreSQL stops any one statement of a web request after this long (the WSGI and ASGI
# entry points set 15 s; workers, beat and management commands have none). 0: no limit.
DATABASE_STATEMENT_TIMEOUT_MS = int(os.environ.get("DATABASE_STATEMENT_TIMEOUT_MS") or "0")
_POSTGRESQL = DATABASES["default"]["ENGINE"].startswith("django.db.backends.postgresql")
if _POSTGRESQL and DATABASE_STATEMENT_TIMEOUT_MS > 0:
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
        f"-c statement_timeout={DATABASE_STATEMENT_TIMEOUT_MS}"
    )

# The most deals one game takes (a game to 500 never needs 200), and so the most rows of
# one paper-sheet request and the most deals of one POST /api/rules/game.
CLABBER_MAX_DEALS_PER_GAME = int(os.environ.get("CLABBER_MAX_DEALS_PER_GAME") or "200")
# A club night's round drawn for more players than this runs as a Celery task.
CLABBER_EVENT_DRAW_IN_REQUEST = int(os.environ.get("CLABBER_EVENT_DRAW_IN_REQUEST") or "40")

# A game's table link (games.table_links) works this many days after it is issued (0: until
# the game is confirmed or the link revoked). CLABBER_SITE_URL makes the link absolute where
# no request gives the host (a command, a task); pages use the address they were opened with.
CLABBER_TABLE_LINK_DAYS = int(os.environ.get("CLABBER_TABLE_LINK_DAYS") or "7")
# A fixture's table link (printed on the night sheet, maybe weeks ahead): 0 = it works until
# the fixture is decided (or its game confirmed, or the link revoked), N = N days at most.
CLABBER_FIXTURE_LINK_DAYS = int(os.environ.get("CLABBER_FIXTURE_LINK_DAYS") or "0")
CLABBER_SITE_URL = os.environ.get("CLABBER_SITE_URL", "")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The languages of the pages (docs/i18n.md): a member's own choice, else the club's, else the
# browser's, else English (site.locale.LanguageMiddleware). No language prefix in URLs: a
# table link or a QR code printed on a card stays the same in every language.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("nl", "Nederlands"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("cs", "Čeština"),
    ("pl", "Polski"),
    ("hr", "Hrvatski"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "America/Chicago")  # Evansville, Indiana
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    # rules/clabber_rules.zip: clabber_league/rules/ packed for the phones, never stale
    "clabber_league.site.rules_pack.RulesPackFinder",
]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Request-size limits: a deal is a few hundred bytes, a club backup a few megabytes.
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000

# --- Django REST framework -------------------------------------------------
REST_FRAMEWORK = {
    # Token first: a request without credentials gets 401 with WWW-Authenticate: Token.
    # DRF's, reading the club of a club's URL with the token in one query (clubs/authentication).
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "clabber_league.clubs.authentication.ClubTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # API bodies are JSON only (the pages keep their forms): one request body per operation.
    "DEFAULT_PARSER_CLASSES": ["clabber_league.core.text.StrictJSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # Field filters (core/filters: an id that names nothing matches nothing); ?ordering= and
    # ?updated_since= where a view allows them (core/filtering).
    "DEFAULT_FILTER_BACKENDS": [
        "clabber_league.core.filters.FilterBackend",
        "clabber_league.core.filtering.StrictOrderingFilter",
        "clabber_league.core.filtering.UpdatedSinceFilter",
    ],
    # ?page= and ?page_size= (at most 200) on every list.
    "DEFAULT_PAGINATION_CLASS": "clabber_league.core.pagination.PagePagination",
    "PAGE_SIZE": 50,
    # Tags, error responses, Idempotency-Key and public reads for every operation.
    "DEFAULT_SCHEMA_CLASS": "clabber_league.core.schema.AutoSchema",
    # DRF's own throttles read X-Forwarded-For the same way as core.proxy.client_ip.
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    "DEFAULT_THROTTLE_RATES": {
        "calculator": os.environ.get("CALCULATOR_THROTTLE_RATE", "120/minute"),
    },
    "EXCEPTION_HANDLER": "clabber_league.core.api.exception_handler",
}

# The description at the top of /api/docs/, written for people (tokens, errors, paging,
# idempotency, versions, webhooks, a worked example): docs/api-guide.md.
API_GUIDE = BASE_DIR / "docs" / "api-guide.md"
SPECTACULAR_SETTINGS = {
    "TITLE": "Clabber League API",
    "DESCRIPTION": API_GUIDE.read_text(encoding="utf-8")
    if API_GUIDE.is_file()
    else (
        "Score Clabber and Klaberjass deals, run league schedules and read standings. "
        "Club data lives under /api/clubs/{club}/; the rules calculator is open to everyone."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # A cup's format (single/double elimination) and a club night's (individual/pairs) are
    # not a schedule's (round robin/Swiss), which keeps the name clients already use.
    "ENUM_NAME_OVERRIDES": {
        "CupFormatEnum": "clabber_league.cups.models.Cup.Format",
        "EventFormatEnum": "clabber_league.events.models.Event.Format",
        "FormatEnum": "clabber_league.scheduling.models.ScheduleConfig.Format",
        # The rules engine's words (clabber_league.calculator.payloads), one enum each.
        "GameStatusEnum": "clabber_league.games.models.Game.Status",
        "SideEnum": ["A", "B", "C"],
        "TrumpEnum": ["clubs", "diamonds", "hearts", "spades", "none"],
        "WinnerEnum": ["A", "B", "C", "tie"],
        "TableStatusEnum": ["waiting", "playing", "finished"],
        "ConfirmHowEnum": ["own_phone", "pin", "club"],
        # A club night's ranking method, and the two kinds of "state": a schedule run's
        # keeps the name generated clients already know (StateEnum).
        "RankingMethodEnum": "clabber_league.events.models.Event.Ranking",
        "StateEnum": "clabber_league.scheduling.models.ScheduleRun.State",
        "AcceptanceStateEnum": ["entered", "accepted", "waiting"],
        # The events a webhook subscribes to, and a delivery's (the test event too).
        "WebhookEventEnum": "clabber_league.webhooks.api.EVENT_CHOICES",
        "WebhookEventTypeEnum": "clabber_league.webhooks.models.EventType",
    },
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI served from our own static files: the docs work offline too.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    # No deep links: Swagger UI puts each one inside its operation's button (a link in a
    # button, which screen readers cannot use).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    "REDOC_DIST": "SIDECAR",
    "SERVERS": [{"url": "/", "description": "This site (the paths start with /api/)."}],
    "LICENSE": {"name": "MIT", "url": "https://opensource.org/license/mit"},
    "TAGS": [
        {"name": "clubs", "description": "Clubs, members, players; who am I."},
        {"name": "leagues", "description": "House rules, seasons, divisions, teams."},
        {"name": "scheduling", "description": "Venues, fixtures, schedule configs and runs."},
        {"name": "games", "description": "Games, deals, corrections, confirmation, history."},
        {"name": "standings", "description": "Tables, deals, leaderboards, ratings; CSV."},
        {"name": "rules", "description": "The rules calculator, open to anyone."},
        {"name": "members", "description": "Invitations, disputes, confirming at the table."},
        {
            "name": "events",
            "description": "Club nights: events, check-in, rounds and draws, tables, the "
            "night's ranking and prizes, seasons of nights.",
        },
        {"name": "cups", "description": "Cups and play-offs: seeding, the bracket, ties."},
        {
            "name": "webhooks",
            "description": "A club's events POSTed to its URLs, signed (Standard Webhooks): "
            "subscriptions, test events, deliveries and their tries. See docs/webhooks.md.",
        },
        {
            "name": "federation",
            "description": "Federations above the clubs: member clubs, players by federation "
            "number, links of club players to numbers, merges. See docs/federation.md.",
        },
    ],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "clabber_league.core.schema.postprocess_enum_varnames",
        "clabber_league.core.schema.postprocess_path_parameters",
        "clabber_league.core.schema.postprocess_request_examples",
        "clabber_league.core.schema.postprocess_version",
        # A deal sent to be recorded or scored names its maker (null when passed out).
        "clabber_league.games.api.postprocess_maker_required",
        "clabber_league.core.schema.postprocess_request_defaults",
        "clabber_league.core.schema.postprocess_version_component",
        "clabber_league.core.schema.postprocess_text_rules",
    ],
}

# Responses kept for Idempotency-Key replays (core/idempotency.py).
IDEMPOTENCY_RETENTION_HOURS = int(os.environ.get("IDEMPOTENCY_RETENTION_HOURS", "24"))

# --- Celery -----------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")

# The cache holds the API throttles' counts: shared by every process on Redis when
# REDIS_URL is set, so a limit is one limit however many gunicorn workers answer. With
# Redis unreachable it falls back to each process's memory for a few seconds at a time
# (core/cache.py): pages never fail because of the cache.
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "clabber_league.core.cache.ResilientRedisCache",
            "LOCATION": os.environ.get("CACHE_URL") or REDIS_URL,
            "KEY_PREFIX": "clabber",
            "OPTIONS": {
                "socket_connect_timeout": float(os.environ.get("CACHE_CONNECT_TIMEOUT") or "0.5"),
                "socket_timeout": float(os.environ.get("CACHE_TIMEOUT") or "1"),
            },
        }
    }
# --- Live pages (issue 35, docs/live.md) -------------------------------------------------
# Each saved deal's news goes to Redis (pub/sub, and a short log per stream for
# Last-Event-ID); unset: no stream, the live pages poll. LIVE_REDIS_TIMEOUT caps what a
# deal's save may wait for Redis (once per process per 5 s while it is down).
LIVE_REDIS_URL = os.environ.get("LIVE_REDIS_URL") or REDIS_URL
LIVE_REDIS_TIMEOUT = float(os.environ.get("LIVE_REDIS_TIMEOUT") or "0.25")
LIVE_LOG_LENGTH = int(os.environ.get("LIVE_LOG_LENGTH") or "200")
LIVE_LOG_SECONDS = int(os.environ.get("LIVE_LOG_SECONDS") or str(6 * 3600))
LIVE_KEY_PREFIX = os.environ.get("LIVE_KEY_PREFIX") or "clabber:live:"

if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # The embedded default: no broker, every task runs in-process when queued.
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker (or beat) waits out a Redis outage however long it lasts, started before it or
# during it, and picks up its queues again by itself once Redis answers.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Queues (docs/health.md): an interactive draw (a club night's round, a cup's knockout)
# never waits behind a long schedule generation. A worker started without -Q consumes all
# three; a site can give each queue workers of its own (-Q draws, -Q schedules,celery).
CELERY_TASK_DEFAULT_QUEUE = "celery"
CELERY_TASK_QUEUES = [Queue("celery"), Queue("draws"), Queue("schedules")]
CELERY_TASK_ROUTES = {
    "events.draw_round": {"queue": "draws"},
    "cups.build_knockout": {"queue": "draws"},
    "scheduling.generate_schedule": {"queue": "schedules"},
}
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # Publishing from a request: one quick try, so that with Redis down the request answers
    # in well under 2 s saying so. Workers reconnect on their own (the settings below).
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# The result backend (Redis too) likewise: a task sent while Redis is down fails in a moment
# instead of retrying for 19 s and raising RuntimeError.
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_REDIS_SOCKET_TIMEOUT = 5
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.5,
    }
}
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"

EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "league@localhost")
SERVER_EMAIL = os.environ.get("DJANGO_SERVER_EMAIL", DEFAULT_FROM_EMAIL)
# SMTP (with DJANGO_EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend).
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = int(os.environ.get("DJANGO_EMAIL_TIMEOUT", "10"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # django-axes logs every login at INFO; lockouts are warnings and still show.
    "loggers": {"axes": {"level": "WARNING"}},
}

# --- A club of its own (clubs/views.py: sign up, /clubs/new/, the club's settings) --------
# Anyone may sign up (not only holders of an invitation) and create a club once their email
# address is confirmed; CLABBER_CLUB_APPROVAL makes a new club wait for the operator's
# approval (Django admin, "Approve the chosen clubs") before anything in it can change.
CLABBER_SIGNUP_OPEN = env_bool("CLABBER_SIGNUP_OPEN", True)
CLABBER_CLUB_APPROVAL = env_bool("CLABBER_CLUB_APPROVAL", False)
# Against abuse: sign-ups per address (allauth's limit) and clubs one account creates a day.
ACCOUNT_RATE_LIMITS["signup"] = os.environ.get("CLABBER_SIGNUP_RATE", "5/h/ip")
# allauth's limits key on the client's own address behind the proxies, as django-axes does.
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXY_COUNT
CLABBER_CLUBS_PER_DAY = int(os.environ.get("CLABBER_CLUBS_PER_DAY") or "3")
# --- Seeing problems and several machines (docs/operations.md, docs/scaling.md) ---------
# Error reports to Sentry when SENTRY_DSN is set (web, Celery workers and beat alike).
from clabber_league.core.metrics import metrics_address  # noqa: E402
from clabber_league.core.sentry import init_sentry  # noqa: E402

SENTRY_ENABLED = init_sentry()

# A request id on every request (X-Request-ID, the API's error body, every log line) and one
# access line per request with its duration and the client's real address (core/requestlog).
MIDDLEWARE = ["clabber_league.core.requestlog.RequestIdMiddleware", *MIDDLEWARE]
ACCESS_LOG = env_bool("DJANGO_ACCESS_LOG", True)
# DJANGO_LOG_FORMAT: "plain" (one line of text) or "json" (one JSON object a line, the
# production default: see clabber_league/core/logs.py for the fields).
LOGGING["filters"] = {"request_id": {"()": "clabber_league.core.logs.RequestIdFilter"}}
LOGGING["formatters"]["plain"] = {
    "()": "clabber_league.core.logs.PlainFormatter",
    "format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s",
}
LOGGING["formatters"]["json"] = {"()": "clabber_league.core.logs.JsonFormatter"}
LOGGING["handlers"]["console"]["filters"] = ["request_id"]
LOGGING["handlers"]["console"]["formatter"] = os.environ.get("DJANGO_LOG_FORMAT") or "plain"
# Celery's workers log through the same configuration (JSON, with the task's id as the
# request id) instead of replacing it with their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False

# Prometheus metrics only on an address the operator names (METRICS_ADDRESS=host:port,
# served by gunicorn's master: clabber_league/config/gunicorn.py). Unset: none at all.
METRICS_ADDRESS = metrics_address()
if METRICS_ADDRESS is not None:
    INSTALLED_APPS = [*INSTALLED_APPS, "django_prometheus"]
    MIDDLEWARE = [
        "django_prometheus.middleware.PrometheusBeforeMiddleware",
        *MIDDLEWARE,
        "django_prometheus.middleware.PrometheusAfterMiddleware",
    ]

# PgBouncer in transaction pooling (DATABASE_PGBOUNCER=true): a server connection serves
# another client after every transaction, so nothing may live longer than one: no
# server-side cursors (QuerySet.iterator() would open one), no prepared statements
# (psycopg prepares a statement run 5 times), no startup "options" (PgBouncer refuses them:
# give the web role its statement timeout with ALTER ROLE ... SET statement_timeout).
DATABASE_PGBOUNCER = env_bool("DATABASE_PGBOUNCER", False)
if _POSTGRESQL:
    DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env_bool(
        "DATABASE_DISABLE_SERVER_SIDE_CURSORS", DATABASE_PGBOUNCER
    )
    if DATABASE_PGBOUNCER:
        DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = None
        DATABASES["default"]["OPTIONS"].pop("options", None)

# An optional read replica for the standings and leaderboards (core/dbrouter.py): reads of
# the standings app's pages and API go there, except a browser's for a few seconds after it
# wrote. Unset: one database.
DATABASE_REPLICA_ALIAS = ""
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASE_REPLICA_ALIAS = "replica"
    DATABASES[DATABASE_REPLICA_ALIAS] = {
        **dj_database_url.parse(
            os.environ["DATABASE_REPLICA_URL"],
            conn_max_age=DATABASES["default"].get("CONN_MAX_AGE", 0),
            conn_health_checks=True,
        ),
        "OPTIONS": dict(DATABASES["default"].get("OPTIONS", {})),
        "DISABLE_SERVER_SIDE_CURSORS": DATABASES["default"].get(
            "DISABLE_SERVER_SIDE_CURSORS", False
        ),
        # The test run has one database: the replica is the primary's mirror there.
        "TEST": {"MIRROR": "default"},
    }
    DATABASE_ROUTERS = ["clabber_league.core.dbrouter.ReplicaRouter"]
DATABASE_REPLICA_VIEWS = env_list("DATABASE_REPLICA_VIEWS", "clabber_league.standings")
DATABASE_REPLICA_PIN_SECONDS = int(os.environ.get("DATABASE_REPLICA_PIN_SECONDS") or "10")
_AFTER_ID = MIDDLEWARE.index("clabber_league.core.requestlog.RequestIdMiddleware") + 1
MIDDLEWARE = [
    *MIDDLEWARE[:_AFTER_ID],
    "clabber_league.core.dbrouter.ReplicaMiddleware",
    *MIDDLEWARE[_AFTER_ID:],
]

# --- API tokens, rate limits and CORS (docs/api.md) --------------------------------------
# Every authenticated API answer carries RateLimit/RateLimit-Policy: each member's API token
# counts on its own, anything else a person sends (session, older tokens) per person
# (core/throttling.py). CLABBER_API_RATE: requests per second/minute/hour/day.
REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] = ["clabber_league.core.throttling.ApiRateThrottle"]
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["api"] = os.environ.get("CLABBER_API_RATE", "600/minute")
# A club's own web app (another origin) may call the API from a browser: its origins,
# comma-separated (https://app.example.org); none by default. API paths only, with tokens
# (no cookies: CORS_ALLOW_CREDENTIALS stays off), and the headers a client reads exposed.
CLABBER_CORS_ALLOWED_ORIGINS = env_list("CLABBER_CORS_ALLOWED_ORIGINS", "")
INSTALLED_APPS = [*INSTALLED_APPS, "corsheaders"]
# Right after the request id: a preflight is answered there (with its X-Request-ID).
_AFTER_ID = MIDDLEWARE.index("clabber_league.core.requestlog.RequestIdMiddleware") + 1
MIDDLEWARE = [
    *MIDDLEWARE[:_AFTER_ID],
    "corsheaders.middleware.CorsMiddleware",
    *MIDDLEWARE[_AFTER_ID:],
]
CORS_ALLOWED_ORIGINS = CLABBER_CORS_ALLOWED_ORIGINS
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = [
    "accept",
    "authorization",
    "content-type",
    "api-version",
    "idempotency-key",
    "if-none-match",
    "if-match",
    "x-request-id",
]
CORS_EXPOSE_HEADERS = [
    "RateLimit",
    "RateLimit-Policy",
    "Retry-After",
    "X-Request-ID",
    "ETag",
    "Location",
    "API-Version",
    "WWW-Authenticate",
]
CORS_PREFLIGHT_MAX_AGE = 3600
SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]["ApiTokenScopeEnum"] = (
    "clabber_league.clubs.models.ApiToken.Scope"
)

# Webhooks (docs/webhooks.md): a URL on a private, loopback or link-local address is refused
# unless this is on (a receiver on the club's own network; the tests' receiving server).
CLABBER_WEBHOOKS_ALLOW_PRIVATE = env_bool("CLABBER_WEBHOOKS_ALLOW_PRIVATE", False)
# Seconds one try waits for the receiver; days of failed deliveries before it is paused.
CLABBER_WEBHOOKS_TIMEOUT = float(os.environ.get("CLABBER_WEBHOOKS_TIMEOUT") or "10")
CLABBER_WEBHOOKS_DISABLE_AFTER_DAYS = float(
    os.environ.get("CLABBER_WEBHOOKS_DISABLE_AFTER_DAYS") or "5"
)
# Days a delivery that is over (delivered or given up) is kept, with its tries.
CLABBER_WEBHOOKS_KEEP_DAYS = float(os.environ.get("CLABBER_WEBHOOKS_KEEP_DAYS") or "30")

# Federations (issue 34, docs/federation.md): days a federation keeps the record of a player
# who left before the task federation.erase_departed erases it (results stay, anonymous).
CLABBER_FEDERATION_RETENTION_DAYS = int(
    os.environ.get("CLABBER_FEDERATION_RETENTION_DAYS") or "730"
)
