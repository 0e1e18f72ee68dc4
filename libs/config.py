"""Settings read from the environment, in one place.

Every setting is declared once below (a ``Setting``: its name, type, default and doc; ``SETTINGS``
lists them, and the settings table of ``docs/operations.md`` is generated from it) and read here
only: other modules call ``<SETTING>.get()``, and a test finds any other read of the environment in
``libs`` and ``services``. Every external part is chosen by an environment variable; when one is
unset the embedded development part is used instead (see ``libs.devstack``). Secrets never have a
default that would be safe in production: the development defaults below are generated per data
folder.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

PROJECT_ROOT = Path(__file__).resolve().parent.parent
T = TypeVar("T")


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One setting: the environment variable ``name``, read by ``parse`` (its type), ``default`` when
    it is unset or empty, ``doc`` for the operators' table. A ``secret`` may be given as a file
    instead, named by ``<name>_FILE`` (Kubernetes mounts each Secret key as a file)."""

    name: str
    parse: Callable[[str], T]
    default: T
    doc: str
    secret: bool = False

    def get(self) -> T:
        """The value now (``ValueError``, naming the setting, for one its type refuses)."""
        raw = (secret_from_env(self.name) if self.secret else os.environ.get(self.name, "")) or ""
        if not raw.strip():
            return self.default
        try:
            return self.parse(raw.strip())
        except ValueError as exc:
            raise ValueError(f"{self.name}: {exc}") from None


@dataclass(frozen=True)
class SettingFamily(Generic[T]):
    """Settings named by a pattern (``ARCANA_{}_SCHEMA``: one per service), each with the default its
    user gives."""

    pattern: str
    parse: Callable[[str], T]
    doc: str

    def of(self, part: str, default: T) -> Setting[T]:
        return Setting(self.pattern.format(part.upper()), self.parse, default, self.doc)

    def get(self, part: str, default: T) -> T:
        return self.of(part, default).get()


def _flag(raw: str) -> bool:
    return raw.lower() in {"on", "1", "yes", "true"}


def _names(raw: str) -> tuple[str, ...]:
    return tuple(n.strip() for n in raw.split(",") if n.strip())


NO_NAMES: tuple[str, ...] = ()


SETTINGS: list[Setting[Any] | SettingFamily[Any]] = []  # in the order of the operators' table
D = TypeVar("D", bound="Setting[Any] | SettingFamily[Any]")


def _declare(setting: D) -> D:
    SETTINGS.append(setting)
    return setting


def _int(name: str, default: int, doc: str) -> Setting[int]:
    return _declare(Setting(name, int, default, doc))


def _float(name: str, default: float, doc: str) -> Setting[float]:
    return _declare(Setting(name, float, default, doc))


def _text(name: str, default: str, doc: str, secret: bool = False) -> Setting[str]:
    return _declare(Setting(name, str, default, doc, secret))


