"""docs/rules.md, "Match flow": order, opening hands, mulligan, turn start, timeouts, rounds, win, board."""

from __future__ import annotations

import pytest

from libs.games.arcana import LAST_ROUND, RuleViolation, decide, fold, start, view
from libs.games.arcana.constants import DECK_SIZE, MAX_TIMEOUTS

from .support import P1, P2, Game, deck, setup, types


def test_turn_order_comes_from_the_seed_and_both_orders_occur() -> None:
    firsts = set()
    for seed in range(20):
        s = setup(first=None, seed=seed)  # type: ignore[arg-type]
        assert start(s) == start(s)
        firsts.add(fold(start(s)).first)
    assert firsts == {0, 1}


def test_first_player_draws_4_second_draws_5_from_the_top() -> None:
    s = fold(start(setup(first=P2)))
    assert len(s.players[1].hand) == 4 and len(s.players[0].hand) == 5
    assert [s.cards[i].id for i in s.players[1].hand] == deck()[:4]
    assert s.phase == "mulligan" and s.turn == 0


def test_mulligan_draws_replacements_first_then_returns_cards_to_the_bottom() -> None:
    g = Game(setup(d1=["squire", "wolf_pup", "ember_dart", "den_mother", "ash_fox", "blood_bat"]), keep=False)
    returned = [g.card(P1, "squire"), g.card(P1, "wolf_pup")]
    events = g.do({"type": "mulligan", "player": P1, "cards": returned})
    assert types(events) == ["CardDrawn", "CardDrawn", "MulliganCompleted"]
    hand = [g.state.cards[i].id for i in g.player(P1).hand]
    assert hand == ["ember_dart", "den_mother", "ash_fox", "blood_bat"]
    assert list(g.player(P1).deck[-2:]) == returned
    assert g.player(P1).mulligan_done and g.state.phase == "mulligan"


def test_mulligan_with_shuffle_never_gives_a_returned_card_straight_back() -> None:
    depths = []
    for seed in range(30):
        s = setup(seed=seed, shuffle=True)
        g = Game(s, keep=False)
        hand = list(g.player(P1).hand)
        events = g.do({"type": "mulligan", "player": P1, "cards": hand})
        assert types(events) == ["CardDrawn"] * 4 + ["MulliganCompleted", "DeckShuffled"]
        assert not set(hand) & set(g.player(P1).hand)
        assert sorted(g.player(P1).deck) == sorted(events[-1]["order"])
        depths += [g.player(P1).deck.index(c) for c in hand]
    # shuffled into the whole deck, not just stacked in some order at its bottom
    assert min(depths) == 0 and max(depths) == DECK_SIZE - 4 - 1


def test_one_mulligan_each_and_keeping_is_a_mulligan_of_zero() -> None:
    g = Game(setup(), keep=False)
    hand = g.player(P2).hand
    assert types(g.do({"type": "mulligan", "player": P2, "cards": []})) == ["MulliganCompleted"]
    assert g.player(P2).hand == hand
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "mulligan", "player": P2, "cards": []})
    assert err.value.code == "already_mulliganed"
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "timeout", "player": P2})
    assert err.value.code == "already_mulliganed"


def test_mulligan_of_a_card_not_in_hand_is_refused() -> None:
    g = Game(setup(), keep=False)
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "mulligan", "player": P1, "cards": [g.player(P2).hand[0]]})
    assert err.value.code == "card_not_in_hand"


def test_mulligan_timeout_keeps_the_hand_and_the_last_decision_starts_turn_1() -> None:
    g = Game(setup(), keep=False)
    hand = g.player(P1).hand
    g.do({"type": "timeout", "player": P1})
    assert g.player(P1).hand == hand and g.player(P1).timeouts == 0
    events = g.do({"type": "timeout", "player": P2})
    assert types(events) == ["MulliganCompleted", "TurnStarted", "ManaRefilled", "CardDrawn"]
    assert (g.state.phase, g.state.turn, g.state.round, g.state.pids[g.state.active]) == ("playing", 1, 1, P1)


def test_play_during_mulligan_and_mulligan_during_play_are_wrong_phase() -> None:
    g = Game(setup(), keep=False)
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "play", "player": P1, "card": g.player(P1).hand[0], "position": 0})
    assert err.value.code == "wrong_phase"
    g = Game(setup())
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "mulligan", "player": P2, "cards": []})
    assert err.value.code == "wrong_phase"


def test_turn_start_grows_mana_refills_and_draws_first_turn_included() -> None:
    g = Game(setup(d1=["squire"]))
    me = g.player(P1)
    assert (me.max_mana, me.mana, len(me.hand)) == (1, 1, 5)
    g.play(P1, "squire", position=0)
    assert g.player(P1).mana == 0
    g.end_turn()
    g.end_turn()
    me = g.player(P1)
    assert (me.max_mana, me.mana, len(me.hand)) == (2, 2, 5)


def test_mana_stops_growing_at_10() -> None:
    g = Game(setup())
    g.patch(P2, max_mana=10, mana=3)
    events = g.end_turn()
    assert events[-2] == {"type": "ManaRefilled", "player_id": P2, "max_mana": 10, "mana": 10}


def test_an_empty_deck_draws_nothing_and_costs_nothing() -> None:
    g = Game(setup())
    g.patch(P2, deck=())
    events = g.end_turn()
    assert types(events) == ["TurnEnded", "TurnStarted", "ManaRefilled"]
    assert g.player(P2).hero == 30 and len(g.player(P2).hand) == 5


