"""view, visible_event and summary_stats: what each player may see, and nothing more."""

from __future__ import annotations

import random
from typing import Any

import pytest

from libs.games.arcana import (
    CATALOG,
    State,
    decide,
    evolve,
    fold,
    legal_commands,
    start,
    summary_stats,
    view,
    visible_event,
)

from .support import P1, P2, Game, random_setup, setup, to_move

FORBIDDEN_KEYS = {"seed", "deck", "order", "spread", "instances"}


def strings_and_keys(value: Any, out: set[Any]) -> set[Any]:
    if isinstance(value, dict):
        for k, v in value.items():
            out.add(("key", k))
            strings_and_keys(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            strings_and_keys(v, out)
    else:
        out.add(value)
    return out


def hidden_from(state: Any, pid: str) -> tuple[set[str], set[str]]:
    """Instance ids and card ids `pid` must not see: the opponent's hand and deck (card ids also visible
    elsewhere, say on a board, excluded), plus both deck orders' instance ids."""
    me, foe = state.players[state.index(pid)], state.players[1 - state.index(pid)]
    secret_ids = set(foe.hand) | set(foe.deck) | set(me.deck)
    shown = {state.cards[i].id for i in me.hand} | {u.card.id for p in state.players for u in p.board}
    secret_cards = {state.cards[i].id for i in set(foe.hand) | set(foe.deck)} - shown
    return secret_ids, secret_cards


def test_view_never_shows_the_opponents_hand_or_deck_or_the_seed() -> None:
    checked = 0
    for seed in range(40):
        s = random_setup(seed) | {"seed": 10**9 + seed}
        # disjoint decks make card ids a real leak test
        rng = random.Random(seed)
        ids = sorted(CATALOG)
        rng.shuffle(ids)
        s["players"][0]["deck"] = [c for c in ids[:50] if CATALOG[c].rarity != "legendary"][:10] * 2
        s["players"][1]["deck"] = [c for c in ids[50:] if CATALOG[c].rarity != "legendary"][:10] * 2
        state = fold(start(s))
        pick = random.Random(seed)
        while state.phase != "ended":
            for pid in state.pids:
                seen = strings_and_keys(view(state, pid), set())
                secret_ids, secret_cards = hidden_from(state, pid)
                assert not seen & secret_ids
                assert not seen & secret_cards
                assert not {("key", k) for k in FORBIDDEN_KEYS} & seen
                assert s["seed"] not in seen
                assert not set(state.spread[state.revealed :]) & seen
                checked += 1
            for event in decide(state, pick.choice(legal_commands(state, to_move(state)))):
                state = evolve(state, event)
    assert checked > 2000


def test_visible_events_hide_draws_deck_orders_and_the_setup() -> None:
    s = random_setup(5) | {"seed": 987654321}
    events = start(s)
    state = fold(events)
    rng = random.Random(1)
    while state.phase != "ended":
        new = decide(state, rng.choice(legal_commands(state, to_move(state))))
        for event in new:
            state = evolve(state, event)
        events += new
    for pid in (P1, P2):
        foe = state.players[1 - state.index(pid)]
        never_shown = set(foe.hand) | set(foe.deck)
        for event in events:
            seen = visible_event(event, pid)
            if event["type"] == "DeckShuffled":
                assert seen is None
                continue
            assert seen is not None and seen["type"] == event["type"]
            values = strings_and_keys(seen, set())
            assert not values & never_shown
            assert 987654321 not in values
            if event["type"] == "CardDrawn" and event["player_id"] != pid:
                assert seen == {"type": "CardDrawn", "player_id": event["player_id"]}
            if event["type"] == "CardDrawn" and event["player_id"] == pid:
                assert seen == event


def test_no_visible_event_names_an_opponents_card_before_it_is_played() -> None:
    """Event by event (not only at the end): what a player is shown never holds an instance id or card id of
    an opponent's card that has not been played yet, nor an instance id of their own deck (its order)."""
    for seed in range(12):
        s = random_setup(seed) | {"seed": 10**9 + seed, "shuffle": seed % 3 != 0}
        ids = sorted(c for c in CATALOG if CATALOG[c].rarity != "legendary")
        random.Random(seed).shuffle(ids)
        s["players"][0]["deck"], s["players"][1]["deck"] = ids[:10] * 2, ids[10:20] * 2  # disjoint decks
        events = start(s)
        state = fold(events)
        pick = random.Random(seed)
        while state.phase != "ended":
            new = decide(state, pick.choice(legal_commands(state, to_move(state))))
            for event in new:
                state = evolve(state, event)
            events += new
        replay: State | None = None
        played: set[str] = set()
        for event in events:
            state = replay = evolve(replay, event)
            if event["type"] == "CardPlayed":
                played.add(event["card"])
            for pid in state.pids:
                seen = visible_event(event, pid)
                if seen is None:
                    continue
                values = strings_and_keys(seen, set())
                me, foe = state.players[state.index(pid)], state.players[1 - state.index(pid)]
                foe_ids = set(foe.deck) | set(foe.hand)
                assert not values & (foe_ids - played), event
                assert not values & (
                    {state.cards[i].id for i in foe_ids} - {state.cards[i].id for i in played}
                )
                if not (
                    event["type"] == "MulliganCompleted" and event["player_id"] == pid
                ):  # its own returns
                    assert not values & set(me.deck), event


def test_visible_match_started_and_mulligan() -> None:
    events = start(setup())
    assert visible_event(events[0], P2) == {
        "type": "MatchStarted",
        "match_id": "m1",
        "players": [P1, P2],
        "first": P1,
    }
    g = Game(setup(), keep=False)
    returned = list(g.player(P1).hand[:2])
    completed = next(
        e
        for e in g.do({"type": "mulligan", "player": P1, "cards": returned})
        if e["type"] == "MulliganCompleted"
    )
    assert visible_event(completed, P2) == {"type": "MulliganCompleted", "player_id": P1, "count": 2}
    assert visible_event(completed, P1) == completed


def test_view_shape() -> None:
    g = Game(setup(d1=["squire", "ember_dart"]))
    g.play(P1, "squire", position=0)
    v = view(g.state, P1)
    assert set(v) >= {
        "match_id",
        "phase",
        "turn",
        "round",
        "active_player",
        "winner",
        "arcana",
        "you",
        "opponent",
    }
    assert set(v["you"]) >= {
        "id",
        "hero_health",
        "mana",
        "max_mana",
        "deck_count",
        "timeouts",
        "hand",
        "board",
        "mulligan_done",
    }
    assert set(v["opponent"]) >= {
        "id",
        "hero_health",
        "mana",
        "max_mana",
        "deck_count",
        "hand_count",
        "timeouts",
        "board",
        "mulligan_done",
    }
    assert "hand" not in v["opponent"]
    assert v["you"]["board"] == [
        {
            "id": g.unit(P1, "squire").id,
            "card_id": "squire",
            "attack": 2,
            "health": 2,
            "max_health": 2,
            "keyword": None,
            "ability": None,
            "ward": False,
            "can_attack": False,
        }
    ]
    assert v["you"]["hand"][0] == {"id": g.card(P1, "ember_dart"), "card_id": "ember_dart", "cost": 1}
    assert (v["phase"], v["active_player"], v["winner"]) == ("playing", P1, None)
    assert view(g.state, P2)["opponent"]["hand_count"] == len(g.player(P1).hand)
    with pytest.raises(ValueError):
        view(g.state, "p3")


def test_view_during_the_mulligan_has_no_active_player() -> None:
    g = Game(setup(), keep=False)
    v = view(g.state, P2)
    assert (v["phase"], v["active_player"], v["turn"], v["round"]) == ("mulligan", None, 0, 0)
    assert len(v["you"]["hand"]) == 5 and v["opponent"]["hand_count"] == 4
    assert not v["you"]["mulligan_done"]
    g.do({"type": "mulligan", "player": P1, "cards": []})
    assert view(g.state, P2)["opponent"]["mulligan_done"]


def test_summary_stats_count_what_the_match_did() -> None:
    g = Game(setup(d1=["squire", "wolf_pup", "searing_verse", "ember_dart"], d2=["pebble_giantling"]))
    g.field(P1, "squire", "wolf_pup")
    g.patch(P1, mana=10)
    g.play(P1, "searing_verse")
    g.end_turn()
    g.field(P2, "pebble_giantling")
    g.end_turn()
    g.patch(P1, mana=10)
    g.play(P1, "ember_dart", target=g.unit(P2, "pebble_giantling").id)
    g.attack(P1, g.unit(P1, "squire").id, g.unit(P2, "pebble_giantling").id)
    g.attack(P1, g.unit(P1, "wolf_pup").id, "hero")
    stats = summary_stats(g.state)
    assert (stats["turn"], stats["round"]) == (3, 2)
    assert stats["players"][P1] == {
        "units_played": {"beast": 1, "order": 1},
        "spells_cast": 2,
        "hero_damage": 5,
        "cards_drawn": 6,
        "units_killed": 1,
        "turns": 2,
        "went_first": True,
    }
    assert stats["players"][P2] == {
        "units_played": {"giant": 1},
        "spells_cast": 0,
        "hero_damage": 0,
        "cards_drawn": 6,
        "units_killed": 0,
        "turns": 1,
        "went_first": False,
    }
