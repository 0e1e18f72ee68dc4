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


class DatabaseNotFound(KeyError):
    """Neither ``DATABASE_URL`` nor a running embedded stack's database URL is known."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "no database"


def stack_database_file() -> Path:
    """Where ``make run`` records the URL of the embedded PostgreSQL it started."""
    return data_dir() / DATABASE_URL_FILE


def record_stack_database(url: str) -> Path:
    """Record ``url`` as the embedded stack's database (``make run`` calls it after starting
    PostgreSQL), so tools run without ``DATABASE_URL`` find it. Written atomically; returns the file."""
    path = stack_database_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(url + "\n")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return path


def forget_stack_database() -> None:
    """Remove the record of the embedded stack's database (``make run`` calls it on stopping)."""
    stack_database_file().unlink(missing_ok=True)


def database_url() -> str:
    """``DATABASE_URL``, or else the URL of the database a running ``make run`` started (recorded
    in ``<ARCANA_DATA_DIR>/database-url``).

    Raises ``DatabaseNotFound`` (a ``KeyError``) when neither is there."""
    url = os.environ.get("DATABASE_URL")
    if url:
        return url
    path = stack_database_file()
    try:
        recorded = path.read_text().strip()
    except FileNotFoundError:
        recorded = ""
    if recorded:
        return recorded
    raise DatabaseNotFound(
        f"DATABASE_URL is not set and no embedded stack is running ({path} is missing): "
        "set DATABASE_URL, or start the stack with `make run`"
    )


def _dev_secret(name: str) -> str:
    """A random secret kept in the data folder: stable across restarts, never in the repository.

    Written to a temporary file and hard-linked into place, which fails when the file exists:
    processes starting together all end up reading the one secret that won.
    """
    path = data_dir() / "secrets" / name
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(secrets.token_urlsafe(48))
        os.chmod(tmp, 0o600)
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()


@dataclass(frozen=True)
class Settings:
    database_url: str
    kafka_bootstrap_servers: str
    celery_broker_url: str
    token_secret: str
    token_ttl_seconds: int
    operator_token: str | None
    max_body_bytes: int


def load() -> Settings:
    """Read the settings; the database is ``database_url()``'s (raises ``DatabaseNotFound``, a
    ``KeyError``, when there is none)."""
    return Settings(
        database_url=database_url(),
        kafka_bootstrap_servers=os.environ.get("KAFKA_BOOTSTRAP_SERVERS", ""),
        celery_broker_url=os.environ.get("CELERY_BROKER_URL", ""),
        token_secret=os.environ.get("ARCANA_TOKEN_SECRET") or _dev_secret("token_secret"),
        token_ttl_seconds=int(os.environ.get("ARCANA_TOKEN_TTL_SECONDS", "3600")),
        operator_token=os.environ.get("ARCANA_OPERATOR_TOKEN") or None,
        max_body_bytes=int(os.environ.get("ARCANA_MAX_BODY_BYTES", str(64 * 1024))),
    )
