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
    """Read the settings; raise ``KeyError`` naming the variable when a required one is missing."""
    return Settings(
        database_url=os.environ["DATABASE_URL"],
        kafka_bootstrap_servers=os.environ.get("KAFKA_BOOTSTRAP_SERVERS", ""),
        celery_broker_url=os.environ.get("CELERY_BROKER_URL", ""),
        token_secret=os.environ.get("ARCANA_TOKEN_SECRET") or _dev_secret("token_secret"),
        token_ttl_seconds=int(os.environ.get("ARCANA_TOKEN_TTL_SECONDS", "3600")),
        operator_token=os.environ.get("ARCANA_OPERATOR_TOKEN") or None,
        max_body_bytes=int(os.environ.get("ARCANA_MAX_BODY_BYTES", str(64 * 1024))),
    )
