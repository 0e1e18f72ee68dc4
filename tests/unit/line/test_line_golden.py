"""Golden tests of the line's combat: the seed's worked example and every rule of docs/line.md."""

from __future__ import annotations

from libs.games.line import EndReason, TieBreak, fold, start
from libs.games.line.resolution import tie_break

from .support import A, B, actors, card, hits, of_type, run

BIG = 500  # HP no hit of these tests gets through in the rounds they look at


def test_the_worked_example_atk_6_into_arm_5() -> None:
    # into the front: 4
    events, _ = run([card(6, 0, BIG)], [card(0, 5, BIG)])
    assert hits(events, 1)[0] == (A, 0, 0, "front", 4)
    # a nuker's back hit into another ARM 5 card: half of 4 = 2
    events, _ = run([card(1, 0, BIG), card(6, 0, BIG, "nuker")], [card(0, 5, BIG), card(0, 5, BIG)])
    assert [h for h in hits(events, 1) if h[0] == A and h[1] == 1] == [
        (A, 1, 0, "front", 4),
        (A, 1, 1, "back", 2),
    ]
    # the same hit by a carry on its own front: 2
    events, _ = run([card(6, 0, BIG, "carry")], [card(0, 5, BIG)])
    assert hits(events, 1)[0] == (A, 0, 0, "carry_front", 2)


def test_a_hit_never_does_less_than_1() -> None:
    events, _ = run([card(1, 0, BIG, "nuker")], [card(0, 20, BIG), card(0, 20, BIG)])
    assert hits(events, 1)[:2] == [(A, 0, 0, "front", 1), (A, 0, 1, "back", 1)]


def test_a_carry_hits_for_full_behind_its_front_and_half_once_it_is_the_front() -> None:
    a = [card(0, 0, 4), card(6, 0, BIG, "carry")]
    b = [card(4, 0, BIG)]
    events, _ = run(a, b)
    # round 1: A0 hits, B0 kills A0 (4 HP), then the carry is A's leftmost living card: halved
    assert hits(events, 1) == [(A, 0, 0, "front", 1), (B, 0, 0, "front", 4), (A, 1, 0, "carry_front", 3)]
    # while the front lived the carry hit for full: seat it second and give the front more HP
    events, _ = run([card(0, 0, BIG), card(6, 0, BIG, "carry")], b)
    assert (A, 1, 0, "front", 6) in hits(events, 1)


def test_the_nuker_back_hit_uses_the_back_cards_armour_and_the_rightmost_living_enemy() -> None:
    a = [card(8, 0, BIG, "nuker")]
    b = [card(0, 0, BIG), card(0, 0, BIG), card(0, 10, 3)]
    events, _ = run(a, b)
    # back = slot 2, armour 10: max(1, 8 - 5) = 3, halved up = 2
    assert hits(events, 1)[0:2] == [(A, 0, 0, "front", 8), (A, 0, 2, "back", 2)]
    # round 2: slot 2 fell in round 2 (3 - 2 = 1 left, then 1 more); afterwards slot 1 is the back
    assert of_type(events, "CardDied")[0] == {"type": "CardDied", "round": 2, "player_id": B, "slot": 2}
    assert hits(events, 3)[1] == (A, 0, 1, "back", 4)


def test_no_back_hit_when_one_enemy_is_left() -> None:
    events, _ = run([card(2, 0, BIG, "nuker")], [card(0, 0, BIG)])
    assert hits(events, 1, A) == [(A, 0, 0, "front", 2)]
    # nor when the front hit leaves one: the front falls, one enemy is left
    events, _ = run([card(5, 0, BIG, "nuker")], [card(0, 0, 5), card(0, 0, BIG)])
    assert hits(events, 1, A) == [(A, 0, 0, "front", 5)]


def test_sides_alternate_seat_by_seat_and_the_longer_line_finishes_in_order() -> None:
    a = [card(1, 0, BIG) for _ in range(4)]
    b = [card(1, 0, BIG) for _ in range(2)]
    events, _ = run(a, b, first=A)
    assert actors(events, 1) == [(A, 0), (B, 0), (A, 1), (B, 1), (A, 2), (A, 3)]
    # rounds alternate which side begins
    assert actors(events, 2) == [(B, 0), (A, 0), (B, 1), (A, 1), (A, 2), (A, 3)]
    assert [e["first"] for e in of_type(events, "RoundStarted")[:4]] == [A, B, A, B]


def test_the_dead_act_no_more_and_damage_applies_at_once() -> None:
    a = [card(10, 0, BIG), card(1, 0, BIG)]
    b = [card(9, 0, 10), card(1, 0, BIG)]
    events, _ = run(a, b, first=A)
    # A0 fells B0 before it acts: B's first actor is B1; B0 never hits
    assert actors(events, 1) == [(A, 0), (B, 1), (A, 1)]
    assert all(h[:2] != (B, 0) for h in hits(events))


