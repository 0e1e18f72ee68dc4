"""Golden tests: turns, the hand limit, exhaustion, rounds, the end, timeouts and leaving."""

from __future__ import annotations

from dataclasses import replace

import pytest

from libs.games.arena import (
    DECK,
    AlreadySwapped,
    CannotDraw,
    CardNotInHand,
    IllegalTarget,
    InvalidCommand,
    MatchOver,
    NotPlayable,
    NotYourTurn,
    UnknownPlayer,
    WrongDiscard,
    WrongPhase,
    decide,
    fold,
    legal_commands,
    start,
    waits,
)

from .support import A, B, C, of, play, position, types, zones


def test_a_round_starts_with_16_cards_shuffled_2_each_9_life_and_the_seeds_first_player() -> None:
    events = start({"match_id": "m", "seed": 11, "players": [{"id": A}, {"id": B}, {"id": C}]})
    state = fold(events)
    assert types(events)[:2] == ["MatchStarted", "RoundStarted"] and sorted(events[1]["pile"]) == sorted(DECK)
    assert [len(h) for h in state.hands] == [2, 2, 2] and len(state.pile) == 10
    assert state.life == (9, 9, 9) and state.round == 1
    assert events[-1] == {"type": "TurnStarted", "player_id": events[0]["first"], "turn": 1, "round": 1}
    firsts = {
        start({"match_id": "m", "seed": s, "players": [{"id": A}, {"id": B}, {"id": C}]})[0]["first"]
        for s in range(30)
    }
    assert firsts == {A, B, C}


def test_one_action_then_the_discard_phase_swap_once_and_end_at_most_3_cards() -> None:
    state, _ = play(position({A: ["fireball-1", "healing_light-1"]}), {"type": "draw", "player": A})
    assert state.phase == "discard" and len(state.hands[0]) == 3
    with pytest.raises(WrongPhase):
        decide(state, {"type": "draw", "player": A})
    state, events = play(state, {"type": "swap", "player": A, "card": "fireball-1"})
    assert [e["reason"] for e in of(events, "CardDiscarded")] == ["swap"] and len(state.hands[0]) == 3
    with pytest.raises(AlreadySwapped):
        decide(state, {"type": "swap", "player": A, "card": "healing_light-1"})
    state, _ = play(state, {"type": "end_turn", "player": A, "discard": []})
    assert state.active == 1


def test_the_turn_ends_with_at_most_3_cards_the_player_choosing_which_go() -> None:
    state, _ = play(
        position({A: ["fireball-1", "healing_light-1", "mana_focus-1"]}, start_hand=2),
        {"type": "draw", "player": A},
    )
    assert len(state.hands[0]) == 4
    assert [c["discard"] for c in legal_commands(state, A) if c["type"] == "end_turn"] == [
        [c] for c in state.hands[0]
    ]
    with pytest.raises(WrongDiscard):
        decide(state, {"type": "end_turn", "player": A, "discard": []})
    state, events = play(state, {"type": "end_turn", "player": A, "discard": ["mana_focus-1"]})
    assert of(events, "CardDiscarded")[0] == {
        "type": "CardDiscarded",
        "player_id": A,
        "card": "mana_focus-1",
        "reason": "hand_limit",
    }


def test_a_turn_started_with_3_cards_cannot_draw() -> None:
    state = position({A: ["fireball-1", "fireball-2", "healing_light-1"]})
    with pytest.raises(CannotDraw):
        decide(state, {"type": "draw", "player": A})


def test_with_no_action_possible_the_turn_goes_straight_to_the_discard_phase() -> None:
    state, events = play(
        position({A: ["fireball-1"], B: ["shield-1", "shield-2", "mirror-1"]}),
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
        {"type": "pass", "player": B},
        {"type": "end_turn", "player": A, "discard": []},
    )
    assert of(events, "ActionEnded")[-1] == {"type": "ActionEnded", "player_id": B, "skipped": True}
    assert state.phase == "discard" and state.active == 1