def test_units_are_ready_on_their_owners_next_turn() -> None:
    g = Game(setup(d1=["squire"]))
    g.play(P1, "squire", position=0)
    assert not view(g.state, P1)["you"]["board"][0]["can_attack"]
    g.end_turn()
    assert not view(g.state, P2)["opponent"]["board"][0]["can_attack"]
    g.end_turn()
    assert view(g.state, P1)["you"]["board"][0]["can_attack"]


def test_a_timed_out_turn_ends_itself_and_counts() -> None:
    g = Game(setup())
    events = g.do({"type": "timeout", "player": P1})
    assert types(events)[:3] == ["TurnTimedOut", "TurnEnded", "TurnStarted"]
    assert g.state.pids[g.state.active] == P2
    assert view(g.state, P2)["opponent"]["timeouts"] == 1


def test_three_timeouts_in_a_row_forfeit() -> None:
    g = Game(setup())
    for _ in range(MAX_TIMEOUTS - 1):
        g.do({"type": "timeout", "player": P1})
        g.end_turn()
    events = g.do({"type": "timeout", "player": P1})
    assert events[-1] == {"type": "MatchEnded", "winner": P2, "reason": "timeouts"}
    assert g.state.phase == "ended" and g.state.winner == P2


def test_a_turn_ended_by_the_player_resets_the_timeout_count() -> None:
    g = Game(setup())
    for _ in range(2):
        g.do({"type": "timeout", "player": P1})
        g.end_turn()
    g.end_turn()  # P1 ends a turn himself
    g.end_turn()
    assert g.player(P1).timeouts == 0
    g.do({"type": "timeout", "player": P1})
    assert g.state.phase == "playing" and g.player(P1).timeouts == 1


def test_the_non_active_players_turn_cannot_time_out() -> None:
    g = Game(setup())
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "timeout", "player": P2})
    assert err.value.code == "not_your_turn"


def test_round_n_is_turns_2n_minus_1_and_2n() -> None:
    g = Game(setup())
    seen = []
    for _ in range(6):
        seen.append((g.state.turn, g.state.round))
        g.end_turn()
    assert seen == [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)]


def test_a_hero_at_zero_loses() -> None:
    g = Game(setup(d1=["ember_dart", "searing_verse"]))
    g.patch(P1, mana=10)
    g.patch(P2, hero=3)
    events = g.play(P1, "searing_verse")
    assert events[-1] == {"type": "MatchEnded", "winner": P1, "reason": "hero_killed"}
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "ember_dart", target="x")
    assert err.value.code == "match_over"


def test_both_heroes_at_zero_at_once_is_a_draw() -> None:
    g = Game(setup())
    for _ in range(2 * 8 - 1):  # through round 8
        g.end_turn()
    g.patch(P1, hero=2)
    g.patch(P2, hero=1)
    events = g.end_turn()  # round 9: death drains 2
    assert types(events) == ["TurnEnded", "TurnStarted", "ArcanaRevealed", "HeroDrained", "MatchEnded"]
    assert events[-1] == {"type": "MatchEnded", "winner": "draw", "reason": "draw"}
    assert view(g.state, P1)["winner"] == "draw"


def test_concede_and_forfeit_give_the_win_to_the_other_player() -> None:
    g = Game(setup())
    assert g.do({"type": "concede", "player": P2}) == [
        {"type": "MatchEnded", "winner": P1, "reason": "concede"}
    ]
    g = Game(setup(), keep=False)
    events = g.do({"type": "forfeit", "player": P1, "reason": "disconnect"})
    assert events == [{"type": "MatchEnded", "winner": P2, "reason": "disconnect"}]
    g = Game(setup())
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "forfeit", "player": P1, "reason": "bored"})
    assert err.value.code == "invalid_command"


def test_no_hand_limit() -> None:
    g = Game(setup())
    for _ in range(12):
        g.end_turn()
    assert len(g.player(P1).hand) == 11  # 4 + 7 turn draws, nothing played
    assert len(g.player(P2).hand) == 11


def test_at_most_6_units_a_side() -> None:
    g = Game(setup(d1=["squire", "squire", "wolf_pup", "wolf_pup", "ash_fox", "ash_fox", "bramble_sprite"]))
    for _ in range(4):
        g.end_turn()
    g.patch(P1, mana=10, max_mana=10)
    for card in ["squire", "squire", "wolf_pup", "wolf_pup", "ash_fox", "ash_fox"]:
        g.play(P1, card, position=0)
    assert len(g.player(P1).board) == 6
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "bramble_sprite", position=0)
    assert err.value.code == "board_full"


def test_only_the_active_player_acts() -> None:
    g = Game(setup())
    for command in (
        {"type": "end_turn", "player": P2},
        {"type": "play", "player": P2, "card": g.player(P2).hand[0], "position": 0},
    ):
        with pytest.raises(RuleViolation) as err:
            decide(g.state, command)
        assert err.value.code == "not_your_turn"


def test_last_round_is_a_hard_end() -> None:
    g = Game(setup(arcana=["fool", "lovers", "strength", "temperance", "tower", "death"]))
    while g.state.phase != "ended":
        g.patch(P1, hero=30)
        g.patch(P2, hero=30)
        g.end_turn()
    assert g.state.round <= LAST_ROUND and g.state.winner == "draw"
