"""The `arcana` command: one entry point for operators' and analysts' tools (issue 20, point 7)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from libs.analytics.simulate import SIDES, play
from libs.config import PROJECT_ROOT
from services import cli

SUBCOMMANDS = (
    "export",
    "import",
    "replay",
    "rebuild",
    "dead-letters",
    "migrate",
    "purge",
    "simulate",
    "release",
    "ops",
    "admin",
    "audit",
)


def arcana(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The installed console script, as an operator types it."""
    script = Path(sys.executable).parent / "arcana"
    return subprocess.run(
        [str(script), *args], capture_output=True, text=True, timeout=120, env=env, cwd=PROJECT_ROOT
    )


def test_the_console_script_is_installed_with_the_project_and_lists_every_subcommand() -> None:
    done = arcana("--help")
    assert done.returncode == 0, done.stderr
    for name in SUBCOMMANDS:
        assert re.search(rf"^\s+{re.escape(name)}\b", done.stdout, re.M), name


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_each_subcommand_has_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main([name, "--help"])
    assert stopped.value.code == 0
    assert f"usage: arcana {name}" in capsys.readouterr().out


def _readme_analyst_commands() -> list[list[str]]:
    readme = (PROJECT_ROOT / "README.md").read_text()
    start = readme.index("## For analysts")
    section = readme[start : readme.index("\n## ", start + 1)]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    lines = [line.split("#")[0].strip() for block in blocks for line in block.splitlines()]
    return [shlex.split(line.split(">")[0]) for line in lines if line]


def test_the_readme_analyst_section_uses_only_arcana_and_every_command_parses() -> None:
    commands = _readme_analyst_commands()
    assert commands, "the analysts' section shows its commands"
    for words in commands:
        assert words[0] == "arcana", words
        parsed = cli.parser().parse_args(words[1:])  # exits 2 on anything the command does not take
        assert parsed.command in SUBCOMMANDS


def test_bad_usage_exits_2_with_the_reason(tmp_path: Path) -> None:
    env = {**os.environ, "ARCANA_DATA_DIR": str(tmp_path)}
    env.pop("DATABASE_URL", None)
    env.pop("DATABASE_URL_FILE", None)
    parquet = arcana("export", "--format", "parquet", env=env)
    assert parquet.returncode == 2 and "--output" in parquet.stderr
    unknown = arcana("export", "--service", "nope", env=env)
    assert unknown.returncode == 2 and "no service 'nope'" in unknown.stderr
    nowhere = arcana("rebuild", "economy", env=env)
    assert nowhere.returncode == 2 and "DATABASE_URL is not set" in nowhere.stderr
    no_match = arcana("replay", "m-1", "--export", str(tmp_path / "missing.jsonl"), env=env)
    assert no_match.returncode == 2


def test_simulate_prints_the_win_rates_of_the_games_it_played() -> None:
    done = arcana("simulate", "--games", "6", "--bot", "greedy", "--bot", "random", "--seed", "3", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert "played 6 games" in done.stderr  # progress on standard error, data alone on standard output
    # the same games, played here one by one, give the same counts
    import random

    rng = random.Random(3)
    finals = [play(3 * 1_000_003 + n, ("greedy", "random"), rng) for n in range(6)]
    wins = [sum(f.winner == side for f in finals) for side in SIDES]
    assert summary["wins"] == wins
    assert summary["draws"] == sum(f.winner == "draw" for f in finals)
    assert summary["turns"] == sum(f.turn for f in finals)
    assert summary["first_player_wins"] == sum(
        f.winner != "draw" and SIDES.index(str(f.winner)) == f.first for f in finals
    )
