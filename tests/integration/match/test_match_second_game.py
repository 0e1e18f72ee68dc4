"""The match service hosts more than one game: a tiny test game ("first to say 3 wins",
``count_game.py``), registered for this stack by the setting ``ARCANA_GAMES``, runs a whole match
through the REST API on real PostgreSQL and broker: creation, moves, a turn timed out by the
sweep, the end with its ``MatchEnded`` published, and the replay (the fold of the stored events
is the state the API served; the replay tool finds no drift)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from psycopg_pool import ConnectionPool

from libs import clock
from libs.bus import OutboxRelay
from libs.config import Settings
from libs.eventstore import EventStore
from libs.kit import definition
from libs.kit.web import service_app
from services.match import domain
from services.match.repository import as_rows
from services.match.scheduling import RecordingScheduler
from services.match.service import MatchService
from tests.integration.bus.helpers import RawReader, wait_until
from tests.integration.conftest import run_tool
from tests.integration.match.conftest import OPERATOR, Player

GAME_MODULE = "tests.integration.match.count_game"


@pytest.fixture
def count_app(
    monkeypatch: pytest.MonkeyPatch,
    settings: Settings,
    pool: ConnectionPool,
    match_schema: str,
    scheduler: RecordingScheduler,
) -> Flask:
    """The match service's app with the test game named in its setting (read at start-up)."""
    monkeypatch.setenv("ARCANA_GAMES", GAME_MODULE)
    return service_app("match", settings, pool, schema=match_schema, scheduler=scheduler)


def _create(app: Flask, alice: Player, bob: Player) -> str:
    body = {
        "game": "count",
        "setup": {
            "players": [{"id": alice.id, "deck": []}, {"id": bob.id, "deck": []}],
            "first": alice.id,
            "seed": 41,
        },
    }
    r = app.test_client().post(
        "/v1/admin/matches", json=body, headers={"Authorization": f"Bearer {OPERATOR}"}
    )
    assert r.status_code == 201, r.get_json()
    return str(r.get_json()["match_id"])


def _lifecycle_end(reader: RawReader, match_id: str) -> dict[str, Any] | None:
    seen = [m.event for m in reader.poll() if m.key == f"match-{match_id}"]
    return next((e for e in seen if e["type"] == "MatchEnded"), None)


def test_a_second_game_plays_a_whole_match_over_rest_with_timers_publication_and_replay(
    count_app: Flask,
    svc: MatchService,
    scheduler: RecordingScheduler,
    pool: ConnectionPool,
    match_schema: str,
    postgres_url: str,
    kafka_bootstrap: str,
) -> None:
    alice, bob = Player(count_app), Player(count_app)
    match_id = _create(count_app, alice, bob)
    view = alice.view(match_id)
    assert (view["game"], view["count"], view["awaiting"]) == ("count", 0, [alice.id])
    turn_1 = datetime.fromisoformat(view["deadline"])
    assert (match_id, turn_1) in scheduler.deadlines  # its timer, dispatched after the commit

    # a move, answered as for Arcana: the caller's view of its events, whom the match waits for
    said = alice.command(match_id, {"type": "say", "number": 1})
    assert [e["type"] for e in said["events"]] == ["NumberSaid"] and said["awaiting"] == [bob.id]
    assert (
        alice.command(match_id, {"type": "say", "number": 2}, status=422)["error"]["code"] == "not_your_turn"
    )
    assert (
        bob.command(match_id, {"type": "say", "number": 3, "extra": 1}, status=422)["error"]["code"]
        == "validation_error"
    )
    legal = bob.get(f"/v1/matches/{match_id}/legal-commands").get_json()["commands"]
    assert legal == [{"type": "say", "number": 2}, {"type": "say", "number": 3}]

    # bob lets his turn run out: the sweep passes it (5 s, the game's timer) back to alice
    deadline = datetime.fromisoformat(bob.view(match_id)["deadline"])
    assert svc.sweeper.sweep() == 0  # nothing due yet
    clock.advance((deadline - clock.now()).total_seconds() + 1)
    assert svc.sweeper.sweep() == 1
    assert [e.type for e in svc.matches.read_events(match_id)][-1] == "TurnPassed"
    assert alice.view(match_id)["awaiting"] == [alice.id]
    assert (
        alice.command(match_id, {"type": "say", "number": 1}, status=422)["error"]["code"] == "wrong_number"
    )

    ended = alice.command(match_id, {"type": "say", "number": 3})
    assert [e["type"] for e in ended["events"]] == ["NumberSaid", "MatchEnded"] and ended["awaiting"] == []
    stored = svc.matches.read_events(match_id)
    end = stored[-1].data
    assert (end["game"], end["winner"], end["loser"], end["reason"]) == ("count", alice.id, bob.id, "counted")
    assert end["placements"] == [[alice.id], [bob.id]] and end["stats"][bob.id] == {"turns": 2}
    assert bob.command(match_id, {"type": "say", "number": 3}, status=422)["error"]["code"] == "match_over"
    listed = alice.get("/v1/matches").get_json()["matches"]
    assert [(m["game"], m["status"], m["winner"]) for m in listed] == [("count", "ended", alice.id)]

    # replay: the fold of the stored events is the state served, and no stored hash drifts
    served = alice.view(match_id)
    assert domain.player_view(domain.fold_match(as_rows(stored)), alice.id) == served
    assert svc.matches.verify_replay(match_id) == []
    done = run_tool(postgres_url, "services.match.replay", match_id, "--schema", match_schema, "--as", bob.id)
    assert done.returncode == 0 and "every stored state hash matches" in done.stdout, done.stderr
    assert '"seed"' not in done.stdout  # the game's secret, hidden from a player

    # publication: the end reaches the lifecycle topic other services read, the seed never the live one
    relay = OutboxRelay(
        EventStore(pool, match_schema), "match", kafka_bootstrap, publication=definition("match").publication
    )
    lifecycle, live = (
        RawReader(kafka_bootstrap, "arcana.match.lifecycle"),
        RawReader(kafka_bootstrap, "arcana.match.events"),
    )
    relay.start()
    try:
        published = wait_until(
            lambda: _lifecycle_end(lifecycle, match_id), 60, "MatchEnded on the lifecycle topic"
        )
        assert published["data"] == {k: v for k, v in end.items() if k != domain.HASH_KEY}
        started = wait_until(
            lambda: next(
                (
                    m.event
                    for m in live.poll()
                    if m.key == f"match-{match_id}" and m.event["type"] == "CountStarted"
                ),
                None,
            ),
            60,
            "the live start",
        )
        assert "seed" not in started["data"] and started["data"]["first"] == alice.id
    finally:
        relay.stop()
        lifecycle.close()
        live.close()
