"""Autofill: the legal five of a collection with the most links lit, then the most stats (the links
baked in), ties to the alphabetically first set; deterministic; checked against trying every five."""

from __future__ import annotations

import itertools
import random

import pytest

from libs.games.line import CATALOG, WELCOME_SET, active_links, line_problems
from libs.games.line.autofill import autofill, score

IDS = sorted(CATALOG)


def every_five_best(owned: list[str]) -> tuple[tuple[int, int], list[str]]:
    """The best score over every five of `owned` and the alphabetically first set reaching it."""
    scored = [(score([CATALOG[c] for c in five]), sorted(five)) for five in itertools.combinations(owned, 5)]
    best = max(s for s, _ in scored)
    return best, min(ids for s, ids in scored if s == best)


@pytest.mark.parametrize("seed", range(30))
def test_autofill_is_the_best_of_every_five_of_a_random_collection(seed: int) -> None:
    rng = random.Random(seed)
    owned = rng.sample(IDS, rng.randint(5, 13))
    line = autofill({c: rng.randint(1, 3) for c in owned})
    assert line_problems(line, dict.fromkeys(owned, 1)) == []
    best, first_set = every_five_best(owned)
    assert score([CATALOG[c] for c in line]) == best
    assert sorted(line) == first_set


def test_more_links_beat_more_stats() -> None:
    # the five strongest cards by stats light fewer links than the autofilled five
    by_stats = sorted(IDS, key=lambda c: -score([CATALOG[c]] * 1)[1])[:5]
    line = autofill(IDS)
    assert len(active_links([CATALOG[c] for c in line])) == 6
    assert len(active_links([CATALOG[c] for c in by_stats])) < 6


def test_among_equal_links_the_stats_decide() -> None:
    owned = ["moss_shaman", "reed_archer", "ash_hound", "spear_runner", "mud_brute", "bog_lurker"]
    fives = [[CATALOG[c] for c in five] for five in itertools.combinations(owned, 5)]
    most_links = max(score(five)[0] for five in fives)
    stats_at_most_links = {score(five)[1] for five in fives if score(five)[0] == most_links}
    assert len(stats_at_most_links) > 1  # the stats have something to decide
    assert score([CATALOG[c] for c in autofill(owned)]) == (most_links, max(stats_at_most_links))


def test_the_classic_case_counts_sun_herald_twice() -> None:
    owned = ["sun_herald", "reed_archer", "ash_hound", "blade_dancer", "gale_duelist", "camp_raider"]
    line = autofill(owned)
    assert "sun_herald" in line and "classic" in {x.id for x in active_links([CATALOG[c] for c in line])}


def test_autofill_is_deterministic_whatever_the_form_or_order_of_the_collection() -> None:
    rng = random.Random(5)
    owned = rng.sample(IDS, 12)
    first = autofill(owned)
    for _ in range(5):
        rng.shuffle(owned)
        assert autofill(owned) == first
        assert autofill({c: rng.randint(1, 4) for c in owned}) == first
    assert autofill([*owned, "not_a_card"]) == first


def test_the_line_is_seated_by_the_placement_advice() -> None:
    line = autofill(WELCOME_SET)
    front = CATALOG[line[0]]
    assert "carry" not in front.roles


def test_fewer_than_five_different_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="5 different cards"):
        autofill({"mud_brute": 9, "ash_hound": 3, "reed_archer": 1, "bog_lurker": 0, "iron_warden": 2})
