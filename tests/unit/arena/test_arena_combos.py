"""Golden tests: the five combos and the bonus after each."""

from __future__ import annotations

import pytest

from libs.games.arena import CardNotInHand, IllegalTarget, InvalidBonus, decide, legal_commands

from .support import A, B, of, play, position


def combo(name: str, bonus: str = "life", **more: str) -> dict[str, str]:
    return {"type": "combo", "player": A, "combo": name, "bonus": bonus, **more}


def test_flame_burst_deals_3_to_one_opponent_and_its_caster_takes_none() -> None:
    state, events = play(
        position({A: ["fireball-1", "explosion-1"]}, life={A: 7}),
        combo("flame_burst", "life", target=B),
        {"type": "pass", "player": B},
    )
    assert state.life == (8, 6)  # A: no recoil, +1 life bonus; B: 3
    assert of(events, "ComboPlayed")[0]["cards"] == ["fireball-1", "explosion-1"]
    assert of(events, "BonusTaken") == [{"type": "BonusTaken", "player_id": A, "bonus": "life"}]


def test_the_bonus_is_draw_1_or_1_life_taken_after_the_combo() -> None:
    state, events = play(
        position({A: ["healing_light-1", "healing_light-2"]}, life={A: 2}),
        combo("mystic_regeneration", "draw"),
    )
    assert state.life[0] == 5 and len(state.hands[0]) == 1 and of(events, "CardDrawn")[0]["reason"] == "bonus"
    with pytest.raises(InvalidBonus):
        decide(position({A: ["healing_light-1", "healing_light-2"]}), combo("mystic_regeneration", "coins"))


def test_magic_fortress_no_damage_until_your_next_turn_and_1_life() -> None:
    state, _ = play(
        position({A: ["shield-1", "arcane_barrier-1"], B: ["explosion-1"]}, life={A: 5}),
        combo("magic_fortress", "life"),
        {"type": "end_turn", "player": A, "discard": []},
        {"type": "play", "player": B, "card": "explosion-1", "target": A},
    )
    assert state.life == (7, 8) and state.phase == "discard"  # no window, no damage to A


def test_supreme_counter_sends_each_attack_back_plus_1_and_takes_1_less() -> None:
    state, events = play(
        position({A: ["mirror-1", "shadow_veil-1"], B: ["explosion-1", "fireball-1"]}),
        combo("supreme_counter", "life"),
        {"type": "end_turn", "player": A, "discard": []},
        {"type": "play", "player": B, "card": "explosion-1", "target": A},
    )
    resolved = of(events, "AttackResolved")[0]
    assert (resolved["answer"], resolved["to_target"], resolved["to_attacker"]) == ("counter", 1, 2 + 1 + 1)
    assert state.life == (8, 9 - 4)  # A takes 1 less (1 of 2); B: 2 + 1 back and its own recoil


def test_desecration_takes_any_card_of_the_discard_pile() -> None:
    start = position({A: ["hand_of_shadows-1", "mana_focus-1"]}, discard=["mirror-1", "fireball-2"])
    choices = [c for c in legal_commands(start, A) if c["type"] == "combo"]
    assert {c["card"] for c in choices} == {"mirror-1", "fireball-2"}
    state, _ = play(start, combo("desecration", "life", card="mirror-1"))
    assert state.hands[0] == ("mirror-1",) and "mirror-1" not in state.discard
    with pytest.raises(IllegalTarget):  # its own two cards are not in the discard pile yet
        decide(start, combo("desecration", "life", card="mana_focus-1"))


def test_mystic_regeneration_gives_3_life_never_above_9() -> None:
    state, _ = play(
        position({A: ["healing_light-1", "healing_light-3"]}, life={A: 8}), combo("mystic_regeneration")
    )
    assert state.life[0] == 9


def test_a_combo_needs_both_cards_and_may_be_played_with_a_full_hand() -> None:
    with pytest.raises(CardNotInHand):
        decide(position({A: ["fireball-1", "fireball-2"]}), combo("flame_burst", target=B))
    full = position({A: ["fireball-1", "explosion-1", "shield-1"]})
    assert {"type": "draw", "player": A} not in legal_commands(full, A)
    state, _ = play(full, combo("flame_burst", "draw", target=B), {"type": "pass", "player": B})
    assert len(state.hands[0]) == 2 and state.life[1] == 6
