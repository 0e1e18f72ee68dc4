"""Issue 12, finding 8: weak token secrets refuse to start; the development secret is private from
the moment it exists; secrets can be read from mounted files (``*_FILE``)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from libs import config


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    monkeypatch.setenv("ARCANA_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    for name in ("ARCANA_TOKEN_SECRET", "ARCANA_TOKEN_SECRET_FILE", "DATABASE_URL_FILE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_a_token_secret_shorter_than_32_bytes_refuses_to_start(env: pytest.MonkeyPatch) -> None:
    env.setenv("ARCANA_TOKEN_SECRET", "s" * 31)
    with pytest.raises(config.InsecureSetting, match="32 bytes"):
        config.load()
    env.setenv("ARCANA_TOKEN_SECRET", "s" * 32)
    assert config.load().token_secret == "s" * 32


def test_the_web_app_refuses_to_start_with_a_short_secret(env: pytest.MonkeyPatch) -> None:
    from libs.kit.web import service_app

    env.setenv("ARCANA_TOKEN_SECRET", "changeme")
    with pytest.raises(config.InsecureSetting):
        service_app("accounts")


def test_the_dev_secret_is_created_private_in_a_private_folder(
    env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # chmod after the fact is not enough: the file must never exist with a wider mode
    env.setattr(os, "chmod", lambda *args, **kwargs: None)
    old_umask = os.umask(0o022)
    try:
        secret = config.load().token_secret
    finally:
        os.umask(old_umask)
    folder = tmp_path / "data" / "secrets"
    assert stat.S_IMODE((folder / "token_secret").stat().st_mode) == 0o600
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert len(secret.encode()) >= 32
    assert [p.name for p in folder.iterdir()] == ["token_secret"]  # no temporary file left
    assert config.load().token_secret == secret  # stable across restarts


def test_an_existing_open_secrets_folder_is_made_private(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    folder = tmp_path / "data" / "secrets"
    folder.mkdir(parents=True)
    folder.chmod(0o755)
    config.load()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_secrets_are_read_from_mounted_files(env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "token").write_text("f" * 40 + "\n")
    (tmp_path / "url").write_text("postgresql://accounts_app@db/arcana\n")
    env.delenv("DATABASE_URL")
    env.setenv("ARCANA_TOKEN_SECRET_FILE", str(tmp_path / "token"))
    env.setenv("DATABASE_URL_FILE", str(tmp_path / "url"))
    settings = config.load()
    assert settings.token_secret == "f" * 40
    assert settings.database_url == "postgresql://accounts_app@db/arcana"