# -- the stack and its parts ----------------------------------------------------------------------
DATA_DIR = _text("ARCANA_DATA_DIR", "", "the embedded stack's data folder (default `.arcana`)")
DATABASE_URL = _text("DATABASE_URL", "", "PostgreSQL (else the running `make run` stack's)", secret=True)
KAFKA_BOOTSTRAP_SERVERS = _text("KAFKA_BOOTSTRAP_SERVERS", "", "the Kafka brokers (else `make run`'s)")
CELERY_BROKER_URL = _text("CELERY_BROKER_URL", "", "Celery's broker (else a folder queue)", secret=True)
SERVICES = _declare(
    Setting("ARCANA_SERVICES", _names, NO_NAMES, "the services a web process serves (all when unset)")
)
LONG_POLLS_AT = _text("ARCANA_LONG_POLLS_AT", "", "host:port of the long-poll process (else served in place)")
GAMES = _declare(
    Setting("ARCANA_GAMES", _names, NO_NAMES, "modules of more games to host (read by libs.games.registry)")
)
SCHEMA = _declare(SettingFamily("ARCANA_{}_SCHEMA", str, "the schema of a service (default: its name)"))
CLOCK_FILE = _text("ARCANA_CLOCK_FILE", "", "a file holding the clock's offset in seconds (tests)")
FAULT = _text("ARCANA_FAULT", "", "a fault to inject (`kill_after_publish`: tests)")
HEARTBEAT_PATH = _text("ARCANA_HEARTBEAT_PATH", "", "the file a relay or consumer touches while alive")
# -- web -------------------------------------------------------------------------------------------
TOKEN_SECRET = _text(
    "ARCANA_TOKEN_SECRET", "", "the key signing tokens, 32 bytes or more (dev: generated)", True
)
TOKEN_SECRET_PREVIOUS = _text("ARCANA_TOKEN_SECRET_PREVIOUS", "", "the previous key, during a rotation", True)
OPERATOR_TOKEN = _text("ARCANA_OPERATOR_TOKEN", "", "the operators' bearer token (admin endpoints)", True)
OPERATOR_TOKENS = _text(
    "ARCANA_OPERATOR_TOKENS", "", "named operator tokens, `name=token` by commas (the audit names them)", True
)
TOKEN_TTL_SECONDS = _int("ARCANA_TOKEN_TTL_SECONDS", 3600, "a token's lifetime")
MAX_BODY_BYTES = _int("ARCANA_MAX_BODY_BYTES", 64 * 1024, "the largest request body (413 beyond)")
TRUSTED_PROXIES = _int("ARCANA_TRUSTED_PROXIES", 0, "proxies in front whose X-Forwarded-For is trusted")
REVOCATION_CACHE_SECONDS = _float(
    "ARCANA_REVOCATION_CACHE_SECONDS", 10.0, "how long a revocation check is cached"
)
PLAYER_LIMIT_PER_WINDOW = _declare(
    SettingFamily(
        "ARCANA_{}_PER_WINDOW", int, "a per-player rate limit's requests per window (libs.kit.limits)"
    )
)
PLAYER_LIMIT_WINDOW_SECONDS = _declare(
    SettingFamily("ARCANA_{}_WINDOW_SECONDS", int, "a per-player rate limit's window (libs.kit.limits)")
)
METRICS_PORT = _declare(
    Setting("ARCANA_METRICS_PORT", int, None, "the port relays, consumers and Celery serve metrics on")
)
PROMETHEUS_MULTIPROC_DIR = _text(
    "PROMETHEUS_MULTIPROC_DIR", "", "the metrics folder shared by a server's processes"
)
LOG_FORMAT = _text("LOG_FORMAT", "json", "`json` lines, or `text`")
LOG_LEVEL = _text("LOG_LEVEL", "INFO", "the logging level")
# -- the database ------------------------------------------------------------------------------------
DB_POOL_MAX = _declare(
    Setting("ARCANA_DB_POOL_MAX", int, None, "a process's connections (else its kind's default)")
)
DB_POOL_TIMEOUT = _float("ARCANA_DB_POOL_TIMEOUT", 5.0, "seconds to wait for a pooled connection (then 503)")
ROLE_PASSWORDS_DIR = _text("ARCANA_ROLE_PASSWORDS_DIR", "", "a folder of the services' role passwords")
IDEMPOTENCY_KEEP_HOURS = _float(
    "ARCANA_IDEMPOTENCY_KEEP_HOURS", 24.0, "how long Idempotency-Key records are kept"
)
INBOX_HORIZON_DAYS = _float("ARCANA_INBOX_HORIZON_DAYS", 30.0, "how long consumers' inbox rows are kept")
CLOSED_TICKETS_KEEP_HOURS = _float(
    "ARCANA_CLOSED_TICKETS_KEEP_HOURS", 24.0, "how long closed tickets are kept"
)
# -- Kafka -------------------------------------------------------------------------------------------
KAFKA_SECURITY_PROTOCOL = _text(
    "KAFKA_SECURITY_PROTOCOL", "PLAINTEXT", "PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL"
)
KAFKA_SASL_USERNAME = _text("KAFKA_SASL_USERNAME", "", "the SASL user")
KAFKA_SASL_PASSWORD = _text("KAFKA_SASL_PASSWORD", "", "the SASL password", secret=True)
KAFKA_SASL_MECHANISM = _text("KAFKA_SASL_MECHANISM", "SCRAM-SHA-512", "the SASL mechanism")
KAFKA_SSL_CAFILE = _text("KAFKA_SSL_CAFILE", "", "the CA file of the brokers' certificates")
KAFKA_GROUP_PREFIX = _text("ARCANA_KAFKA_GROUP_PREFIX", "", "a prefix of every consumer group (tests)")
SCHEMA_CHECK = _text("ARCANA_SCHEMA_CHECK", "log", "relays' check of events: `off`, `log` or `strict`")
# -- `make run` ----------------------------------------------------------------------------------------
PORT = _int("ARCANA_PORT", 8000, "`make run`'s HTTP port")
PG_PORT = _int("ARCANA_PG_PORT", 55432, "the embedded PostgreSQL's port")
KAFKA_PORT = _int("ARCANA_KAFKA_PORT", 19092, "the embedded broker's port")
WEB_WORKERS = _int("ARCANA_WEB_WORKERS", 2, "`make run`'s gunicorn workers")
WEB_THREADS = _declare(Setting("ARCANA_WEB_THREADS", int, None, "threads per worker (else gunicorn_conf's)"))
WAITS = _declare(
    Setting("ARCANA_WAITS", _flag, False, "`on`: the long-polls in a gevent process of their own")
)
WAITS_PORT = _int("ARCANA_WAITS_PORT", 0, "that process's port (0: a free one)")
# -- accounts ----------------------------------------------------------------------------------------
KDF_CONCURRENCY = _int("ARCANA_KDF_CONCURRENCY", 4, "password hashes computed at once per process")
SCRYPT_N = _int("ARCANA_SCRYPT_N", 2**15, "scrypt's cost (a power of two)")
SCRYPT_R = _int("ARCANA_SCRYPT_R", 8, "scrypt's block size")
SCRYPT_P = _int("ARCANA_SCRYPT_P", 3, "scrypt's parallelism")
LOGIN_MAX_PER_USERNAME = _int("ARCANA_LOGIN_MAX_PER_USERNAME", 10, "failed log-ins per username per window")
LOGIN_MAX_PER_ADDRESS = _int("ARCANA_LOGIN_MAX_PER_ADDRESS", 100, "failed log-ins per address per window")
LOGIN_WINDOW_SECONDS = _int("ARCANA_LOGIN_WINDOW_SECONDS", 900, "the log-in limits' window")
LOGIN_DELAY_BASE_SECONDS = _int("ARCANA_LOGIN_DELAY_BASE_SECONDS", 2, "the first delay after failed log-ins")
LOGIN_DELAY_MAX_SECONDS = _int(
    "ARCANA_LOGIN_DELAY_MAX_SECONDS", 900, "the longest delay after failed log-ins"
)
REGISTER_MAX_PER_ADDRESS = _int("ARCANA_REGISTER_MAX_PER_ADDRESS", 10, "registrations per address per window")
REGISTER_WINDOW_SECONDS = _int("ARCANA_REGISTER_WINDOW_SECONDS", 3600, "the registrations' window")
LOGIN_KNOWN_ADDRESS_SECONDS = _int(
    "ARCANA_LOGIN_KNOWN_ADDRESS_SECONDS", 30 * 86_400, "how long an address stays known"
)
# -- economy -----------------------------------------------------------------------------------------
GRANT_MAX_COINS = _int("ARCANA_GRANT_MAX_COINS", 10_000, "the most coins one operator grant gives")
GRANT_MAX_DUST = _int("ARCANA_GRANT_MAX_DUST", 10_000, "the most dust one operator grant gives")
GRANT_MAX_PACKS = _int("ARCANA_GRANT_MAX_PACKS", 20, "the most free packs one operator grant gives")
# -- match -------------------------------------------------------------------------------------------
PRACTICE_MAX_PER_WINDOW = _int(
    "ARCANA_PRACTICE_MAX_PER_WINDOW", 10, "practice matches a player starts per window"
)
PRACTICE_WINDOW_SECONDS = _int("ARCANA_PRACTICE_WINDOW_SECONDS", 60, "the practice limit's window")
LONG_POLLS_PER_PLAYER = _int(
    "ARCANA_LONG_POLLS_PER_PLAYER", 4, "long-polls open at once per player per process"
)
STREAM_HEARTBEAT_SECONDS = _float("ARCANA_STREAM_HEARTBEAT_SECONDS", 10.0, "a match stream's heartbeat")
STREAM_MAX_SECONDS = _float(
    "ARCANA_STREAM_MAX_SECONDS", 600.0, "a match stream's longest life (then it resumes)"
)
STREAMS_PER_PLAYER = _int("ARCANA_STREAMS_PER_PLAYER", 4, "match streams open at once per player per process")