def test_an_empty_pile_is_rebuilt_from_the_discard_less_2_random_cards_shown_to_all() -> None:
    discard = ["fireball-2", "fireball-3", "fireball-4", "mirror-1"]
    rest = [c for c in DECK if c not in discard and c != "fireball-1"]
    state, events = play(
        position({A: ["fireball-1"], B: rest}, pile=[], discard=discard), {"type": "draw", "player": A}
    )
    (rebuilt,) = of(events, "PileRebuilt")
    assert len(rebuilt["removed"]) == 2 and sorted(rebuilt["removed"] + rebuilt["pile"]) == sorted(discard)
    assert state.removed == tuple(rebuilt["removed"]) and state.discard == () and len(state.pile) == 1
    assert state.hands[0][-1] == rebuilt["pile"][0]
    assert sorted(zones(state)) == sorted(DECK)


def test_when_nothing_is_left_to_draw_the_round_goes_to_the_most_life_or_is_replayed() -> None:
    hands = {A: ["fireball-1"], B: [c for c in DECK if c != "fireball-1"]}
    state, events = play(position(hands, pile=[], life={A: 4, B: 6}), {"type": "draw", "player": A})
    assert types(events)[:2] == ["NothingDrawn", "RoundWon"]
    assert of(events, "RoundWon")[0] == {
        "type": "RoundWon",
        "round": 1,
        "player_id": B,
        "wins": 1,
        "how": "most_life",
    }
    assert state.round == 2 and state.life == (9, 9)
    state, events = play(position(hands, pile=[], life={A: 6, B: 6}), {"type": "draw", "player": A})
    assert of(events, "RoundReplayed") == [{"type": "RoundReplayed", "round": 1, "how": "most_life"}]


def test_the_last_one_standing_wins_the_round_and_the_next_round_starts_with_the_next_seat() -> None:
    state, events = play(
        position({A: ["fireball-1"]}, players=(A, B, C), life={B: 1}),
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
        {"type": "pass", "player": B},
    )
    assert of(events, "PlayerOut") == [{"type": "PlayerOut", "player_id": B, "cards": []}]
    assert state.in_round == (True, False, True) and state.phase == "discard"
    state = replace(
        state,
        life=(9, 0, 1),
        hands=((*state.hands[0], "explosion-1"), (), ()),
        pile=tuple(c for c in state.pile if c != "explosion-1"),
    )
    state, _ = play(state, {"type": "end_turn", "player": A, "discard": []})
    assert state.active == 2  # B is out of the round: C is next
    state = replace(state, round_first=0)
    state, events = play(
        replace(state, active=0, phase="action", start_hand=1),
        {"type": "play", "player": A, "card": "explosion-1", "target": C},
        {"type": "pass", "player": C},
    )
    assert of(events, "RoundWon")[0]["player_id"] == A and of(events, "RoundWon")[0]["how"] == "last_standing"
    assert of(events, "RoundStarted")[0]["first"] == B  # the seat after round 1's first player
    assert state.life == (9, 9, 9) and state.in_round == (True, True, True)


def test_when_the_last_players_fall_together_the_round_is_replayed() -> None:
    state, events = play(
        position({A: ["explosion-1"]}, life={A: 1, B: 2}),
        {"type": "play", "player": A, "card": "explosion-1", "target": B},
        {"type": "pass", "player": B},
    )
    assert [e["player_id"] for e in of(events, "PlayerOut")] == [A, B]
    assert of(events, "RoundReplayed") == [{"type": "RoundReplayed", "round": 1, "how": "last_standing"}]
    assert state.wins == (0, 0) and state.round == 2


