"""docs/rules.md, "Arcana": the spread, rotation, stat bonuses, cost changes, drains, the daily ascendant."""

from __future__ import annotations

import datetime
import itertools
import json

import pytest

from libs.games.arcana import (
    ARCANA,
    LAST_ROUND,
    MAX_HEALTH,
    RuleViolation,
    daily_arcana,
    drain_amount,
    fold,
    start,
    view,
)
from libs.games.arcana.arcana import ARCANA_FILE, last_round, validate_arcana
from libs.games.arcana.constants import ENDING_FIRST_ROUND

from .support import P1, P2, Game, random_setup, setup, types

PHASES = ["early", "early", "mid", "mid", "ending", "ending"]


def test_22_arcana_10_dealt_with_enough_per_phase() -> None:
    assert [a.number for a in ARCANA.values()] == list(range(22))
    dealt = [a for a in ARCANA.values() if a.phase]
    assert len(dealt) == 10
    assert all(sum(a.phase == p for a in dealt) >= 3 for p in ("early", "mid", "ending"))
    assert all(a.effect is None for a in ARCANA.values() if a.phase is None)
    assert set(ARCANA["death"].to_dict()) == {"id", "number", "name", "phase", "effect"}


def test_the_arcana_file_is_valid_and_the_validator_catches_faults() -> None:
    rows = json.loads(ARCANA_FILE.read_text())
    assert validate_arcana(rows) == []
    weak = [dict(r) for r in rows]
    death = next(r for r in weak if r["id"] == "death")
    death["effect"] = {"kind": "drain", "base": 1, "step": 1}
    assert any("does not reach" in p for p in validate_arcana(weak))
    undealt = [dict(r) for r in rows]
    undealt[next(i for i, r in enumerate(rows) if r["id"] == "fool")]["phase"] = None
    assert validate_arcana(undealt)


def test_a_match_spread_is_6_distinct_dealt_arcana_2_early_2_mid_2_ending() -> None:
    for seed in range(50):
        spread = fold(start(random_setup(seed))).spread
        assert len(set(spread)) == 6
        assert [ARCANA[a].phase for a in spread] == PHASES


def test_setup_spread_is_checked() -> None:
    for bad in (["fool"] * 6, ["death", "fool", "strength", "hermit", "tower", "judgement"], ["fool"]):
        with pytest.raises(RuleViolation) as err:
            start(setup(arcana=bad))
        assert err.value.code == "invalid_arcana"


def test_each_arcana_holds_2_rounds_and_the_last_stays() -> None:
    spread = ["fool", "lovers", "strength", "temperance", "death", "tower"]
    g = Game(setup(arcana=spread))
    seen = {}
    while g.state.phase == "playing" and g.state.round <= 14:
        seen[g.state.round] = view(g.state, P1)["arcana"]
        g.patch(P1, hero=30)
        g.patch(P2, hero=30)
        g.end_turn()
    assert [seen[r]["current"] for r in range(1, 15)] == [a for a in spread for _ in (0, 1)] + ["tower"] * 2
    assert [seen[r]["rounds_left"] for r in (1, 2, 3, 10, 11, 12)] == [2, 1, 2, 1, None, None]
    assert seen[3]["revealed"] == ["fool", "lovers"]
    assert seen[1]["phase"] == "early" and seen[9]["phase"] == "ending"


def test_the_future_of_the_spread_is_hidden() -> None:
    g = Game(setup(), keep=False)
    assert view(g.state, P1)["arcana"] == {
        "current": "chariot",
        "phase": "early",
        "rounds_left": 2,
        "revealed": ["chariot"],
    }


def test_a_stat_bonus_is_written_into_units_and_kept_after_rotation() -> None:
    g = Game(
        setup(
            d1=["squire", "wolf_pup"], arcana=["fool", "lovers", "strength", "temperance", "death", "tower"]
        )
    )
    events = g.play(P1, "squire", position=0)
    assert events[1]["attack"] == 2 and events[1]["health"] == 3
    while g.state.round < 3:
        g.end_turn()
    assert g.state.arcana is not None and g.state.arcana.id == "lovers"
    assert (g.unit(P1, "squire").attack, g.unit(P1, "squire").health) == (2, 3)
    g.field(P1, "wolf_pup")  # lovers: Beasts +1/+0
    assert (g.unit(P1, "wolf_pup").attack, g.unit(P1, "wolf_pup").health) == (3, 2)


