"""docs/rules.md, "Units, combat, keywords": positions, readiness, the exchange, Taunt, Ward, Lifesteal."""

from __future__ import annotations

import pytest

from libs.games.arcana import RuleViolation, legal_commands, view

from .support import P1, P2, Game, setup, types


def attackers(g: Game) -> set[tuple[str, str]]:
    return {(c["attacker"], c["target"]) for c in legal_commands(g.state, P1) if c["type"] == "attack"}


def test_position_decides_the_neighbours() -> None:
    g = Game(setup(d1=["squire", "wolf_pup", "watch_captain"]))
    g.field(P1, "squire", "wolf_pup")
    g.patch(P1, mana=10)
    g.play(P1, "watch_captain", position=1)
    assert [u.card.id for u in g.player(P1).board] == ["squire", "watch_captain", "wolf_pup"]
    assert [u["attack"] for u in view(g.state, P1)["you"]["board"]] == [3, 3, 3]  # 2+1, 3, 2+1


def test_position_out_of_range_is_refused() -> None:
    g = Game(setup(d1=["squire", "wolf_pup"]))
    g.field(P1, "squire")
    for bad in (2, -1, "0", True, None):
        with pytest.raises(RuleViolation) as err:
            g.play(P1, "wolf_pup", position=bad)
        assert err.value.code == "invalid_position"


def test_a_unit_cannot_attack_the_turn_it_is_played_unless_rush() -> None:
    g = Game(setup(d1=["squire", "ash_fox"]))
    g.field(P1, "squire", "ash_fox")
    squire, fox = g.unit(P1, "squire").id, g.unit(P1, "ash_fox").id
    with pytest.raises(RuleViolation) as err:
        g.attack(P1, squire, "hero")
    assert err.value.code == "unit_cannot_attack"
    assert attackers(g) == {(fox, "hero")}
    g.attack(P1, fox, "hero")
    assert g.player(P2).hero == 28


def test_each_unit_attacks_once_per_turn() -> None:
    g = Game(setup(d1=["squire"]))
    g.ready(["squire"])
    squire = g.unit(P1, "squire").id
    g.attack(P1, squire, "hero")
    with pytest.raises(RuleViolation) as err:
        g.attack(P1, squire, "hero")
    assert err.value.code == "already_attacked"
    g.end_turn()
    g.end_turn()
    g.attack(P1, squire, "hero")
    assert g.player(P2).hero == 26


def test_attack_is_a_simultaneous_exchange_both_can_die() -> None:
    g = Game(setup(d1=["squire"], d2=["wandering_minstrel"]))
    g.ready(["squire"], ["wandering_minstrel"])
    a, d = g.unit(P1, "squire").id, g.unit(P2, "wandering_minstrel").id
    events = g.attack(P1, a, d)
    assert types(events) == ["AttackResolved", "DamageDealt", "DamageDealt", "UnitDied", "UnitDied"]
    assert not g.player(P1).board and not g.player(P2).board
    assert g.player(P1).grave == (a,) and g.player(P2).grave == (d,)


def test_damage_stays_on_a_surviving_unit() -> None:
    g = Game(setup(d1=["squire"], d2=["pebble_giantling"]))
    g.ready(["squire"], ["pebble_giantling"])
    g.attack(P1, g.unit(P1, "squire").id, g.unit(P2, "pebble_giantling").id)
    giant = g.unit(P2, "pebble_giantling")
    assert (giant.health, giant.max_health) == (1, 3)
    squire = g.unit(P1, "squire")
    assert (squire.health, squire.max_health) == (1, 2)
    g.end_turn()
    g.end_turn()
    assert g.unit(P2, "pebble_giantling").health == 1


def test_attacking_the_hero_is_one_way() -> None:
    g = Game(setup(d1=["squire"]))
    g.ready(["squire"])
    events = g.attack(P1, g.unit(P1, "squire").id, "hero")
    assert types(events) == ["AttackResolved", "DamageDealt"]
    assert g.player(P2).hero == 28 and g.unit(P1, "squire").health == 2


def test_taunt_must_be_attacked_first() -> None:
    g = Game(setup(d1=["squire"], d2=["wandering_minstrel", "shield_bearer"]))
    g.ready(["squire"], ["wandering_minstrel", "shield_bearer"])
    squire = g.unit(P1, "squire").id
    taunt = g.unit(P2, "shield_bearer").id
    for target in ("hero", g.unit(P2, "wandering_minstrel").id):
        with pytest.raises(RuleViolation) as err:
            g.attack(P1, squire, target)
        assert err.value.code == "must_attack_taunt"
    assert attackers(g) == {(squire, taunt)}
    g.attack(P1, squire, taunt)
    assert not any(u.id == taunt for u in g.player(P2).board)


def test_a_zero_attack_unit_cannot_attack() -> None:
    g = Game(setup(d1=["straw_dummy"]))
    g.ready(["straw_dummy"])
    with pytest.raises(RuleViolation) as err:
        g.attack(P1, g.unit(P1, "straw_dummy").id, "hero")
    assert err.value.code == "unit_cannot_attack"


def test_attacker_must_be_own_unit_and_target_an_enemy() -> None:
    g = Game(setup(d1=["squire", "wolf_pup"], d2=["wandering_minstrel"]))
    g.ready(["squire", "wolf_pup"], ["wandering_minstrel"])
    with pytest.raises(RuleViolation) as err:
        g.attack(P1, g.unit(P2, "wandering_minstrel").id, "hero")
    assert err.value.code == "unknown_unit"
    with pytest.raises(RuleViolation) as err:
        g.attack(P1, g.unit(P1, "squire").id, g.unit(P1, "wolf_pup").id)
    assert err.value.code == "illegal_target"


