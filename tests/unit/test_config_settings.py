"""Settings are declared once, in ``libs/config.py`` (name, type, default, doc), and read there only:
nothing else in ``libs`` or ``services`` reads the environment (a planted read is found), and the
declarations read as they say."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from libs import config
from libs.config import PROJECT_ROOT, Setting
from libs.games import registry

# where the environment is read on purpose, and why
ALLOWED = {
    # the embedded stack hands its children this process's environment (and extends PYTHONPATH)
    "libs/devstack/processes.py",
    # the games' registry is below libs.config (a pure package): it reads its one setting,
    # ``ARCANA_GAMES``, itself; the declaration is config.GAMES (checked below)
    "libs/games/registry.py",
}


def environment_reads(root: Path) -> list[str]:
    """Every read of the environment in ``libs`` and ``services`` (``os.environ``, ``os.getenv``,
    ``env_int``) outside ``libs/config.py``, as ``file:line``."""
    found = []
    for folder in ("libs", "services"):
        for path in sorted((root / folder).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if relative == "libs/config.py" or relative in ALLOWED:
                continue
            found += [f"{relative}:{line}" for line in _reads(ast.parse(path.read_text()))]
    return found


def _reads(tree: ast.AST) -> list[int]:
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr in ("environ", "getenv", "environb")
            and isinstance(node.value, ast.Name)
            and node.value.id == "os"
        ):
            lines.append(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "os":
            if {a.name for a in node.names} & {"environ", "getenv", "environb"}:
                lines.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) == "env_int"
        ):
            lines.append(node.lineno)
    return lines


def test_no_module_but_the_config_reads_the_environment() -> None:
    assert environment_reads(PROJECT_ROOT) == []
    assert config.GAMES.name == registry.GAMES_SETTING


def test_a_planted_read_of_the_environment_is_found(tmp_path: Path) -> None:
    (tmp_path / "libs" / "kit").mkdir(parents=True)
    (tmp_path / "services" / "match").mkdir(parents=True)
    (tmp_path / "libs" / "config.py").write_text("import os\nX = os.environ.get('ARCANA_X')\n")
    (tmp_path / "libs" / "kit" / "leak.py").write_text("import os\n\nPORT = int(os.environ['ARCANA_PORT'])\n")
    (tmp_path / "services" / "match" / "leak.py").write_text(
        "from os import getenv\nfrom libs.config import env_int\n\n"
        "A = getenv('ARCANA_A')\nB = env_int('ARCANA_B', 1)\n"
    )
    assert environment_reads(tmp_path) == [
        "libs/kit/leak.py:3",
        "services/match/leak.py:1",
        "services/match/leak.py:5",
    ]


def test_every_setting_is_declared_once_with_a_doc() -> None:
    names = [getattr(s, "name", None) or s.pattern for s in config.SETTINGS]  # type: ignore[union-attr]
    assert len(names) == len(set(names)), "a setting declared twice"
    assert all(s.doc for s in config.SETTINGS)


def test_a_setting_reads_its_type_its_default_and_a_secret_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(config.STREAMS_PER_PLAYER.name, raising=False)
    assert config.STREAMS_PER_PLAYER.get() == 4
    monkeypatch.setenv(config.STREAMS_PER_PLAYER.name, " 7 ")
    assert config.STREAMS_PER_PLAYER.get() == 7
    monkeypatch.setenv(config.STREAMS_PER_PLAYER.name, "")
    assert config.STREAMS_PER_PLAYER.get() == 4  # empty: the default
    monkeypatch.setenv(config.STREAMS_PER_PLAYER.name, "many")
    with pytest.raises(ValueError, match="ARCANA_STREAMS_PER_PLAYER"):
        config.STREAMS_PER_PLAYER.get()
    monkeypatch.setenv("ARCANA_SERVICES", "match, economy,")
    assert config.SERVICES.get() == ("match", "economy")
    monkeypatch.setenv("ARCANA_WAITS", "on")
    assert config.WAITS.get() is True
    secret = tmp_path / "password"
    secret.write_text("s3cret\n")
    monkeypatch.delenv("KAFKA_SASL_PASSWORD", raising=False)
    monkeypatch.setenv("KAFKA_SASL_PASSWORD_FILE", str(secret))
    assert config.KAFKA_SASL_PASSWORD.get() == "s3cret"
    monkeypatch.setenv("ARCANA_MATCH_SCHEMA", "match_2")
    assert (
        config.SCHEMA.get("match", "match") == "match_2"
        and config.SCHEMA.get("economy", "economy") == "economy"
    )
    assert Setting("X", int, 1, "x").get() == 1
