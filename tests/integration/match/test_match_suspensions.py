"""Issue 34, point 5, at the match service on the real PostgreSQL: accounts' ``AccountSuspended``, as
match's consumer applies it, forfeits each running match of the player (reason ``suspended``: the
opponent wins) and leaves ended matches alone; while suspended, a match request naming the player is
rejected ``unknown_player`` (details: ``suspended``, so matchmaking returns the tickets to waiting);
``AccountRestored`` lets requests through again. A redelivery changes nothing."""

from __future__ import annotations

import uuid
from typing import Any

from libs.contracts import match_id_for
from libs.games.arcana import STARTER_DECK
from services.match.service import MatchService
from tests.integration.match.conftest import deliver, registered


def _setup(*players: str) -> list[dict[str, Any]]:
    return [{"id": p, "deck": list(STARTER_DECK)} for p in players]


def _suspended(svc: MatchService, player: str, kind: str = "AccountSuspended") -> None:
    deliver(svc, kind, {"player_id": player}, f"player-{player}", 7)


def _request(svc: MatchService, *players: str) -> list[Any]:
    request_id = f"req-{uuid.uuid4()}"
    data = {"request_id": request_id, "mode": "casual", "players": _setup(*players)}
    deliver(svc, "MatchRequested", data, f"pairing-{request_id}")
    return svc.matches.read_events(match_id_for(request_id))


def test_a_suspension_forfeits_the_running_match_and_bars_requests_until_restored(
    svc: MatchService, make_player: Any
) -> None:
    alice, bob, carol = make_player(), make_player(), make_player()
    registered(svc, alice, bob, carol)
    running = svc.creation.create_match("casual", _setup(alice.id, bob.id)).after.match_id
    other = svc.creation.create_match("casual", _setup(carol.id, bob.id)).after.match_id

    _suspended(svc, alice.id)
    _suspended(svc, alice.id)  # redelivered under another event id: nothing more
    ends = [e.data for e in svc.matches.read_events(running) if e.type == "MatchEnded"]
    assert [(e["winner"], e["reason"]) for e in ends] == [(bob.id, "suspended")]
    still = svc.matches.load(other)
    assert still is not None and not still.ended  # a match without the suspended player plays on

    (rejected,) = _request(svc, alice.id, carol.id)
    assert rejected.type == "MatchRequestRejected" and rejected.data["reason"] == "unknown_player"
    assert rejected.data["problems"] == {alice.id: ["suspended"]}

    _suspended(svc, alice.id, "AccountRestored")
    dave = make_player()
    registered(svc, dave)
    assert _request(svc, alice.id, dave.id)[0].type == "MatchCreated"
