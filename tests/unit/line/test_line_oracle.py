"""The engine against a second, independent reading of the combat (`oracle.py`) on random fights: random
legal lines from the catalog, random seeds. The same links and baked stats, the same side first, the
same hits, deaths and heals round by round, the same winner, end reason, tie-break and score.

`LINE_ORACLE_FIGHTS` sets the number of fights (default 10,000, the issue's figure)."""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import Any

import pytest

from libs.games.line import Fighter, start
from libs.games.line.resolution import resolve

from . import oracle
from .support import A, B, opening

FIGHTS = int(os.environ.get("LINE_ORACLE_FIGHTS", "10000"))
CHUNKS = 4
IDS = sorted(oracle.PRINTED)
PIDS = ("p1", "p2")


def engine_rounds(events: list[dict[str, Any]], pids: tuple[str, str] = PIDS) -> list[list[oracle.Step]]:
    """The fight log of the engine's events in the oracle's terms (`pids`: the sides' players)."""
    rounds: list[list[oracle.Step]] = []
    for e in events:
        kind = e["type"]
        if kind == "RoundStarted":
            rounds.append([])
        elif kind == "CardHit":
            side = pids.index(e["player_id"])
            assert e["target_player"] == pids[1 - side]
            rounds[-1].append(("hit", side, e["slot"], e["target"], e["hit"], e["damage"]))
        elif kind == "CardDied":
            rounds[-1].append(("died", pids.index(e["player_id"]), e["slot"]))
        elif kind == "CardHealed":
            rounds[-1].append(("healed", pids.index(e["player_id"]), e["slot"], e["target"], e["amount"]))
    return rounds


def compare(rng: random.Random, i: int) -> str:
    lines = [rng.sample(IDS, 5), rng.sample(IDS, 5)]
    seed = rng.randrange(2**63)
    events = start(
        {
            "match_id": f"m{i}",
            "seed": seed,
            "players": [{"id": p, "deck": d} for p, d in zip(PIDS, lines, strict=True)],
        }
    )
    expected = oracle.fight(lines, seed)
    opening, end = events[0], events[-1]
    where = f"fight {i}: {lines}, seed {seed}"
    assert [[x["id"] for x in p["links"]] for p in opening["players"]] == expected.links, where
    got_stats = [[(f["atk"], f["arm"], f["hp"]) for f in p["fighters"]] for p in opening["players"]]
    assert got_stats == expected.stats, where
    assert opening["first"] == PIDS[expected.first], where
    assert engine_rounds(events) == expected.rounds, where
    assert (end["winner"], end["reason"], end["tie_break"], end["score"], end["round"]) == (
        PIDS[expected.winner],
        expected.reason,
        expected.tie_break,
        expected.score,
        len(expected.rounds),
    ), where
    return expected.reason


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_engine_agrees_with_an_independent_reading_on_random_fights(chunk: int) -> None:
    rng = random.Random(3100 + chunk)
    start_at = chunk * FIGHTS // CHUNKS
    reasons = Counter(compare(rng, i) for i in range(start_at, (chunk + 1) * FIGHTS // CHUNKS))
    assert sum(reasons.values()) == (chunk + 1) * FIGHTS // CHUNKS - start_at
    assert reasons["line_fell"] > 0


def test_the_oracle_lights_the_seeds_classic_case() -> None:
    lit, _ = oracle.link_bonuses(["sun_herald", "reed_archer", "ash_hound", "blade_dancer", "gale_duelist"])
    assert "classic" in lit


def hand_made(rng: random.Random) -> list[tuple[str, tuple[str, ...], int, int, int]]:
    """1-5 cards of any roles and stats, walls and healers often: the frozen rows, round 40 and the
    tie-breaks that catalog fights never reach (all 10,000 above end by a fallen line)."""
    out = []
    for _ in range(rng.randint(1, 5)):
        roles = tuple(r for r in ("tank", "carry", "nuker", "support") if rng.random() < 0.4)
        if rng.random() < 0.5:
            out.append(("wall", roles, rng.randint(0, 3), rng.randint(8, 24), rng.randint(10, 60)))
        else:
            out.append(
                ("x", roles, rng.randint(0, 12), rng.randint(0, 24), rng.randint(1, rng.choice((30, 200))))
            )
    return out


def test_the_engine_agrees_with_the_independent_reading_on_hand_made_lines_reaching_every_end() -> None:
    rng = random.Random(3199)
    seen = Counter()
    for i in range(1000):
        cards = [hand_made(rng), hand_made(rng)]
        first = rng.randrange(2)
        events, _ = resolve(opening(*([Fighter(*c) for c in side] for side in cards), (A, B)[first]))
        sides = [[oracle.Unit(c[0], set(c[1]), c[2], c[3], c[4], c[4]) for c in side] for side in cards]
        expected = oracle.combat(sides, first)
        assert engine_rounds(events, (A, B)) == expected.rounds, f"fight {i}: {cards}, first {first}"
        end = events[-1]
        assert (end["winner"], end["reason"], end["tie_break"], end["score"]) == (
            (A, B)[expected.winner],
            expected.reason,
            expected.tie_break,
            expected.score,
        ), f"fight {i}: {cards}, first {first}"
        seen[expected.reason] += 1
        seen[expected.tie_break] += 1
    assert {"line_fell", "frozen", "round_limit"} <= set(seen)
    assert {"living_cards", "living_atk", "current_hp"} <= set(seen)
