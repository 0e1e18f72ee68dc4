"""Every game refuses the one way (python-chess style): its rules raise one precise exception type per
kind of refusal, each a subclass of the interface's ``IllegalCommand`` with its own ``code`` and a
docstring saying when it is raised, all listed in the game's ``errors``; the adapter passes them on
untouched."""

from __future__ import annotations

import pytest

from libs import games
from libs.games import (
    IllegalCommand,
    IllegalDeck,
    IllegalSetup,
    MatchOver,
    Seat,
    Setup,
    arcana,
    arena,
    line,
    registry,
)
from libs.games.arcana import errors as arcana_errors
from libs.games.arena import errors as arena_errors
from libs.games.line import errors as line_errors

# each game, the base of its refusals, and its rules' own `start` and `decide` (below the adapter)
RULES = [
    ("arcana", arcana_errors.RuleViolation, arcana.start, arcana.decide),
    ("line", line_errors.LineRuleViolation, line.start, line.decide),
    ("arena", arena_errors.ArenaRuleViolation, arena.start, arena.decide),
]
IDS = [name for name, *_ in RULES]


def _descendants(base: type) -> set[type]:
    found: set[type] = set()
    for sub in base.__subclasses__():
        found |= {sub} | _descendants(sub)
    return found


@pytest.mark.parametrize(("name", "base", "start", "decide"), RULES, ids=IDS)
def test_each_kind_of_refusal_is_one_documented_interface_type_listed_in_errors(
    name: str, base: type, start: object, decide: object
) -> None:
    game = registry.get(name)
    assert issubclass(base, IllegalCommand)
    assert set(game.errors) == _descendants(base), "every refusal class is listed in the game's errors"
    codes = [kind.code for kind in game.errors]
    assert len(set(codes)) == len(codes), "one code per kind"
    for kind in game.errors:
        assert "code" in vars(kind) and kind.code != base.code, kind
        assert (vars(kind).get("__doc__") or "").strip(), f"{kind.__name__} says when it is raised"
    assert any(issubclass(kind, MatchOver) for kind in game.errors)
    assert any(issubclass(kind, IllegalSetup) for kind in game.errors)


@pytest.mark.parametrize(("name", "base", "start", "decide"), RULES, ids=IDS)
def test_the_rules_raise_the_interface_types_themselves(
    name: str, base: type, start: object, decide: object
) -> None:
    with pytest.raises(IllegalSetup) as refused:
        start({"match_id": "m1", "seed": "not an int", "players": []})  # type: ignore[operator]
    assert type(refused.value) in registry.get(name).errors and refused.value.code == "invalid_setup"
    with pytest.raises(IllegalCommand) as refused:
        decide(None, "not a mapping")  # type: ignore[operator]
    assert type(refused.value) in registry.get(name).errors and refused.value.code == "invalid_command"


DECKS = {"arcana": tuple(arcana.STARTER_DECK), "line": tuple(line.WELCOME_LINE), "arena": ()}


@pytest.mark.parametrize("name", IDS)
def test_the_game_passes_the_rules_refusal_on_untouched(name: str) -> None:
    game = registry.get(name)
    seats = (Seat("alice", DECKS[name]), Seat("bob", DECKS[name]))
    state = None
    for event in game.setup(Setup("m1", 7, seats, "2026-12-01", {"first": "alice"})):
        state = game.evolve(state, event)
    with pytest.raises(IllegalCommand) as refused:
        game.decide(state, {"type": "no such command", "player": "alice"})
    assert type(refused.value) in game.errors
    assert refused.value.__cause__ is None and refused.value.__context__ is None, "raised, not translated"
    assert repr(refused.value) == f"{type(refused.value).__name__}({refused.value.message!r})"


def test_a_bad_deck_is_an_illegal_deck_in_the_games_with_decks() -> None:
    for name in ("arcana", "line"):
        game = registry.get(name)
        seats = (Seat("alice", ("nope",) * 5), Seat("bob", DECKS[name]))
        with pytest.raises(IllegalDeck) as refused:
            game.setup(Setup("m1", 1, seats, "2026-12-01"))
        assert type(refused.value) in game.errors, name


def test_no_game_keeps_a_refusal_class_of_its_own_outside_its_rules() -> None:
    """The adapters mirror nothing: every ``IllegalCommand`` subclass defined in a game's package is
    in its ``errors.py``."""
    for kind in _descendants(games.IllegalCommand):
        module = kind.__module__
        if module.startswith("libs.games.") and module.split(".")[2] in IDS:
            assert module.endswith(".errors"), f"{kind.__name__} is defined in {module}"