def test_a_tribe_bonus_skips_other_tribes() -> None:
    g = Game(setup(d1=["squire"], arcana=["lovers", "fool", "strength", "temperance", "death", "tower"]))
    g.play(P1, "squire", position=0)
    assert (g.unit(P1, "squire").attack, g.unit(P1, "squire").health) == (2, 2)


def test_a_cost_change_applies_only_while_its_arcana_holds() -> None:
    g = Game(
        setup(
            d1=["ember_dart", "frost_ogre"],
            arcana=["chariot", "magician", "hermit", "strength", "death", "tower"],
        )
    )
    costs = {h["card_id"]: h["cost"] for h in view(g.state, P1)["you"]["hand"]}
    assert (costs["frost_ogre"], costs["ember_dart"]) == (3, 1)
    while g.state.round < 3:
        g.end_turn()
    costs = {h["card_id"]: h["cost"] for h in view(g.state, P1)["you"]["hand"]}
    assert (costs["frost_ogre"], costs["ember_dart"]) == (4, 0)
    while g.state.round < 5:
        g.end_turn()
    costs = {h["card_id"]: h["cost"] for h in view(g.state, P1)["you"]["hand"]}
    assert (costs["frost_ogre"], costs["ember_dart"]) == (4, 2)  # hermit: spells +1


def test_played_cost_is_the_current_cost() -> None:
    g = Game(setup(d1=["frost_ogre"]))
    g.patch(P1, mana=3)
    events = g.play(P1, "frost_ogre", position=0)
    assert events[0]["cost"] == 3 and g.player(P1).mana == 0


def test_ending_arcana_drain_both_heroes_every_round_growing() -> None:
    g = Game(setup())
    drains = {}
    while g.state.phase == "playing":
        g.patch(P1, hero=30)
        g.patch(P2, hero=30)
        for e in g.end_turn():
            if e["type"] == "HeroDrained":
                drains[e["round"]] = e["amount"]
    assert min(drains) == ENDING_FIRST_ROUND
    rounds = sorted(drains)
    assert [drains[r] for r in rounds] == [
        drain_amount(ARCANA["death" if r < ENDING_FIRST_ROUND + 2 else "tower"], r) for r in rounds
    ]
    assert rounds == list(range(ENDING_FIRST_ROUND, rounds[-1] + 1))
    assert all(b > a for a, b in itertools.pairwise(drains[r] for r in sorted(drains)))
    assert g.state.winner == "draw" and g.state.round <= LAST_ROUND


def test_last_round_holds_for_every_spread() -> None:
    ending = [a.id for a in ARCANA.values() if a.phase == "ending"]
    rounds = [
        last_round(("fool", "lovers", "strength", "hermit", a, b))
        for a, b in itertools.permutations(ending, 2)
    ]
    assert max(rounds) == LAST_ROUND
    for a in ending:
        assert drain_amount(ARCANA[a], LAST_ROUND) >= MAX_HEALTH


def test_the_drain_happens_at_the_round_start_only() -> None:
    g = Game(setup())
    while g.state.round < ENDING_FIRST_ROUND:
        g.end_turn()
    hero = g.player(P1).hero
    events = g.end_turn()  # second turn of round 9: no drain
    assert "HeroDrained" not in types(events) and g.player(P1).hero == hero


def test_daily_arcana_is_a_pure_function_of_the_date() -> None:
    assert daily_arcana("2026-11-29") == daily_arcana("2026-11-29")
    day = datetime.date(2026, 1, 1)
    seen = {daily_arcana((day + datetime.timedelta(days=n)).isoformat()) for n in range(365)}
    assert seen == {a.id for a in ARCANA.values() if a.phase}
    with pytest.raises(ValueError):
        daily_arcana("yesterday")


def test_the_ascendant_is_dealt_into_every_match_of_its_day() -> None:
    for date in ("2026-11-29", "2026-11-30", "2027-02-14"):
        ascendant = daily_arcana(date)
        for seed in range(25):
            s = random_setup(seed) | {"date": date}
            spread = fold(start(s)).spread
            assert ascendant in spread
            assert [ARCANA[a].phase for a in spread] == PHASES and len(set(spread)) == 6
