"""Settings read from the environment, in one place.

Every external part is chosen by an environment variable; when one is unset the embedded
development part is used instead (see ``libs.devstack``). Secrets never have a default that
would be safe in production: the development defaults below are generated per data folder.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    """Folder for the embedded stack's data (PostgreSQL cluster, Celery queue, dev secrets)."""
    return Path(os.environ.get("ARCANA_DATA_DIR", PROJECT_ROOT / ".arcana")).resolve()


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
    """The integer setting ``name``, or ``default`` when it is unset (``ValueError`` if not an int)."""
    return int(os.environ.get(name, default))


def database_url() -> str:
    """``DATABASE_URL`` (or the file named by ``DATABASE_URL_FILE``), or else the URL of the
    database a running ``make run`` started (recorded in ``<ARCANA_DATA_DIR>/database-url``).

    Raises ``DatabaseNotFound`` (a ``KeyError``) when neither is there."""
    url = secret_from_env("DATABASE_URL") or _recorded(DATABASE_URL_FILE)
    if url:
        return url
    raise DatabaseNotFound(
        f"DATABASE_URL is not set and no embedded stack is running ({stack_database_file()} is missing): "
        "set DATABASE_URL, or start the stack with `make run`"
    )


def kafka_bootstrap() -> str:
    """``KAFKA_BOOTSTRAP_SERVERS``, or else the broker a running ``make run`` started (recorded in
    ``<ARCANA_DATA_DIR>/kafka-bootstrap``). Raises ``KafkaNotFound`` when neither is there."""
    bootstrap = os.environ.get("KAFKA_BOOTSTRAP_SERVERS") or _recorded(KAFKA_BOOTSTRAP_FILE)
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
        kafka_bootstrap_servers=os.environ.get("KAFKA_BOOTSTRAP_SERVERS", ""),
        celery_broker_url=secret_from_env("CELERY_BROKER_URL") or "",
        token_secret=secret_from_env("ARCANA_TOKEN_SECRET") or _dev_secret("token_secret"),
        token_ttl_seconds=int(os.environ.get("ARCANA_TOKEN_TTL_SECONDS", "3600")),
        operator_token=secret_from_env("ARCANA_OPERATOR_TOKEN"),
        max_body_bytes=int(os.environ.get("ARCANA_MAX_BODY_BYTES", str(64 * 1024))),
        token_secret_previous=secret_from_env("ARCANA_TOKEN_SECRET_PREVIOUS") or None,
        operator_tokens=secret_from_env("ARCANA_OPERATOR_TOKENS"),
    )
