"""Limits per player (issue 12, finding 6): one unfinished practice match at a time, the rate of
practice creation, and long-polls open at once per player in one process. Time is moved with
``libs.clock``; the long-polls are released by an event, never by their timeout."""

from __future__ import annotations

import threading
import time
from typing import Any

from flask import Flask
from psycopg_pool import ConnectionPool

from libs import clock
from libs.config import Settings
from libs.kit.web import current_service, service_app
from services.match.scheduling import RecordingScheduler
from services.match.usecases.limits import MatchLimits
from tests.integration.bus.helpers import wait_until
from tests.integration.match.conftest import Player


def _limited_app(settings: Settings, pool: ConnectionPool, schema: str, **limits: int) -> Flask:
    return service_app(
        "match", settings, pool, schema=schema, scheduler=RecordingScheduler(), limits=MatchLimits(**limits)
    )


def _concede(player: Player, match_id: str) -> None:
    player.command(match_id, {"type": "concede"})


def test_an_unfinished_practice_match_is_resumed_or_conceded_before_a_new_one(make_player: Any) -> None:
    alice, bob = make_player(), make_player()
    first = alice.post("/v1/practice")
    assert first.status_code == 201, first.get_json()
    running = first.get_json()["match_id"]
    refused = alice.post("/v1/practice")
    assert refused.status_code == 409, refused.get_json()
    assert refused.get_json()["error"]["code"] == "practice_in_progress"
    assert refused.get_json()["error"]["details"] == {"match_id": running}
    assert alice.post("/v1/practice").get_json()["error"]["details"]["match_id"] == running
    assert bob.post("/v1/practice").status_code == 201  # another player is not concerned
    _concede(alice, running)
    again = alice.post("/v1/practice")
    assert again.status_code == 201 and again.get_json()["match_id"] != running
    active = alice.get("/v1/matches?active=true").get_json()["matches"]
    assert [m["match_id"] for m in active] == [again.get_json()["match_id"]]


def test_two_practice_requests_at_once_start_one_match(make_player: Any) -> None:
    alice = make_player()
    clients = [alice.fresh() for _ in range(4)]
    answers: list[int] = []
    start = threading.Barrier(len(clients))

    def create(client: Player) -> None:
        start.wait()
        answers.append(client.post("/v1/practice").status_code)

    threads = [threading.Thread(target=create, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(answers) == [201, 409, 409, 409]
    assert len(alice.get("/v1/matches?active=true").get_json()["matches"]) == 1


def test_practice_creation_is_limited_per_window(
    settings: Settings, pool: ConnectionPool, match_schema: str
) -> None:
    app = _limited_app(settings, pool, match_schema, practice_per_window=3, practice_window_seconds=60)
    alice, bob = Player(app), Player(app)
    for _ in range(3):
        created = alice.post("/v1/practice")
        assert created.status_code == 201, created.get_json()
        _concede(alice, created.get_json()["match_id"])
        clock.advance(5)
    refused = alice.post("/v1/practice")
    assert refused.status_code == 429, refused.get_json()
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    assert 40 <= int(refused.headers["Retry-After"]) <= 45  # the first of the three leaves the window
    assert bob.post("/v1/practice").status_code == 201
    clock.advance(int(refused.headers["Retry-After"]))
    assert alice.post("/v1/practice").status_code == 201


def test_long_polls_are_limited_per_player_and_process(
    settings: Settings, pool: ConnectionPool, match_schema: str
) -> None:
    app = _limited_app(settings, pool, match_schema, long_polls_per_player=2)
    alice = Player(app)
    created = alice.post("/v1/practice").get_json()
    match_id, version = created["match_id"], created["version"]
    path = f"/v1/matches/{match_id}/events?after={version}&wait=25"
    answers: list[Any] = []

    def poll(client: Player) -> None:
        answers.append(client.get(path))

    polls = [threading.Thread(target=poll, args=(alice.fresh(),)) for _ in range(2)]
    started = time.monotonic()
    for t in polls:
        t.start()
    with app.app_context():
        slots = current_service().reads.slots
    wait_until(lambda: slots.open_for(alice.id) == 2, 30, "two long-polls open")
    refused = alice.get(path)
    assert refused.status_code == 429, refused.get_json()
    assert refused.get_json()["error"]["code"] == "too_many_requests"
    # Until the first open poll ends: both began after `started` and wait 25 s.
    elapsed = time.monotonic() - started
    assert 25 - elapsed <= int(refused.headers["Retry-After"]) <= 25
    assert alice.get(f"/v1/matches/{match_id}/events?after=0").status_code == 200  # no wait: no slot
    alice.command(match_id, {"type": "mulligan", "cards": []})  # an event ends both polls
    for t in polls:
        t.join()
    assert [a.status_code for a in answers] == [200, 200]
    assert slots.open_for(alice.id) == 0
    assert alice.get(f"/v1/matches/{match_id}/events?after=0&wait=1").status_code == 200
