"""The dead-letter command on a real service: `python -m libs.kit.deadletters --service match`
finds the subscription's handler through the service kit and applies a dead letter exactly once."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from psycopg_pool import ConnectionPool

from libs.bus import deadletters
from libs.config import Settings
from libs.contracts import match_id_for
from libs.db import migrate
from libs.eventstore import EventStore, Expect, NewEvent
from libs.games.arcana import STARTER_DECK
from libs.kit import definition
from libs.kit.deadletters import main as dead_letters_command
from libs.kit.runtime import Runtime, provided
from services.match import consumers
from services.match.service import MatchService
from tests.integration.conftest import run_tool
from tests.integration.match.conftest import registered


def test_the_command_lists_and_retries_a_match_request_once(
    postgres_url: str,
    pool: ConnectionPool,
    schema_name: str,
    settings: Settings,
    svc: MatchService,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("DATABASE_URL", postgres_url)
    monkeypatch.setenv("ARCANA_MATCH_SCHEMA", svc.schema)
    mm = EventStore(pool, f"{schema_name}_mm")
    migrate(postgres_url, mm.schema)
    request_id = f"req-{uuid.uuid4()}"
    players = [{"id": str(uuid.uuid4()), "deck": list(STARTER_DECK)} for _ in range(2)]
    registered(svc, *(p["id"] for p in players))
    data = {"request_id": request_id, "mode": "casual", "players": players}
    [event] = mm.append("ticket-1", Expect.NO_STREAM, [NewEvent("MatchRequested", data)])
    failure = deadletters.Failure.first(RuntimeError("the match store was broken"))
    letter = deadletters.record(
        pool, svc.schema, consumers.CONSUMER, event, failure, "arcana.matchmaking.events", 2, 40
    )

    # Listed by the command as an operator runs it right after `make run` (no DATABASE_URL).
    listed = run_tool(postgres_url, "libs.kit.deadletters", "list", "--service", "match", stack_dir=tmp_path)
    assert listed.returncode == 0, listed.stderr
    assert str(event.event_id) in listed.stdout and "MatchRequested" in listed.stdout
    assert "the match store was broken" in listed.stdout

    runtime = Runtime(definition("match"), svc.schema, settings, pool)
    with provided("match", svc, runtime):
        assert dead_letters_command(["retry", str(letter.id), "--service", "match"]) == 0
        assert "applied" in capsys.readouterr().out
        assert dead_letters_command(["retry", "--all", "--service", "match"]) == 0
        assert dead_letters_command(["retry", str(letter.id), "--service", "match"]) == 0
        assert "not waiting" in capsys.readouterr().out

    created = svc.matches.read_events(match_id_for(request_id))
    assert sum(e.type == "MatchCreated" for e in created) == 1
    assert created[0].data["request_id"] == request_id
    [done] = deadletters.listed(pool, svc.schema, every=True)
    assert done.status == "retried"


def test_retry_needs_an_id_or_all(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        dead_letters_command(["retry", "--service", "match"])
    assert exited.value.code == 2 and "ID or --all" in capsys.readouterr().err
