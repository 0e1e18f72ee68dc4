"""Golden tests: every card of the shared deck, and the reactions to attacks."""

from __future__ import annotations

from libs.games.arena import DECK, KINDS, kind_of, legal_commands, view, visible_event, waits

from .support import A, B, C, of, play, position, types, zones


def test_the_deck_is_the_16_cards_of_the_issue() -> None:
    counts = {k: sum(kind_of(c) == k for c in DECK) for k in KINDS}
    assert counts == {
        "fireball": 4,
        "shield": 2,
        "healing_light": 3,
        "explosion": 1,
        "lightning": 1,
        "mirror": 1,
        "arcane_barrier": 1,
        "hand_of_shadows": 1,
        "shadow_veil": 1,
        "mana_focus": 1,
    }


def test_fireball_opens_a_window_for_its_target_only_then_deals_1() -> None:
    state, events = play(
        position({A: ["fireball-1"], B: ["shield-1"]}),
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
    )
    assert types(events)[-2:] == ["AttackDeclared", "ReactionWindowOpened"]
    assert state.phase == "reaction"
    (wait,) = waits(state)
    assert (wait.player, wait.key, wait.seconds, wait.timeout) == (
        B,
        "reaction:1",
        10,
        {"type": "timeout", "player": B},
    )
    assert legal_commands(state, A) == []
    assert legal_commands(state, B) == [
        {"type": "react", "player": B, "card": "shield-1"},
        {"type": "pass", "player": B},
    ]
    assert view(state, A)["attack"] == {"attacker": A, "target": B, "damage": 1, "source": "fireball"}
    state, events = play(state, {"type": "pass", "player": B})
    assert of(events, "LifeLost") == [{"type": "LifeLost", "player_id": B, "amount": 1, "life": 8, "by": A}]
    assert state.phase == "discard" and state.active == 0  # the attacker's discard phase


def test_shield_blocks_1_and_arcane_barrier_blocks_2() -> None:
    start = position({A: ["fireball-1", "explosion-1"], B: ["shield-1", "arcane_barrier-1"]})
    state, events = play(
        start,
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
        {"type": "react", "player": B, "card": "shield-1"},
    )
    assert of(events, "AttackResolved")[0]["to_target"] == 0 and state.life == (9, 9)
    assert "shield-1" in state.discard and state.hands[1] == ("arcane_barrier-1",)
    state, events = play(
        start,
        {"type": "play", "player": A, "card": "explosion-1", "target": B},
        {"type": "react", "player": B, "card": "arcane_barrier-1"},
    )
    assert state.life == (8, 9)  # blocked 2; the explosion's recoil still hits its caster


def test_a_reaction_is_one_defence_per_attack_and_is_not_the_players_action() -> None:
    state, _ = play(
        position({A: ["fireball-1"], B: ["shield-1", "shield-2"]}),
        {"type": "play", "player": A, "card": "fireball-1", "target": B},
        {"type": "react", "player": B, "card": "shield-1"},
    )
    assert state.phase == "discard" and legal_commands(state, B) == []  # no second defence for that attack
    state, _ = play(state, {"type": "end_turn", "player": A, "discard": []})
    assert state.active == 1 and state.phase == "action"  # B's own turn comes as usual


def test_a_defence_card_is_never_the_action_and_only_defences_answer() -> None:
    state = position({A: ["shield-1", "fireball-1"], B: ["fireball-2"]})
    assert {"type": "play", "player": A, "card": "shield-1"} not in legal_commands(state, A)
    state, _ = play(state, {"type": "play", "player": A, "card": "fireball-1", "target": B})
    assert legal_commands(state, B) == [{"type": "pass", "player": B}]


def test_healing_light_gives_1_life_never_above_9() -> None:
    state, events = play(
        position({A: ["healing_light-1"]}, life={A: 5}),
        {"type": "play", "player": A, "card": "healing_light-1"},
    )
    assert state.life[0] == 6 and of(events, "LifeGained")[0]["amount"] == 1
    state, events = play(
        position({A: ["healing_light-1"]}), {"type": "play", "player": A, "card": "healing_light-1"}
    )
    assert state.life[0] == 9 and of(events, "LifeGained") == []


