"""Practice against the greedy bot (the bot's task run in-process), the catalog, the index."""

from __future__ import annotations

import random
from typing import Any

from flask import Flask
from psycopg import sql
from psycopg_pool import ConnectionPool

from libs.bus.projector import Projector
from libs.eventstore import EventStore
from libs.games.arcana import CATALOG
from libs.games.arcana.bots import greedy_bot
from libs.kit.web import current_service
from services.match import domain
from services.match.projections import projection
from services.match.scheduling import RecordingScheduler
from services.match.service import MatchService
from services.match.usecases.bot import bot_key
from tests.integration.match.conftest import SECRET


def test_a_practice_match_against_the_bot_plays_to_the_end(
    make_player: Any, svc: MatchService, scheduler: RecordingScheduler
) -> None:
    alice = make_player()
    r = alice.post("/v1/practice")
    assert r.status_code == 201, r.get_json()
    match_id, bot = r.get_json()["match_id"], r.get_json()["bot"]
    assert bot.startswith("bot-") and match_id in scheduler.bots
    rng = random.Random(3)
    bot_moves = 0
    for _ in range(400):
        m = svc.matches.load(match_id)
        assert m is not None
        if m.ended:
            break
        if bot in domain.awaiting(m):
            bot_moves += svc.bot.bot_turn(match_id)
            continue
        command = greedy_bot(m.rules, alice.id, rng)  # type: ignore[arg-type]
        assert command is not None
        command.pop("player")
        scheduler.bots.clear()
        alice.command(match_id, command)
        if command["type"] == "end_turn" and not svc.matches.load(match_id).ended:  # type: ignore[union-attr]
            assert scheduler.bots == [match_id]  # the bot's turn task is sent after the commit
    view = alice.view(match_id)
    assert view["phase"] == "ended" and view["mode"] == "practice" and bot_moves > 5
    ended = svc.matches.read_events(match_id)[-1]
    assert ended.type == "MatchEnded" and ended.data["mode"] == "practice" and ended.data["bot"] == bot
    assert svc.matches.verify_replay(match_id) == []


def test_practice_with_an_own_deck_and_idempotency(make_player: Any) -> None:
    alice = make_player()
    deck = sorted(c.id for c in CATALOG.values() if c.rarity == "common" and c.type == "unit")[:10] * 2
    key = {"Idempotency-Key": "practice-1"}
    first = alice.post("/v1/practice", {"deck": deck}, headers=key)
    again = alice.post("/v1/practice", {"deck": deck}, headers=key)
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    matches = alice.get("/v1/matches?active=true").get_json()["matches"]
    assert [m["match_id"] for m in matches] == [first.get_json()["match_id"]]


def test_catalog_is_cacheable(app: Any) -> None:
    client = app.test_client()
    r = client.get("/v1/catalog")
    assert r.status_code == 200 and len(r.get_json()["cards"]) == len(CATALOG)
    assert len(r.get_json()["arcana"]) >= 10 and "max-age" in r.headers["Cache-Control"]
    again = client.get("/v1/catalog", headers={"If-None-Match": r.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == r.headers["ETag"]


def test_the_index_rebuilt_from_the_events_equals_the_live_one(
    make_player: Any, svc: MatchService, pool: ConnectionPool, match_schema: str
) -> None:
    # three players (one unfinished practice match each at a time): two left running, one conceded
    for _ in range(3):
        alice = make_player()
        match_id = alice.post("/v1/practice").get_json()["match_id"]
        svc.bot.bot_turn(match_id)
        alice.command(match_id, {"type": "mulligan", "cards": []})
        svc.bot.bot_turn(match_id)
    alice.command(match_id, {"type": "concede"})
    query = sql.SQL("SELECT * FROM {} ORDER BY match_id").format(sql.Identifier(match_schema, "match_index"))
    with pool.connection() as conn:
        live = conn.execute(query).fetchall()
    Projector(EventStore(pool, match_schema), projection(match_schema)).rebuild()
    with pool.connection() as conn:
        rebuilt = conn.execute(query).fetchall()
    assert rebuilt == live and len(live) == 3


def test_the_bot_key_is_derived_from_the_token_secret(app: Flask) -> None:
    """(Finding 8) the service built for the web, the worker and the consumers keys its bot with
    the server's token secret."""
    with app.app_context():
        assert current_service().bot.key == bot_key(SECRET)