def test_the_fight_stops_the_moment_a_side_has_no_living_card() -> None:
    a = [card(10, 0, BIG), card(1, 0, BIG, "support"), card(1, 0, BIG)]
    b = [card(1, 0, 10)]
    events, state = run(a, b, first=A)
    assert [e["type"] for e in events] == ["RoundStarted", "CardHit", "CardDied", "MatchEnded"]
    assert events[-1] == {
        "type": "MatchEnded",
        "round": 1,
        "winner": A,
        "loser": B,
        "reason": EndReason.LINE_FELL,
        "tie_break": None,
        "score": BIG + BIG + BIG,
    }
    assert state.score == 3 * BIG


def test_the_winner_scores_its_living_cards_current_hp() -> None:
    a = [card(3, 0, 10), card(20, 0, 7)]
    b = [card(4, 0, 20)]
    events, state = run(a, b, first=B)
    # B0 hits A0 4 (6 left), A0 hits 3, A1 hits 20: B0 falls
    assert events[-1]["winner"] == A and events[-1]["score"] == 6 + 7 == state.score


def test_a_support_heals_the_lowest_living_ally_not_itself_after_the_hits() -> None:
    a = [card(0, 0, 30), card(0, 0, 12, "support"), card(0, 0, 30)]
    b = [card(5, 0, BIG)]
    events, _ = run(a, b, first=A)
    # A0 takes 5 (25): the lowest current HP other than the support (12) is A0 at 25 < 30
    assert of_type(events, "CardHealed", 1) == [
        {"type": "CardHealed", "round": 1, "player_id": A, "slot": 1, "target": 0, "amount": 2}
    ]
    types = [e["type"] for e in events if e.get("round") == 1]
    assert types.index("CardHealed") > max(i for i, t in enumerate(types) if t == "CardHit")


def test_heal_ties_go_to_the_leftmost_and_never_pass_max_hp() -> None:
    b = [card(0, 0, BIG)]  # hits A's front for 1 a round
    # A0 at 19 of 20 after the hit, A1 at 20: A0 is the lowest, healed 1 (never above max HP)
    events, _ = run([card(0, 0, 20), card(0, 0, 20), card(0, 0, 30, "support")], b)
    assert [(e["target"], e["amount"]) for e in of_type(events, "CardHealed", 1)] == [(0, 1)]
    # A0 at 19 of 20, A1 at 19 of 19: a tie, the leftmost is healed
    events, _ = run([card(0, 0, 20), card(0, 0, 19), card(0, 0, 30, "support")], b)
    assert [(e["target"], e["amount"]) for e in of_type(events, "CardHealed", 1)] == [(0, 1)]
    # the lowest current HP is chosen even at full HP: A1 (5 of 5) over the hurt A0 (29 of 30)
    events, _ = run([card(0, 0, 30), card(0, 0, 5), card(0, 0, 30, "support")], b)
    assert of_type(events, "CardHealed", 1) == []


def test_supports_heal_one_at_a_time_the_side_that_began_first_left_to_right() -> None:
    a = [card(0, 0, 40), card(0, 0, 40, "support"), card(0, 0, 40, "support"), card(0, 0, 37)]
    b = [card(3, 0, 40, "nuker"), card(0, 0, 40, "support")]
    events, _ = run(a, b, first=B)
    # hits: A0 40 -> 36 (3 + 1), A3 37 -> 35 (the nuker's back hit, 2); B0 40 -> 36
    heals = [(e["player_id"], e["slot"], e["target"], e["amount"]) for e in of_type(events, "CardHealed", 1)]
    # B began: its support first; then A1 heals the lowest (A3, 35 -> 37), and A2 chooses after that
    # heal: A0 (36) is the lowest now
    assert heals == [(B, 1, 0, 2), (A, 1, 3, 2), (A, 2, 0, 2)]


