"""Hidden information over many matches between decks with no card in common: no response to a
player ever holds an opponent's card id or instance id before that card is played, nor one of the
player's own instance ids before it is drawn (which would give away deck order), nor the seed."""

from __future__ import annotations

import random
from typing import Any

from services.match.service import MatchService
from tests.integration.match.play import decks_without_common_cards, next_move
from tests.leaks import assert_no_leak


def _play_and_record(
    players: dict[str, Any], svc: MatchService, match_id: str, seed: int
) -> list[tuple[str, int, Any]]:
    """Play to the end; record every response each player got, with the version it reflects."""
    seen: list[tuple[str, int, Any]] = []
    after = dict.fromkeys(players, 0)
    rng = random.Random(seed)

    def look(pid: str) -> None:
        p = players[pid]
        for path in (f"/v1/matches/{match_id}", f"/v1/matches/{match_id}/legal-commands"):
            body = p.get(path).get_json()
            seen.append((pid, body["version"], body))
        body = p.get(f"/v1/matches/{match_id}/events?after={after[pid]}").get_json()
        seen.append((pid, body["version"], body))
        after[pid] = body["version"]

    for _ in range(600):
        for pid in players:
            look(pid)
        move = next_move(svc, match_id, rng)
        if move is None:
            return seen
        pid, command = move
        body = players[pid].command(match_id, command)
        seen.append((pid, body["version"], body))
    raise AssertionError("the match did not end")


def test_no_response_reveals_hidden_cards_order_or_seed(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    deck_a, deck_b = decks_without_common_cards()
    checked = 0
    for n in range(6):
        alice, bob = make_player(), make_player()
        match_id = admin([alice, bob], [deck_a, deck_b])
        seen = _play_and_record({alice.id: alice, bob.id: bob}, svc, match_id, n)
        checked += assert_no_leak(seen, svc.matches.read_events(match_id))
    assert checked > 500
