"""The Celery task functions (run in-process here; the e2e tests run them in a real worker)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from libs import clock
from libs.kit.runtime import provided
from services.match import tasks
from services.match.service import MatchService


@pytest.fixture
def task_service(svc: MatchService) -> Iterator[MatchService]:
    with provided("match", svc):
        yield svc


def test_tasks_enforce_deadlines_move_the_bot_and_sweep(make_player: Any, task_service: MatchService) -> None:
    alice = make_player()
    match_id = alice.post("/v1/practice").get_json()["match_id"]
    assert tasks.bot_turn.run(match_id) == 1  # the bot's mulligan
    assert tasks.enforce_deadline.run(match_id) == 0  # nothing due yet
    alice.command(match_id, {"type": "mulligan", "cards": []})
    tasks.bot_turn.run(match_id)
    view = alice.view(match_id)
    assert view["awaiting"] == [alice.id]
    clock.advance(61)
    assert tasks.sweep.run() == 1  # alice: disconnected and timed out; then the bot plays its turn
    types = [e.type for e in task_service.matches.read_events(match_id)]
    assert "TurnTimedOut" in types and "PlayerDisconnected" in types
    assert alice.view(match_id)["awaiting"] == [alice.id]  # the bot's turn is over again
    # Idempotency keys are purged by the shared task (tests/integration/maintenance).
