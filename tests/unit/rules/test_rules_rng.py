"""Random streams: one per purpose, so changing one input never shifts another draw; ids hide deck order."""

from __future__ import annotations

from libs.games.arcana import STARTER_DECK, fold, start
from libs.games.sdk.rng import stream

from .support import P1, P2, deck


def opening(**change: object) -> list[dict]:
    s = {
        "match_id": "r1",
        "seed": 99,
        "players": [{"id": P1, "deck": list(STARTER_DECK)}, {"id": P2, "deck": list(STARTER_DECK)}],
    }
    return start(s | change)


def test_streams_are_separate_and_reproducible() -> None:
    assert stream(1, "a").random() == stream(1, "a").random()
    assert stream(1, "a").random() != stream(1, "b").random()
    assert stream(1, "a").random() != stream(2, "a").random()


def test_one_players_deck_does_not_shift_the_others_order_or_the_spread() -> None:
    base = opening()
    other = opening(players=[{"id": P1, "deck": list(STARTER_DECK)}, {"id": P2, "deck": deck()}])
    assert base[1] == other[1]  # P1's DeckShuffled
    assert base[0]["arcana"] == other[0]["arcana"] and base[0]["first"] == other[0]["first"]
    assert opening(first=P2)[0]["arcana"] == base[0]["arcana"]
    assert opening(first=P2)[1] == base[1]


def test_instance_ids_do_not_follow_deck_order() -> None:
    for seed in range(10):
        shuffled, kept = opening(seed=seed), opening(seed=seed, shuffle=False)
        assert shuffled[0]["players"] == kept[0]["players"]  # ids dealt before and apart from shuffling
        for events in (shuffled, kept):
            order = [int(i[1:]) for i in events[1]["order"]]
            assert order != sorted(order)
        state = fold(kept)
        assert [state.cards[i].id for i in kept[1]["order"]] == list(STARTER_DECK)
