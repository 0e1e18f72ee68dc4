"""docs/rules.md, "Abilities", "Summon effects" and "Spells"."""

from __future__ import annotations

import pytest

from libs.games.arcana import RuleViolation, legal_commands, view

from .support import P1, P2, Game, setup, types


def attacks(g: Game, pid: str) -> dict[str, int]:
    side = view(g.state, pid)["you"]
    return {g.state.cards[u["id"]].id: u["attack"] for u in side["board"]}


def board_attacks(g: Game, pid: str) -> list[int]:
    return [u["attack"] for u in view(g.state, pid)["you"]["board"]]


# -- abilities (auras)


def test_beast_aura_buffs_other_beasts_only_and_stacks() -> None:
    g = Game(setup(d1=["den_mother", "wolf_pup", "squire", "den_mother"]))
    g.field(P1, "den_mother", "wolf_pup", "squire")
    assert board_attacks(g, P1) == [2, 3, 2]
    g.field(P1, "den_mother")
    assert board_attacks(g, P1) == [3, 4, 2, 3]


def test_an_aura_reaches_only_its_own_side() -> None:
    g = Game(setup(d1=["den_mother", "watch_captain"], d2=["wolf_pup", "squire"]))
    g.ready(["den_mother", "watch_captain"], ["wolf_pup", "squire"])
    assert board_attacks(g, P2) == [2, 2]


def test_an_aura_vanishes_when_its_source_dies() -> None:
    g = Game(setup(d1=["den_mother", "wolf_pup"], d2=["ember_dart", "hunter_s_shot"]))
    g.field(P1, "den_mother", "wolf_pup")
    assert attacks(g, P1)["wolf_pup"] == 3
    g.end_turn()
    g.patch(P2, mana=10)
    mother = g.unit(P1, "den_mother").id
    g.play(P2, "ember_dart", target=mother)
    g.play(P2, "hunter_s_shot", target=mother)
    assert attacks(g, P1) == {"wolf_pup": 2}
    assert g.unit(P1, "wolf_pup").attack == 2  # never written into the unit


def test_adjacent_aura_follows_the_board_as_units_die() -> None:
    g = Game(setup(d1=["squire", "wolf_pup", "lantern_bearer"], d2=["ember_dart", "hunter_s_shot"]))
    g.field(P1, "squire", "lantern_bearer", "wolf_pup")
    assert board_attacks(g, P1) == [3, 1, 3]
    g.end_turn()
    g.patch(P2, mana=10)
    g.play(P2, "ember_dart", target=g.unit(P1, "squire").id)
    assert board_attacks(g, P1) == [1, 3]


def test_two_adjacent_auras_stack_on_the_unit_between_them() -> None:
    g = Game(setup(d1=["lantern_bearer", "squire", "watch_captain"]))
    g.field(P1, "lantern_bearer", "squire", "watch_captain")
    assert board_attacks(g, P1) == [1, 4, 3]


def test_early_arcana_ability_holds_only_under_an_early_arcana() -> None:
    g = Game(setup(d1=["tarot_reader"]))
    g.field(P1, "tarot_reader")
    assert board_attacks(g, P1) == [5]
    while g.state.round < 5:  # rounds 5-6: the first mid arcana
        g.end_turn()
    assert g.state.arcana is not None and g.state.arcana.phase == "mid"
    assert view(g.state, P1)["you"]["board"][0]["attack"] == 4


def test_per_beast_counts_other_friendly_beasts() -> None:
    g = Game(setup(d1=["marsh_lynx", "wolf_pup", "squire", "ash_fox"]))
    g.field(P1, "marsh_lynx", "squire")
    assert attacks(g, P1)["marsh_lynx"] == 3
    g.field(P1, "wolf_pup", "ash_fox")
    assert attacks(g, P1)["marsh_lynx"] == 5


def test_rally_counts_neighbours_of_its_tribe_and_shrinks_when_one_falls() -> None:
    g = Game(setup(d1=["wolf_pup", "grey_hound", "ash_fox", "squire"], d2=["ember_dart"]))
    g.field(P1, "wolf_pup", "grey_hound", "ash_fox", "squire")
    assert attacks(g, P1)["grey_hound"] == 4
    g.end_turn()
    g.patch(P2, mana=10)
    g.play(P2, "ember_dart", target=g.unit(P1, "ash_fox").id)
    assert [u.card.id for u in g.player(P1).board] == ["wolf_pup", "grey_hound", "squire"]
    assert attacks(g, P1)["grey_hound"] == 3


