"""The integration events a real match stores carry exactly the fields ``services/match/events.py``
declares (no undeclared key, none missing), and read back through their dataclasses unchanged.

Played for real: an operator match where both players go silent (PlayerDisconnected), come back
(PlayerReconnected) and one concedes (MatchEnded); a practice match the bot plays to its end; and a
MatchRequested the rules refuse (MatchRequestRejected)."""

from __future__ import annotations

import uuid
from typing import Any

from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import Expect, NewEvent, RecordedEvent
from libs.games.arcana import STARTER_DECK
from services.match import domain
from services.match.consumers import request_match
from services.match.events import CATALOG, EVENTS
from services.match.service import MatchService

# The service's own integration events (its topics also declare each game's events).
SERVICE_TYPES = {e.TYPE for e in EVENTS}

# The stored MatchEnded is the rules' own event enriched: it keeps the rules' ``type`` key, and, as
# the last event of its batch, the batch's ``state_hash`` (the replay check). Nothing else is allowed
# beyond the declared fields, and no other integration event has any extra key.
STREAM_KEYS = {"MatchEnded": {"type", domain.HASH_KEY}}


def _operator_match(make_player: Any, admin: Any, svc: MatchService) -> str:
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK)] * 2, first=alice.id, shuffle=False)
    alice.command(match_id, {"type": "mulligan", "cards": []})
    bob.command(match_id, {"type": "mulligan", "cards": []})
    clock.advance(21)
    assert svc.system.tick(match_id) >= 2  # both silent for 20 s: both disconnected
    alice.view(match_id)  # a request reconnects alice
    bob.command(match_id, {"type": "concede"})  # bob's command reconnects him first
    return match_id


def _practice_match(make_player: Any, svc: MatchService) -> str:
    player = make_player()
    match_id = str(player.post("/v1/practice").get_json()["match_id"])
    player.command(match_id, {"type": "mulligan", "cards": []})
    svc.bot.bot_turn(match_id)
    player.command(match_id, {"type": "concede"})
    return match_id


def _rejected_request(svc: MatchService, pool: ConnectionPool) -> str:
    players = [{"id": "a", "deck": list(STARTER_DECK)}, {"id": "b", "deck": ["no-such-card"] * 20}]
    data = {"request_id": f"req-{uuid.uuid4()}", "mode": "casual", "players": players}
    [requested] = svc.matches.events.append(
        f"ticket-{uuid.uuid4()}", Expect.NO_STREAM, [NewEvent("MatchRequested", data)]
    )
    with pool.connection() as conn, conn.transaction():
        match_id = request_match(svc, requested, conn)
    assert match_id is not None
    return match_id


def _integration_events(svc: MatchService, match_ids: list[str]) -> list[RecordedEvent]:
    declared = SERVICE_TYPES
    return [e for m in match_ids for e in svc.matches.read_events(m) if e.type in declared]


def test_stored_integration_events_carry_exactly_their_declared_fields(
    make_player: Any, admin: Any, svc: MatchService, pool: ConnectionPool
) -> None:
    matches = [
        _operator_match(make_player, admin, svc),
        _practice_match(make_player, svc),
        _rejected_request(svc, pool),
    ]
    stored = _integration_events(svc, matches)
    assert {e.type for e in stored} == SERVICE_TYPES  # every declared event was stored
    for e in stored:
        cls = CATALOG.event(e.type)
        fields = {name for name in cls.__dataclass_fields__}
        extra = STREAM_KEYS.get(e.type, set())
        assert set(e.data) - extra == fields, (e.type, sorted(e.data))
        assert extra <= set(e.data), (e.type, sorted(e.data))
        declared_part = {k: v for k, v in e.data.items() if k in fields}
        assert cls.from_data(e.data).data() == declared_part


def test_the_match_ended_of_a_practice_match_names_the_bot_and_both_players(
    make_player: Any, svc: MatchService
) -> None:
    match_id = _practice_match(make_player, svc)
    [ended] = [e for e in svc.matches.read_events(match_id) if e.type == "MatchEnded"]
    players, bot = ended.data["players"], ended.data["bot"]
    assert bot in players and ended.data["winner"] == bot and ended.data["loser"] != bot
    assert ended.data["draw"] is False and ended.data["reason"] == "concede"
    assert set(ended.data["stats"]) == set(players)