def data_dir() -> Path:
    """Folder for the embedded stack's data (PostgreSQL cluster, Celery queue, dev secrets)."""
    return Path(DATA_DIR.get() or PROJECT_ROOT / ".arcana").resolve()


DATABASE_URL_FILE = "database-url"
KAFKA_BOOTSTRAP_FILE = "kafka-bootstrap"


class DatabaseNotFound(KeyError):
    """Neither ``DATABASE_URL`` nor a running embedded stack's database URL is known."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no database"


class KafkaNotFound(DatabaseNotFound):
    """Neither ``KAFKA_BOOTSTRAP_SERVERS`` nor a running embedded stack's broker is known."""


def stack_database_file() -> Path:
    """Where ``make run`` records the URL of the embedded PostgreSQL it started."""
    return data_dir() / DATABASE_URL_FILE


def _record(name: str, value: str) -> Path:
    """Write ``value`` to ``<ARCANA_DATA_DIR>/<name>`` atomically, readable by the owner only."""
    path = data_dir() / name
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(value + "\n")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return path


def _recorded(name: str) -> str:
    try:
        return (data_dir() / name).read_text().strip()
    except FileNotFoundError:
        return ""


def record_stack_database(url: str) -> Path:
    """Record ``url`` as the embedded stack's database (``make run`` calls it after starting
    PostgreSQL), so tools run without ``DATABASE_URL`` find it. Written atomically; returns the file."""
    return _record(DATABASE_URL_FILE, url)