# -- Summon effects


def test_per_wild_grows_the_unit_once_for_each_other_friendly_wild() -> None:
    g = Game(setup(d1=["bramble_sprite", "moss_creeper", "thicket_druid", "squire"], d2=["vine_lasher"]))
    g.field(P1, "bramble_sprite", "squire")
    g.end_turn()
    g.field(P2, "vine_lasher")  # the opponent's Wild never counts
    g.end_turn()
    g.field(P1, "moss_creeper")
    events = g.play(P1, "thicket_druid", position=0)
    assert events[-1] == {
        "type": "UnitBuffed",
        "player_id": P1,
        "unit": events[0]["card"],
        "attack": 2,
        "health": 2,
    }
    druid = g.unit(P1, "thicket_druid")
    assert (druid.attack, druid.health, druid.max_health) == (4, 5, 5)


def test_a_summon_bonus_is_permanent_after_the_counted_units_die() -> None:
    g = Game(setup(d1=["bramble_sprite", "thicket_druid"], d2=["ember_dart"]))
    g.field(P1, "bramble_sprite", "thicket_druid")
    g.end_turn()
    g.patch(P2, mana=10)
    g.play(P2, "ember_dart", target=g.unit(P1, "bramble_sprite").id)
    druid = g.unit(P1, "thicket_druid")
    assert (druid.attack, druid.health) == (3, 4)


def test_giant_buff_grows_other_friendly_giants_not_itself_not_later_ones_not_the_foe() -> None:
    g = Game(
        setup(
            d1=["pebble_giantling", "squire", "bramble_sprite", "boulder_hurler", "hill_brute"],
            d2=["stone_guard"],
        )
    )
    g.field(P1, "pebble_giantling", "squire", "bramble_sprite")
    g.end_turn()
    g.field(P2, "stone_guard")
    g.end_turn()
    g.field(P1, "boulder_hurler", "hill_brute")
    stats = {u.card.id: (u.attack, u.health, u.max_health) for u in g.player(P1).board}
    assert stats == {
        "pebble_giantling": (2, 4, 4),
        "squire": (2, 2, 2),
        "bramble_sprite": (1, 1, 1),
        "boulder_hurler": (3, 4, 4),
        "hill_brute": (4, 2, 2),
    }
    assert (g.unit(P2, "stone_guard").attack, g.unit(P2, "stone_guard").health) == (1, 4)


# -- spells


def test_damage_unit_2_hits_either_sides_unit() -> None:
    g = Game(setup(d1=["squire", "ember_dart", "hunter_s_shot"], d2=["pebble_giantling"]))
    g.ready(["squire"], ["pebble_giantling"])
    g.patch(P1, mana=10)
    g.play(P1, "ember_dart", target=g.unit(P2, "pebble_giantling").id)
    assert g.unit(P2, "pebble_giantling").health == 1
    events = g.play(P1, "hunter_s_shot", target=g.unit(P1, "squire").id)
    assert types(events) == ["CardPlayed", "SpellCast", "DamageDealt", "UnitDied"]
    assert not g.player(P1).board


def test_heal_hero_4_never_above_30() -> None:
    g = Game(setup(d1=["mending_light", "sacred_spring"]))
    g.patch(P1, mana=10, hero=28)
    assert g.play(P1, "mending_light")[-1] == {"type": "HeroHealed", "player_id": P1, "amount": 2}
    assert types(g.play(P1, "sacred_spring")) == ["CardPlayed", "SpellCast"]
    assert g.player(P1).hero == 30


def test_draw_1_draws_and_draws_nothing_from_an_empty_deck() -> None:
    g = Game(setup(d1=["quick_study", "glimpse_ahead"]))
    g.patch(P1, mana=10)
    top = g.player(P1).deck[0]
    assert g.play(P1, "quick_study")[-1]["card"] == top
    assert g.player(P1).hand[-1] == top
    g.patch(P1, deck=())
    assert types(g.play(P1, "glimpse_ahead")) == ["CardPlayed", "SpellCast"]


