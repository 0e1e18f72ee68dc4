"""Which database a process or tool uses: DATABASE_URL first, else the one `make run` started."""

from __future__ import annotations

from pathlib import Path

import pytest

from libs import config


@pytest.fixture
def data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("ARCANA_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path


def test_database_url_wins_over_the_recorded_stack(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config.record_stack_database("postgresql://postgres@127.0.0.1:1/embedded")
    monkeypatch.setenv("DATABASE_URL", "postgresql://elsewhere/db")
    assert config.database_url() == "postgresql://elsewhere/db"


def test_the_recorded_stack_database_is_used_without_database_url(data_dir: Path) -> None:
    path = config.record_stack_database("postgresql://postgres@127.0.0.1:55432/arcana")
    assert path == data_dir / config.DATABASE_URL_FILE
    assert config.database_url() == "postgresql://postgres@127.0.0.1:55432/arcana"
    assert config.load().database_url == "postgresql://postgres@127.0.0.1:55432/arcana"


def test_no_database_at_all_is_a_clear_error(data_dir: Path) -> None:
    config.record_stack_database("postgresql://postgres@127.0.0.1:55432/arcana")
    config.forget_stack_database()  # what `make run` does on stopping
    with pytest.raises(config.DatabaseNotFound) as raised:
        config.database_url()
    message = str(raised.value)
    assert "DATABASE_URL is not set" in message and "make run" in message
    assert isinstance(raised.value, KeyError)  # load()'s documented error
    with pytest.raises(KeyError):
        config.load()
