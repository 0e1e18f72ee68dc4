"""Games are plug-ins for the services: no service names a game or imports one (only the match
service's registry wiring, ``services/match/games.py``, loads them), nor do the libraries every
service shares about matches (the contracts, the fair-play rules), and each game's offer is what the
services read about it (``libs.games.offer``)."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

from libs.config import PROJECT_ROOT
from libs.games import Game, registry
from libs.games.offer import BUILT_DECK, ELO, MMR, NO_DECK, STARTER_DECK, Offer

SERVICES = PROJECT_ROOT / "services"
SHARED = [PROJECT_ROOT / "libs" / "contracts", PROJECT_ROOT / "libs" / "fairplay"]  # read by every service
REGISTRY_WIRING = SERVICES / "match" / "games.py"
FOURTH_GAME = "tests.integration.match.count_game"
NOT_A_GAME = {  # where "arcana" is not the game's name
    (SERVICES / "accounts" / "root.py", 'app.extensions["arcana"]'),  # the platform's
    (SERVICES / "cli.py", 'prog="arcana"'),  # the platform's command
    (SERVICES / "cli.py", '"--namespace", "-n", default="arcana"'),  # the platform's Kubernetes namespace
    # history: the game of the events stored before events named one (each ``game`` field's default)
    (PROJECT_ROOT / "libs" / "contracts" / "base.py", 'FIRST_GAME = "arcana"'),
}


@pytest.fixture
def hosted(monkeypatch: pytest.MonkeyPatch) -> list[Game]:
    """Every game hosted with the fourth (test) game named in the setting, as a test stack has it."""
    monkeypatch.setenv(registry.GAMES_SETTING, FOURTH_GAME)
    games = [registry.get(name) for name in registry.names()]
    assert "count" in [g.name for g in games]
    return games


def _package(game: Game) -> str:
    module = type(game).__module__
    return module.rsplit(".", 1)[0] if module.endswith(".game") else module


def _game_packages(games: list[Game]) -> set[str]:
    """Each game's package: its ``Game``'s module, or the package of ``<package>.game``."""
    return {_package(g) for g in games}


def _service_files() -> list[Path]:
    """The services' modules (but the registry wiring) and the shared libraries' about matches."""
    shared = [p for folder in SHARED for p in folder.rglob("*.py")]
    return sorted([p for p in SERVICES.rglob("*.py") if p != REGISTRY_WIRING] + shared)


def names_of_games(path: Path, names: set[str], root: Path = PROJECT_ROOT) -> list[str]:
    """Every string literal in ``path`` that is a game's name (``"line"``: a branch, a default, a
    constant of it), as ``file:line: source`` (relative to ``root``), except where the word is not
    the game's name."""
    source = path.read_text()
    found = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type != tokenize.STRING:
            continue
        try:
            value = ast.literal_eval(tok.string)
        except (ValueError, SyntaxError):  # an f-string's parts
            continue
        if value in names and not any(path == p and text in tok.line for p, text in NOT_A_GAME):
            found.append(f"{path.relative_to(root)}:{tok.start[0]}: {tok.line.strip()}")
    return found


def imports_of_games(path: Path, packages: set[str], root: Path = PROJECT_ROOT) -> list[str]:
    """Every import in ``path`` of a game's package or a module in it."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        modules = (
            [node.module or ""]
            if isinstance(node, ast.ImportFrom)
            else [a.name for a in node.names]
            if isinstance(node, ast.Import)
            else []
        )
        for module in modules:
            if any(module == p or module.startswith(p + ".") for p in packages):
                found.append(f"{path.relative_to(root)}:{node.lineno}: {module}")
    return found


def test_no_service_names_a_game_or_imports_one_outside_the_match_registry_wiring(hosted: list[Game]) -> None:
    names = {g.name for g in hosted}
    packages = _game_packages(hosted)
    named = [hit for path in _service_files() for hit in names_of_games(path, names)]
    imported = [hit for path in _service_files() for hit in imports_of_games(path, packages)]
    assert named == [], "services name a game:\n" + "\n".join(named)
    assert imported == [], "services import a game:\n" + "\n".join(imported)


def test_the_scan_finds_a_planted_branch_a_planted_default_and_a_planted_import(
    tmp_path: Path, hosted: list[Game]
) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from tests.integration.match.count_game import OFFER\n"
        "import libs.games.line.catalog\n\n"
        'if game == "count":\n'
        "    pass\n"
        "def of(game: str = 'line', label: str = f\"{game}\") -> None: ...\n"
    )
    names = {g.name for g in hosted}
    assert names_of_games(planted, names, tmp_path) == [
        'planted.py:4: if game == "count":',
        "planted.py:6: def of(game: str = 'line', label: str = f\"{game}\") -> None: ...",
    ]
    assert imports_of_games(planted, _game_packages(hosted), tmp_path) == [
        "planted.py:1: tests.integration.match.count_game",
        "planted.py:2: libs.games.line.catalog",
    ]
    assert _game_packages(hosted) >= {"libs.games.arcana", "libs.games.line", "libs.games.arena", FOURTH_GAME}
    assert REGISTRY_WIRING not in _service_files()
    assert PROJECT_ROOT / "libs" / "fairplay" / "games.py" in _service_files()


def test_each_built_in_game_declares_what_the_services_read(hosted: list[Game]) -> None:
    offers = {g.name: g.offer for g in hosted}
    assert offers["arcana"].queue.deck == STARTER_DECK and offers["arcana"].ladder.system == ELO  # type: ignore[union-attr]
    assert offers["arcana"].ladder.stream == "rating"  # type: ignore[union-attr]  # the streams before offers
    line = offers["line"]
    assert (line.queue.deck, line.queue.ranked_after, line.ladder.system) == (BUILT_DECK, 3, MMR)  # type: ignore[union-attr]
    assert line.collection is not None and len(line.collection.welcome) == 11
    assert line.progress.track == "line" and not line.progress.pass_xp
    arena = offers["arena"]
    assert (arena.queue.modes, arena.queue.sizes, arena.queue.choose_sizes) == (("casual",), (2, 3, 4), True)
    assert arena.queue.deck == NO_DECK and arena.ladder is None
    assert Offer().queue.modes == () and Offer().rewards.of("casual", 0, 2) is None  # offers nothing