def test_buff_unit_2_1_only_on_a_friendly_unit_and_permanent() -> None:
    g = Game(setup(d1=["squire", "battle_blessing"], d2=["wandering_minstrel"]))
    g.ready(["squire"], ["wandering_minstrel"])
    g.patch(P1, mana=10)
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "battle_blessing", target=g.unit(P2, "wandering_minstrel").id)
    assert err.value.code == "illegal_target"
    g.play(P1, "battle_blessing", target=g.unit(P1, "squire").id)
    squire = g.unit(P1, "squire")
    assert (squire.attack, squire.health, squire.max_health) == (4, 3, 3)


def test_damage_enemy_hero_3() -> None:
    g = Game(setup(d1=["searing_verse"]))
    g.patch(P1, mana=10)
    g.play(P1, "searing_verse")
    assert (g.player(P1).hero, g.player(P2).hero) == (30, 27)


def test_damage_enemy_units_2_spares_your_own() -> None:
    g = Game(setup(d1=["squire", "firestorm"], d2=["wandering_minstrel", "pebble_giantling"]))
    g.ready(["squire"], ["wandering_minstrel", "pebble_giantling"])
    g.patch(P1, mana=10)
    events = g.play(P1, "firestorm")
    assert types(events) == ["CardPlayed", "SpellCast", "DamageDealt", "DamageDealt", "UnitDied"]
    assert [(u.card.id, u.health) for u in g.player(P2).board] == [("pebble_giantling", 1)]
    assert g.unit(P1, "squire").health == 2


def test_buff_order_1_1_reaches_your_order_units_only() -> None:
    g = Game(setup(d1=["squire", "wolf_pup", "oath_of_the_order"], d2=["shield_bearer"]))
    g.ready(["squire", "wolf_pup"], ["shield_bearer"])
    g.patch(P1, mana=10)
    g.play(P1, "oath_of_the_order")
    assert [(u.attack, u.health) for u in g.player(P1).board] == [(3, 3), (2, 2)]
    assert (g.unit(P2, "shield_bearer").attack, g.unit(P2, "shield_bearer").health) == (1, 2)


def test_damage_all_units_1_hits_both_sides() -> None:
    g = Game(setup(d1=["squire", "shiver_of_stars"], d2=["bramble_sprite", "pebble_giantling"]))
    g.ready(["squire"], ["bramble_sprite", "pebble_giantling"])
    g.patch(P1, mana=10)
    g.play(P1, "shiver_of_stars")
    assert [(u.card.id, u.health) for u in g.player(P1).board] == [("squire", 1)]
    assert [(u.card.id, u.health) for u in g.player(P2).board] == [("pebble_giantling", 2)]


def test_targeted_spell_needs_a_target_and_untargeted_takes_none() -> None:
    g = Game(setup(d1=["squire", "ember_dart", "searing_verse"]))
    g.field(P1, "squire")
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "ember_dart")
    assert err.value.code == "target_required"
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "ember_dart", target="hero")
    assert err.value.code == "illegal_target"
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "searing_verse", target=g.unit(P1, "squire").id)
    assert err.value.code == "illegal_target"
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "searing_verse", position=0)
    assert err.value.code == "invalid_position"


def test_a_targeted_spell_without_a_legal_target_cannot_be_cast() -> None:
    g = Game(setup(d1=["battle_blessing", "ember_dart"]))
    g.patch(P1, mana=10)
    spells = {g.card(P1, "battle_blessing"), g.card(P1, "ember_dart")}
    assert not [c for c in legal_commands(g.state, P1) if c.get("card") in spells]
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "battle_blessing")
    assert err.value.code == "target_required"


def test_cards_cost_mana_and_must_be_in_hand() -> None:
    g = Game(setup(d1=["hedge_knight", "squire"]))
    with pytest.raises(RuleViolation) as err:
        g.play(P1, "hedge_knight", position=0)
    assert err.value.code == "not_enough_mana"
    with pytest.raises(RuleViolation) as err:
        g.do({"type": "play", "player": P1, "card": g.player(P2).hand[0], "position": 0})
    assert err.value.code == "card_not_in_hand"
    g.play(P1, "squire", position=0)
    assert g.player(P1).mana == 0
