"""Malformed commands and setups are refused with precise codes; decide and evolve never mutate."""

from __future__ import annotations

import copy

import pytest

from libs.games.arcana import RuleViolation, decide, evolve, fold, start, state_hash
from libs.games.arcana.errors import ERRORS

from .support import P1, Game, setup


@pytest.mark.parametrize(
    ("command", "code"),
    [
        ("end_turn", "invalid_command"),
        ({"type": "dance", "player": P1}, "invalid_command"),
        ({"player": P1}, "invalid_command"),
        ({"type": "end_turn", "player": "p9"}, "unknown_player"),
        ({"type": "end_turn"}, "unknown_player"),
        ({"type": "attack", "player": P1, "attacker": None, "target": "hero"}, "unknown_unit"),
        ({"type": "play", "player": P1, "card": 3, "position": 0}, "card_not_in_hand"),
        # JSON that is not a string where a code word is expected: refused, never a TypeError
        ({"type": [], "player": P1}, "invalid_command"),
        ({"type": {"end_turn": 1}, "player": P1}, "invalid_command"),
        ({"type": "forfeit", "player": P1, "reason": []}, "invalid_command"),
        ({"type": "forfeit", "player": P1, "reason": {}}, "invalid_command"),
    ],
)
def test_malformed_commands(command: object, code: str) -> None:
    g = Game(setup())
    with pytest.raises(RuleViolation) as err:
        decide(g.state, command)  # type: ignore[arg-type]
    assert err.value.code == code
    assert type(err.value) is {kind.code: kind for kind in ERRORS}[code] and str(err.value)


def test_malformed_mulligans() -> None:
    g = Game(setup(), keep=False)
    card = g.player(P1).hand[0]
    for cards, code in (
        ("c1", "invalid_command"),
        ([card, card], "invalid_command"),
        ([7], "invalid_command"),
    ):
        with pytest.raises(RuleViolation) as err:
            g.do({"type": "mulligan", "player": P1, "cards": cards})
        assert err.value.code == code


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"seed": "7"}, "invalid_setup"),
        ({"match_id": ""}, "invalid_setup"),
        ({"first": "p3"}, "invalid_setup"),
        ({"shuffle": "yes"}, "invalid_setup"),
        ({"arcana": None, "date": "someday"}, "invalid_setup"),
        ({"players": []}, "invalid_setup"),
        ({"arcana": ["fool"]}, "invalid_arcana"),
    ],
)
def test_bad_setups(change: dict, code: str) -> None:
    with pytest.raises(RuleViolation) as err:
        start(setup() | change)
    assert err.value.code == code


def test_duplicate_player_ids_are_refused() -> None:
    s = setup()
    s["players"][1]["id"] = P1
    with pytest.raises(RuleViolation) as err:
        start(s)
    assert err.value.code == "invalid_setup"


@pytest.mark.parametrize("reserved", ["hero", "draw"])
def test_player_ids_that_clash_with_code_words_are_refused(reserved: str) -> None:
    # "hero" is an attack target and "draw" a MatchEnded winner: a player so named would be ambiguous.
    s = setup()
    s["players"][1]["id"] = reserved
    with pytest.raises(RuleViolation) as err:
        start(s)
    assert err.value.code == "invalid_setup"


def test_decide_and_evolve_leave_their_input_alone() -> None:
    g = Game(setup(d1=["squire"]))
    before = copy.deepcopy(g.state.to_dict())
    command = {"type": "play", "player": P1, "card": g.card(P1, "squire"), "position": 0}
    events = decide(g.state, command)
    assert g.state.to_dict() == before
    state = g.state
    for event in events:
        state = evolve(state, event)
    assert g.state.to_dict() == before and state != g.state


def test_evolve_refuses_a_stream_without_match_started() -> None:
    events = start(setup())
    with pytest.raises(ValueError):
        fold(events[1:])
    with pytest.raises(ValueError):
        evolve(fold(events), {"type": "Nonsense"})


def test_state_hash_is_stable_across_equal_states() -> None:
    a, b = fold(start(setup())), fold(start(setup()))
    assert a == b and state_hash(a) == state_hash(b)
    assert state_hash(fold(start(setup(seed=8)))) != state_hash(a)
