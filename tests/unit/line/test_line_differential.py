"""Differential test: the fast resolution (`libs.games.line.resolution`) against the reference it replaced
(`reference.py`, the resolver as it stood before), over thousands of random fights: the same events in
the same order, the same winner and score, the same final state."""

from __future__ import annotations

import random
from typing import Any

import pytest

from libs.games.line import CATALOG, Fighter, active_links, bake, fight, fold
from libs.games.line.resolution import resolve
from libs.games.line.setup import fight_started

from . import reference
from .support import opening

IDS = sorted(CATALOG)
ROLES = ("tank", "carry", "nuker", "support")


def random_setup(rng: random.Random, i: int) -> dict[str, Any]:
    return {
        "match_id": f"m{i}",
        "seed": rng.randrange(2**63),
        "players": [{"id": "p1", "deck": rng.sample(IDS, 5)}, {"id": "p2", "deck": rng.sample(IDS, 5)}],
    }


def healed_pair(rng: random.Random) -> list[Fighter]:
    """A weak hitter and a support behind it: rows that heal back every hit (frozen) or nearly."""
    return [
        Fighter("front", ("tank",), rng.randint(0, 2), rng.randint(0, 12), rng.randint(5, 40)),
        Fighter("healer", ("support",), rng.randint(0, 2), rng.randint(0, 12), rng.randint(5, 40)),
    ]


def random_line(rng: random.Random) -> list[Fighter]:
    if rng.random() < 0.2:
        return healed_pair(rng)
    return [random_fighter(rng) for _ in range(rng.randint(1, 5))]


def random_fighter(rng: random.Random) -> Fighter:
    """Any stats and roles, from weak to sturdy: reaches the tie-breaks, frozen rows and round 40 that
    catalog lines seldom do."""
    roles = tuple(r for r in ROLES if rng.random() < 0.4)
    if rng.random() < 0.5:  # a wall: hits of 1 that a support heals back
        return Fighter("wall", roles, rng.randint(0, 3), rng.randint(8, 24), rng.randint(10, 60))
    return Fighter("x", roles, rng.randint(0, 12), rng.randint(0, 24), rng.randint(1, rng.choice((30, 200))))


@pytest.mark.parametrize("chunk", range(4))
def test_catalog_fights_equal_the_reference(chunk: int) -> None:
    rng = random.Random(2300 + chunk)
    for i in range(1000):
        setup = random_setup(rng, i)
        events, state = fight(setup)
        event, opened = fight_started(setup)
        expected_events, expected = reference.resolve(opened)
        assert events == [event, *expected_events]
        assert events[-1]["winner"] == expected.winner and events[-1]["score"] == expected.score
        assert state == expected
        assert resolve(opened) == (expected_events, expected)


@pytest.mark.parametrize("chunk", range(4))
def test_hand_made_lines_of_any_length_equal_the_reference(chunk: int) -> None:
    rng = random.Random(4600 + chunk)
    reasons = set()
    for _ in range(1000):
        a, b = random_line(rng), random_line(rng)
        state = opening(a, b, rng.choice(("a", "b")))
        got, expected = resolve(state), reference.resolve(state)
        assert got == expected
        reasons.add(expected[1].reason)
    assert reasons == {"line_fell", "frozen", "round_limit"}


def test_links_and_baked_stats_equal_the_reference() -> None:
    """The reference reads links as rules version 1 did (the classic link on three different cards)."""
    rng = random.Random(2301)
    for _ in range(4000):
        cards = [CATALOG[c] for c in rng.sample(IDS, 5)]
        links = active_links(cards, 1)
        assert links == reference.active_links(cards)
        assert bake(cards, links) == reference.bake(cards, links)


def test_version_2_differs_from_version_1_by_the_classic_link_alone_and_only_where_one_card_is_several() -> (
    None
):
    rng = random.Random(2302)
    changed = 0
    for _ in range(4000):
        cards = [CATALOG[c] for c in rng.sample(IDS, 5)]
        old, new = active_links(cards, 1), active_links(cards, 2)
        if old != new:
            changed += 1
            assert [x for x in new if x.id != "classic"] == old and "classic" not in {x.id for x in old}
            assert len(next(x for x in new if x.id == "classic").slots) < 3  # one card meets two needs
    assert changed > 0


def test_a_fast_fight_still_folds_to_its_state() -> None:
    rng = random.Random(23)
    for i in range(200):
        events, state = fight(random_setup(rng, i))
        assert fold(events) == state