def test_the_first_to_3_rounds_wins_the_match() -> None:
    state, events = play(
        position(
            {A: ["fireball-1"]},
            players=(A, B, C),
            life={B: 1, C: 0},
            wins={A: 2, B: 2},
            in_round=(True, True, False),
        ),
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
        {"type": "pass", "player": B},
    )
    assert events[-1] == {
        "type": "MatchEnded",
        "winner": A,
        "reason": "rounds",
        "placements": [[A], [B], [C]],
    }
    assert state.ended and waits(state) == [] and legal_commands(state, B) == []
    with pytest.raises(MatchOver):
        decide(state, {"type": "draw", "player": A})


def test_timeouts_draw_if_allowed_and_end_the_turn_pass_a_window_end_a_discard_phase() -> None:
    state, events = play(position({A: ["fireball-1"]}), {"type": "timeout", "player": A})
    assert types(events)[:3] == ["TurnTimedOut", "CardDrawn", "TurnEnded"] and state.active == 1
    full = position({A: ["fireball-1", "fireball-2", "shield-1"]})
    state, events = play(full, {"type": "timeout", "player": A})
    assert "CardDrawn" not in types(events) and state.active == 1 and len(state.hands[0]) == 3
    state, _ = play(
        position({A: ["fireball-1"]}), {"type": "play", "player": A, "card": "fireball-1", "target": B}
    )
    with pytest.raises(NotYourTurn):
        decide(state, {"type": "timeout", "player": A})
    state, events = play(state, {"type": "timeout", "player": B})
    assert of(events, "ReactionPassed")[0]["timed_out"] is True and state.life[1] == 8
    state = replace(
        state,
        hands=(("healing_light-1", "fireball-2", "fireball-3", "mirror-1"), state.hands[1]),
        pile=tuple(
            c for c in state.pile if c not in ("healing_light-1", "fireball-2", "fireball-3", "mirror-1")
        ),
    )
    state, events = play(state, {"type": "timeout", "player": A})
    assert [e["card"] for e in of(events, "CardDiscarded")] == ["mirror-1"] and state.active == 1


def test_a_player_who_leaves_is_out_of_the_match_and_the_others_go_on() -> None:
    state, events = play(
        position({A: ["lightning-1"], B: ["fireball-1"]}, players=(A, B, C)),
        {"type": "play", "player": A, "card": "lightning-1"},
        {"type": "forfeit", "player": B, "reason": "disconnect"},
    )
    assert of(events, "PlayerLeft") == [
        {"type": "PlayerLeft", "player_id": B, "reason": "disconnect", "cards": ["fireball-1"]}
    ]
    assert of(events, "AttackCancelled") == [{"type": "AttackCancelled", "attack": 1}]
    assert waits(state)[0].player == C and "fireball-1" in state.discard
    with pytest.raises(UnknownPlayer):
        decide(state, {"type": "draw", "player": B})
    state, events = play(state, {"type": "concede", "player": A})
    assert events[-1] == {
        "type": "MatchEnded",
        "winner": C,
        "reason": "last_in_match",
        "placements": [[C], [A], [B]],
    }


def test_each_refusal_is_its_own_exception() -> None:
    state = position({A: ["fireball-1", "shield-1", "mana_focus-1"], B: ["mirror-1"]}, start_hand=3)
    cases = [
        ({"type": "fly", "player": A}, InvalidCommand),
        ({"type": "draw", "player": "z"}, UnknownPlayer),
        ({"type": "draw", "player": B}, NotYourTurn),
        ({"type": "play", "player": A, "card": "fireball-2", "target": B}, CardNotInHand),
        ({"type": "play", "player": A, "card": "shield-1"}, NotPlayable),
        ({"type": "play", "player": A, "card": "fireball-1", "target": A}, IllegalTarget),
        ({"type": "play", "player": A, "card": "mana_focus-1", "target": B}, IllegalTarget),
        ({"type": "pass", "player": B}, WrongPhase),
        ({"type": "swap", "player": A, "card": "fireball-1"}, WrongPhase),
        ({"type": "draw", "player": A}, CannotDraw),
    ]
    for command, error in cases:
        with pytest.raises(error):
            decide(state, command)