def test_heal_is_2_in_rounds_1_to_5_1_in_6_to_10_then_0_and_ramp_grows_every_10_rounds() -> None:
    a = [card(2, 2, 1000), card(0, 40, 1000, "support")]
    b = [card(2, 2, 1000), card(0, 40, 1000)]
    events, state = run(a, b, first=A)
    started = of_type(events, "RoundStarted")
    assert [e["heal"] for e in started[:12]] == [2] * 5 + [1] * 5 + [0] * 2
    assert {e["round"]: e["ramp"] for e in started if e["round"] in (1, 10, 11, 20, 21, 31, 40)} == {
        1: 0,
        10: 0,
        11: 1,
        20: 1,
        21: 2,
        31: 3,
        40: 3,
    }
    # B0's hit into A0 (ARM 2): 2 + ramp - 1
    by_round = {r: next(h for h in hits(events, r) if h[:2] == (B, 0))[4] for r in (1, 11, 21, 31)}
    assert by_round == {1: 1, 11: 2, 21: 3, 31: 4}
    healed = {r: {e["amount"] for e in of_type(events, "CardHealed", r)} for r in range(1, 41)}
    assert all(healed[r] == {2} for r in range(1, 6)) and all(healed[r] == {1} for r in range(6, 11))
    assert all(healed[r] == set() for r in range(11, 41))
    assert state.round == 40 and events[-1]["reason"] == EndReason.ROUND_LIMIT


def test_round_40_ending_is_a_tie_break_and_all_equal_the_side_that_acted_first_loses() -> None:
    events, _state = run([card(2, 2, 1000)], [card(2, 2, 1000)], first=A)
    assert len(of_type(events, "RoundStarted")) == 40
    assert events[-1]["reason"] == EndReason.ROUND_LIMIT
    assert events[-1]["tie_break"] == TieBreak.TECHNICAL and events[-1]["winner"] == B
    events, _ = run([card(2, 2, 1000)], [card(2, 2, 1000)], first=B)
    assert events[-1]["winner"] == A


def test_a_frozen_row_stops_the_fight_and_breaks_the_tie() -> None:
    a = [card(1, 10, 20, "tank"), card(1, 10, 20, "support")]
    b = [card(1, 10, 20, "tank"), card(2, 10, 20, "support")]
    events, _state = run(a, b, first=A)
    # each front takes 2 hits of 1, its support heals 2: no card lower than at the round's start
    assert [e["type"] for e in events][-2:] == ["RoundEnded", "MatchEnded"]
    assert events[-1]["reason"] == EndReason.FROZEN and events[-1]["round"] == 1
    assert events[-1]["tie_break"] == TieBreak.LIVING_ATK and events[-1]["winner"] == B
    assert events[-1]["score"] == 40


def test_tie_break_order() -> None:
    def side(*cards: tuple[int, int, int]) -> tuple[list[int], list[int], list[int]]:
        return [c[0] for c in cards], [c[1] for c in cards], [c[2] for c in cards]

    def winner(x: tuple[list[int], ...], y: tuple[list[int], ...], first: int = 0) -> tuple[int, str]:
        return tie_break([x[0], y[0]], [x[1], y[1]], [x[2], y[2]], first)

    # more living cards (a fallen card has 0 HP and counts for nothing)
    assert winner(side((1, 1, 5), (9, 9, 0)), side((1, 1, 1), (1, 1, 1))) == (1, TieBreak.LIVING_CARDS)
    # then total living ATK
    assert winner(side((3, 0, 5)), side((2, 9, 50))) == (0, TieBreak.LIVING_ATK)
    # then total current HP
    assert winner(side((2, 0, 5)), side((2, 9, 6))) == (1, TieBreak.CURRENT_HP)
    # then total armour
    assert winner(side((2, 4, 6)), side((2, 3, 6))) == (0, TieBreak.ARMOUR)
    # then the side that acted first in round 1 loses
    assert winner(side((2, 3, 6)), side((2, 3, 6)), first=0) == (1, TieBreak.TECHNICAL)
    assert winner(side((2, 3, 6)), side((2, 3, 6)), first=1) == (0, TieBreak.TECHNICAL)


def test_the_first_side_comes_from_the_seed_and_is_in_the_first_event() -> None:
    line = ["iron_warden", "blade_dancer", "ember_adept", "moss_shaman", "mud_brute"]

    def first(seed: int) -> str:
        events = start(
            {"match_id": "m", "seed": seed, "players": [{"id": A, "deck": line}, {"id": B, "deck": line}]}
        )
        assert of_type(events, "RoundStarted")[0]["first"] == events[0]["first"]
        return str(events[0]["first"])

    firsts = [first(seed) for seed in range(40)]
    assert set(firsts) == {A, B}
    assert firsts == [first(seed) for seed in range(40)]


def test_a_whole_fight_folds_to_the_resolved_state() -> None:
    line = ["iron_warden", "blade_dancer", "ember_adept", "moss_shaman", "mud_brute"]
    other = ["bog_lurker", "gale_duelist", "comet_sage", "dawn_priestess", "war_drummer"]
    setup = {"match_id": "m", "seed": 1, "players": [{"id": A, "deck": line}, {"id": B, "deck": other}]}
    from libs.games.line import fight

    events, state = fight(setup)
    assert fold(events) == state
    assert events == start(setup)
