"""The bot that picks a line."""

from __future__ import annotations

import random

import pytest

from libs.games.line import CATALOG, WELCOME_SET, fight, line_problems, pick_line
from libs.games.line.bots import seat


def test_the_bot_picks_a_legal_owned_line_deterministically() -> None:
    owned = dict.fromkeys(WELCOME_SET, 1)
    line = pick_line(owned, random.Random(3))
    assert line_problems(line, owned) == []
    assert pick_line(owned, random.Random(3)) == line
    with pytest.raises(ValueError):
        pick_line(list(WELCOME_SET)[:4], random.Random(0))


def test_seating_puts_a_tank_in_front_and_no_carry_there() -> None:
    cards = [CATALOG[c] for c in ("blade_dancer", "moss_shaman", "mud_brute", "ember_adept", "ash_hound")]
    line = seat(cards)
    assert line[0] == "mud_brute" and sorted(line) == sorted(c.id for c in cards)


def test_the_bots_line_beats_random_lines_from_the_whole_catalog() -> None:
    rng = random.Random(11)
    line = pick_line(sorted(CATALOG), rng)
    wins = 0
    for seed in range(60):
        other = rng.sample(sorted(CATALOG), 5)
        setup = {
            "match_id": "m",
            "seed": seed,
            "players": [{"id": "bot", "deck": list(line)}, {"id": "r", "deck": other}],
        }
        wins += fight(setup)[1].winner == "bot"
    assert wins >= 40, wins