def record_stack_kafka(bootstrap: str) -> Path:
    """Record the embedded stack's broker, so tools run without ``KAFKA_BOOTSTRAP_SERVERS`` find it."""
    return _record(KAFKA_BOOTSTRAP_FILE, bootstrap)


def forget_stack_database() -> None:
    """Remove the records of the embedded stack's database and broker (``make run`` on stopping)."""
    stack_database_file().unlink(missing_ok=True)
    (data_dir() / KAFKA_BOOTSTRAP_FILE).unlink(missing_ok=True)


def env_int(name: str, default: int) -> int:
    """A benchmark's knob ``name`` (``BENCH_*``, not a setting of the platform), or ``default`` when it
    is unset (``ValueError`` if not an int)."""
    return int(os.environ.get(name, default))


def database_url() -> str:
    """``DATABASE_URL`` (or the file named by ``DATABASE_URL_FILE``), or else the URL of the
    database a running ``make run`` started (recorded in ``<ARCANA_DATA_DIR>/database-url``).

    Raises ``DatabaseNotFound`` (a ``KeyError``) when neither is there."""
    url = DATABASE_URL.get() or _recorded(DATABASE_URL_FILE)
    if url:
        return url
    raise DatabaseNotFound(
        f"DATABASE_URL is not set and no embedded stack is running ({stack_database_file()} is missing): "
        "set DATABASE_URL, or start the stack with `make run`"
    )


