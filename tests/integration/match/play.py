"""Playing matches in tests: two players driven by the greedy bot's choices, over the test client."""

from __future__ import annotations

import random
from typing import Any

from libs.games.arcana.cards import CATALOG
from services.match.service import MatchService


def decks_without_common_cards() -> tuple[list[str], list[str]]:
    """Two legal 20-card decks (2 copies of 10 non-legendary cards each) sharing no card."""
    ids = sorted(c.id for c in CATALOG.values() if c.rarity != "legendary" and c.cost <= 5)
    rng = random.Random(7)
    rng.shuffle(ids)
    a, b = ids[:10], ids[10:20]
    return [c for c in a for _ in range(2)], [c for c in b for _ in range(2)]


def next_move(svc: MatchService, match_id: str, rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """Who moves next and the greedy choice, from the stored state (None: nobody, the match is over)."""
    from libs.games.arcana.bots import greedy_bot
    from services.match import domain

    m = svc.matches.load(match_id)
    assert m is not None and m.rules is not None
    waiting = domain.awaiting(m)
    if not waiting:
        return None
    player = waiting[0]
    command = greedy_bot(m.rules, player, rng)
    assert command is not None
    return player, {k: v for k, v in command.items() if k != "player"} | {"expected_version": m.version}


def play_to_end(
    players: dict[str, Any], svc: MatchService, match_id: str, seed: int = 1, max_steps: int = 600
) -> int:
    """Play greedy moves over HTTP (each player with their own client) until the match ends."""
    rng = random.Random(seed)
    for step in range(max_steps):
        move = next_move(svc, match_id, rng)
        if move is None:
            return step
        player, body = move
        players[player].command(match_id, body)
    raise AssertionError(f"match {match_id} did not end in {max_steps} commands")