def test_ward_prevents_the_first_damage_then_is_gone() -> None:
    g = Game(setup(d1=["pebble_giantling", "wolf_pup"], d2=["fern_dancer"]))
    g.ready(["pebble_giantling", "wolf_pup"], ["fern_dancer"])
    dancer = g.unit(P2, "fern_dancer").id
    assert view(g.state, P1)["opponent"]["board"][0]["ward"] is True
    events = g.attack(P1, g.unit(P1, "pebble_giantling").id, dancer)
    assert types(events) == ["AttackResolved", "WardBroken", "DamageDealt"]
    assert g.unit(P2, "fern_dancer").health == 3 and not g.unit(P2, "fern_dancer").ward
    g.attack(P1, g.unit(P1, "wolf_pup").id, dancer)
    assert g.unit(P2, "fern_dancer").health == 1


def test_ward_stops_spells_and_sweeps_too() -> None:
    g = Game(setup(d1=["ember_dart", "shiver_of_stars"], d2=["fern_dancer", "ward_weaver"]))
    g.ready((), ["fern_dancer", "ward_weaver"])
    g.patch(P1, mana=10)
    dancer = g.unit(P2, "fern_dancer").id
    assert types(g.play(P1, "ember_dart", target=dancer)) == ["CardPlayed", "SpellCast", "WardBroken"]
    events = g.play(P1, "shiver_of_stars")
    assert types(events) == ["CardPlayed", "SpellCast", "DamageDealt", "WardBroken"]
    assert g.unit(P2, "fern_dancer").health == 2 and g.unit(P2, "ward_weaver").health == 3


def test_lifesteal_heals_by_combat_damage_dealt_up_to_30() -> None:
    g = Game(setup(d1=["blood_bat"], d2=["pebble_giantling"]))
    g.ready(["blood_bat"], ["pebble_giantling"])
    g.patch(P1, hero=20)
    bat = g.unit(P1, "blood_bat").id
    events = g.attack(P1, bat, "hero")
    assert {"type": "HeroHealed", "player_id": P1, "amount": 4} in events
    assert g.player(P1).hero == 24
    g.end_turn()
    g.end_turn()
    g.patch(P1, hero=29)
    g.attack(P1, bat, g.unit(P2, "pebble_giantling").id)
    assert g.player(P1).hero == 30


def test_lifesteal_heals_nothing_when_ward_prevents_the_damage() -> None:
    g = Game(setup(d1=["blood_bat"], d2=["ward_weaver"]))
    g.ready(["blood_bat"], ["ward_weaver"])
    g.patch(P1, hero=20)
    events = g.attack(P1, g.unit(P1, "blood_bat").id, g.unit(P2, "ward_weaver").id)
    assert "HeroHealed" not in types(events)
    assert g.player(P1).hero == 20


def test_a_defending_lifesteal_unit_heals_its_own_hero() -> None:
    g = Game(setup(d1=["squire"], d2=["temple_acolyte"]))
    g.ready(["squire"], ["temple_acolyte"])
    g.patch(P2, hero=10)
    g.attack(P1, g.unit(P1, "squire").id, g.unit(P2, "temple_acolyte").id)
    assert g.player(P2).hero == 12


def test_ward_also_stops_the_counter_strike_on_an_attacking_unit() -> None:
    # Ward: the first damage from any source, the defender's strike back included; a defending Lifesteal
    # unit whose strike back was prevented heals nothing.
    g = Game(setup(d1=["ward_weaver"], d2=["temple_acolyte", "pebble_giantling"]))
    g.ready(["ward_weaver"], ["temple_acolyte", "pebble_giantling"])
    g.patch(P2, hero=20)
    weaver = g.unit(P1, "ward_weaver").id
    events = g.attack(P1, weaver, g.unit(P2, "temple_acolyte").id)
    assert types(events) == ["AttackResolved", "DamageDealt", "WardBroken", "UnitDied"]
    assert (g.unit(P1, "ward_weaver").health, g.unit(P1, "ward_weaver").ward) == (3, False)
    assert g.player(P2).hero == 20
    g.end_turn()
    g.end_turn()
    g.attack(P1, weaver, g.unit(P2, "pebble_giantling").id)  # the Ward is spent: this strike back lands
    assert g.unit(P1, "ward_weaver").health == 2


def test_an_attack_that_brings_the_hero_to_exactly_zero_wins() -> None:
    g = Game(setup(d1=["squire"]))
    g.ready(["squire"])
    g.patch(P2, hero=2)
    events = g.attack(P1, g.unit(P1, "squire").id, "hero")
    assert events[-1] == {"type": "MatchEnded", "winner": P1, "reason": "hero_killed"}
    assert g.state.phase == "ended" and g.player(P2).hero == 0


def test_view_shows_a_rush_unit_ready_the_turn_it_is_played() -> None:
    g = Game(setup(d1=["squire", "ash_fox"]))
    g.field(P1, "squire", "ash_fox")
    ready = {u["card_id"]: u["can_attack"] for u in view(g.state, P1)["you"]["board"]}
    assert ready == {"squire": False, "ash_fox": True}