def kafka_bootstrap() -> str:
    """``KAFKA_BOOTSTRAP_SERVERS``, or else the broker a running ``make run`` started (recorded in
    ``<ARCANA_DATA_DIR>/kafka-bootstrap``). Raises ``KafkaNotFound`` when neither is there."""
    bootstrap = KAFKA_BOOTSTRAP_SERVERS.get() or _recorded(KAFKA_BOOTSTRAP_FILE)
    if bootstrap:
        return bootstrap
    raise KafkaNotFound(
        "KAFKA_BOOTSTRAP_SERVERS is not set and no embedded stack is running: set it, or start `make run`"
    )


def _dev_secret(name: str) -> str:
    """A random secret kept in the data folder: stable across restarts, never in the repository.

    The folder is made private (0700) and the file is created with mode 0600 from the start (no
    moment where another user could read it), as a temporary file hard-linked into place, which
    fails when the file exists: processes starting together all end up reading the one secret
    that won.
    """
    folder = data_dir() / "secrets"
    path = folder / name
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # mkdir's mode is cut by the umask, and an older folder may be 0755
    if not path.exists():
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_urlsafe(48).encode())
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()


def secret_from_env(name: str) -> str | None:
    """The secret ``name`` from the environment: the content of the file named by ``<name>_FILE``
    (Kubernetes mounts each Secret key as a file), else the variable itself, else None."""
    file = os.environ.get(f"{name}_FILE")
    if file:
        return Path(file).read_text().strip() or None
    return os.environ.get(name) or None


def export_file_secrets(names: tuple[str, ...]) -> None:
    """For code that reads ``os.environ[NAME]`` itself: copy the file of ``NAME_FILE`` into
    ``NAME`` in this process's environment (nothing changes when ``NAME`` is set already)."""
    for name in names:
        if not os.environ.get(name):
            value = secret_from_env(name)
            if value:
                os.environ[name] = value


MIN_TOKEN_SECRET_BYTES = 32


class InsecureSetting(ValueError):
    """A setting too weak to start with (the process refuses to run)."""


@dataclass(frozen=True)
class Settings:
    database_url: str
    kafka_bootstrap_servers: str
    celery_broker_url: str
    token_secret: str
    token_ttl_seconds: int
    operator_token: str | None
    max_body_bytes: int
    # During a key rotation: tokens signed with the previous key are still accepted (never signed).
    token_secret_previous: str | None = None
    # Named operator tokens, `name=token` separated by commas (libs.web.operators): the audit names them.
    operator_tokens: str | None = None

    def __post_init__(self) -> None:
        if len(self.token_secret.encode()) < MIN_TOKEN_SECRET_BYTES:
            raise InsecureSetting(
                f"ARCANA_TOKEN_SECRET must be at least {MIN_TOKEN_SECRET_BYTES} bytes "
                "(e.g. `openssl rand -base64 48`)"
            )


def load() -> Settings:
    """Read the settings; the database is ``database_url()``'s (raises ``DatabaseNotFound``, a
    ``KeyError``, when there is none) and ``InsecureSetting`` stops a token secret shorter than 32
    bytes. Secrets (``DATABASE_URL``, ``ARCANA_TOKEN_SECRET`` and, while rotating it,
    ``ARCANA_TOKEN_SECRET_PREVIOUS``, ``ARCANA_OPERATOR_TOKEN``, ``ARCANA_OPERATOR_TOKENS``,
    ``CELERY_BROKER_URL``) may be given as files with ``<NAME>_FILE``."""
    return Settings(
        database_url=database_url(),
        kafka_bootstrap_servers=KAFKA_BOOTSTRAP_SERVERS.get(),
        celery_broker_url=CELERY_BROKER_URL.get(),
        token_secret=TOKEN_SECRET.get() or _dev_secret("token_secret"),
        token_ttl_seconds=TOKEN_TTL_SECONDS.get(),
        operator_token=OPERATOR_TOKEN.get() or None,
        max_body_bytes=MAX_BODY_BYTES.get(),
        token_secret_previous=TOKEN_SECRET_PREVIOUS.get() or None,
        operator_tokens=OPERATOR_TOKENS.get() or None,
    )