def test_explosion_deals_2_and_its_caster_takes_1() -> None:
    state, _ = play(
        position({A: ["explosion-1"]}),
        {"type": "play", "player": A, "card": "explosion-1", "target": B},
        {"type": "pass", "player": B},
    )
    assert state.life == (8, 7)


def test_lightning_is_one_attack_per_opponent_each_with_its_window_in_seat_order() -> None:
    players = (A, B, C, "d")
    state, events = play(
        position({B: ["lightning-1"]}, players=players, active=B),
        {"type": "play", "player": B, "card": "lightning-1"},
    )
    assert [e["target"] for e in of(events, "AttackDeclared")] == [C, "d", A]
    assert waits(state)[0].player == C
    state, _ = play(state, {"type": "pass", "player": C})
    assert waits(state)[0].player == "d" and state.life == (9, 9, 8, 9)
    state, _ = play(state, {"type": "pass", "player": "d"}, {"type": "pass", "player": A})
    assert state.life == (8, 9, 8, 8) and state.phase == "discard"


def test_mirror_sends_the_damage_back_and_the_attacker_may_not_react() -> None:
    state, events = play(
        position({A: ["explosion-1", "shield-1"], B: ["mirror-1"]}),
        {"type": "play", "player": A, "card": "explosion-1", "target": B},
        {"type": "react", "player": B, "card": "mirror-1"},
    )
    assert of(events, "ReactionWindowOpened") == [
        {"type": "ReactionWindowOpened", "attack": 1, "player_id": B}
    ]
    assert state.life == (9 - 2 - 1, 9)  # its own 2 back, and the recoil
    assert [(e["player_id"], e["amount"], e["by"]) for e in of(events, "LifeLost")] == [
        (A, 2, B),
        (A, 1, None),
    ]
    assert state.stats[1].damage_dealt == 2 and state.stats[0].damage_dealt == 0
    assert state.hands[0] == ("shield-1",)  # A had a shield and no window to use it


def test_hand_of_shadows_takes_a_random_card_from_the_chosen_hand_seen_only_by_the_two() -> None:
    start = position({A: ["hand_of_shadows-1"], B: ["fireball-1", "mirror-1"], C: []}, players=(A, B, C))
    assert {"type": "play", "player": A, "card": "hand_of_shadows-1", "target": C} not in legal_commands(
        start, A
    )
    state, events = play(start, {"type": "play", "player": A, "card": "hand_of_shadows-1", "target": B})
    (stolen,) = of(events, "CardStolen")
    assert stolen["victim"] == B and stolen["card"] in ("fireball-1", "mirror-1")
    assert state.hands[0] == (stolen["card"],) and stolen["card"] not in state.hands[1]
    assert visible_event(stolen, A)["card"] == visible_event(stolen, B)["card"] == stolen["card"]
    assert "card" not in visible_event(stolen, C) and "card" not in visible_event(stolen, None)
    # the pick is the seed's: the same position steals the same card
    assert play(start, {"type": "play", "player": A, "card": "hand_of_shadows-1", "target": B})[1] == events


def test_shadow_veil_makes_immune_until_the_start_of_its_owners_next_turn() -> None:
    state, _ = play(
        position({A: ["shadow_veil-1"], B: ["explosion-1", "fireball-1"]}),
        {"type": "play", "player": A, "card": "shadow_veil-1"},
        {"type": "end_turn", "player": A, "discard": []},
        {"type": "play", "player": B, "card": "explosion-1", "target": A},
    )
    assert state.phase == "discard" and state.life == (9, 8)  # no window, no damage; B's recoil stays
    state, _ = play(state, {"type": "end_turn", "player": B, "discard": []})
    assert state.wards[0] == frozenset()  # A's turn began: the veil is gone


def test_mana_focus_draws_1() -> None:
    state, events = play(
        position({A: ["mana_focus-1"]}), {"type": "play", "player": A, "card": "mana_focus-1"}
    )
    assert of(events, "CardDrawn")[0]["reason"] == "mana_focus" and len(state.hands[0]) == 1
    assert sorted(zones(state)) == sorted(DECK)
