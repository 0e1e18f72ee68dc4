"""Issue 34, finding 2 (the database half): the analysts' role read every `events` table, so it saw
the seed, the deck orders and the cards drawn of running matches. It reads a match's events only
once the match has ended now (the analysts' view, `libs.db.analyst`), and `arcana export` and
`arcana replay` read through that view."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import yaml
from psycopg import errors as pg_errors
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from libs.config import PROJECT_ROOT
from libs.db import migrate
from libs.db.analyst import analytics_schema, publish_events_views
from libs.db.roles import RolePlan, ensure_roles
from libs.eventstore import EventStore, NewEvent
from libs.layout import service_names
from services.match.service import MatchService
from tests.integration.match.play import decks_without_common_cards, play_to_end
from tests.unit.test_arcana_command import arcana

HIDDEN = ("DeckShuffled", "CardDrawn")  # a running match's deck orders and draws


@pytest.fixture
def analyst(postgres_url: str, match_schema: str) -> Iterator[str]:
    """The analysts' role of a role plan over the match schema, converged as the roles Job and the
    migration Job do; yields its database URL."""
    tag = uuid.uuid4().hex[:8]
    plan = RolePlan((match_schema,), prefix=f"a{tag}_")
    password = f"pw-{tag}"
    ensure_roles(postgres_url, plan, {plan.analyst_role: password})
    with psycopg.connect(postgres_url, autocommit=True) as conn:  # what libs.db.migrate_all does
        publish_events_views(conn, {"match": match_schema}, plan.analyst_role)
    yield make_conninfo(postgres_url, user=plan.analyst_role, password=password)


@pytest.fixture
def two_matches(make_player: Any, admin: Any, svc: MatchService) -> dict[str, str]:
    """One match played to its end and one running (its players dealt their hands, no move yet)."""
    alice, bob = make_player(), make_player()
    ended = admin([alice, bob], list(decks_without_common_cards()))
    play_to_end({alice.id: alice, bob.id: bob}, svc, ended)
    running = admin([make_player(), make_player()], list(decks_without_common_cards()))
    return {"ended": ended, "running": running}


def _rows(url: str, table: sql.Composed, stream: str) -> list[tuple[str, dict[str, Any]]]:
    with psycopg.connect(url, autocommit=True) as conn:
        query = sql.SQL("SELECT type, data FROM {} WHERE stream = %s ORDER BY version").format(table)
        return [(kind, data) for kind, data in conn.execute(query, (stream,)).fetchall()]


def test_the_analyst_reads_an_ended_match_whole_and_nothing_of_a_running_one(
    analyst: str, match_schema: str, pool: Any, two_matches: dict[str, str]
) -> None:
    running, ended = f"match-{two_matches['running']}", f"match-{two_matches['ended']}"
    assert {e.type for e in EventStore(pool, match_schema).read(running)} >= set(HIDDEN)  # there to see

    with psycopg.connect(analyst, autocommit=True) as conn, pytest.raises(pg_errors.InsufficientPrivilege):
        conn.execute(
            sql.SQL("SELECT data FROM {} WHERE stream = %s").format(sql.Identifier(match_schema, "events")),
            (running,),
        )
    view = sql.Identifier(analytics_schema(match_schema), "events")
    assert _rows(analyst, view, running) == []
    whole = _rows(analyst, view, ended)
    assert [(e.type, e.data) for e in EventStore(pool, match_schema).read(ended)] == whole
    assert {kind for kind, _ in whole} >= {*HIDDEN, "MatchStarted", "MatchEnded"}
    assert any("seed" in data for _, data in whole)


def _user(url: str) -> str:
    return str(conninfo_to_dict(url)["user"])


def _as_analyst(analyst: str, match_schema: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": analyst, "ARCANA_MATCH_SCHEMA": match_schema}


def test_export_and_replay_as_the_analyst_give_ended_matches_only(
    analyst: str, match_schema: str, two_matches: dict[str, str]
) -> None:
    env = _as_analyst(analyst, match_schema)
    done = arcana("export", "--service", "match", "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    streams = {json.loads(line)["stream"] for line in done.stdout.splitlines()}
    assert streams == {f"match-{two_matches['ended']}"}

    replayed = arcana("replay", two_matches["ended"], "--schema", match_schema, env=env)
    assert replayed.returncode == 0, replayed.stderr
    assert "every stored state hash matches" in replayed.stdout
    hidden = arcana("replay", two_matches["running"], "--schema", match_schema, env=env)
    assert hidden.returncode == 2 and f"no match {two_matches['running']}" in hidden.stderr
    assert hidden.stdout == ""


def test_a_replay_missing_an_event_says_so_in_one_line_and_exits_1(
    postgres_url: str, match_schema: str, two_matches: dict[str, str], tmp_path: Path
) -> None:
    env = {**os.environ, "DATABASE_URL": postgres_url, "ARCANA_MATCH_SCHEMA": match_schema}
    export = tmp_path / "match.jsonl"
    assert arcana("export", "--service", "match", "--output", str(export), env=env).returncode == 0
    ended = two_matches["ended"]
    lines = export.read_text().splitlines(keepends=True)
    gap = next(
        n
        for n, line in enumerate(lines)
        if (e := json.loads(line))["stream"] == f"match-{ended}" and e["version"] == 7
    )
    holed = tmp_path / "holed.jsonl"
    holed.write_text("".join(lines[:gap] + lines[gap + 1 :]))

    done = arcana("replay", ended, "--export", str(holed), env=env)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"match {ended}: cannot replay, event version(s) 7 missing"]


def _cluster_export_arguments(output: Path) -> list[str]:
    """The `arcana` arguments of the in-cluster export (deploy/k8s/components/analytics-export), its
    output in ``output`` instead of the pod's /export."""
    path = PROJECT_ROOT / "deploy" / "k8s" / "components" / "analytics-export" / "export.yaml"
    manifest = yaml.safe_load(path.read_text())
    [export] = manifest["spec"]["jobTemplate"]["spec"]["template"]["spec"]["initContainers"]
    arguments = [*export["command"][1:], *export["args"]]
    return [str(output / Path(a).name) if a.startswith("/export/") else a for a in arguments]


def test_the_cluster_export_as_the_analyst_writes_json_lines_of_ended_matches_alone(
    postgres_url: str, analyst: str, match_schema: str, two_matches: dict[str, str], tmp_path: Path
) -> None:
    env = _as_analyst(analyst, match_schema)
    others = {name: f"{match_schema}_{name[:4]}" for name in service_names() if name != "match"}
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        for name, schema in others.items():  # every other service's (empty) store, as migrate_all leaves it
            migrate(postgres_url, schema)
            env[f"ARCANA_{name.upper()}_SCHEMA"] = schema
        publish_events_views(conn, others, _user(analyst))
    output = tmp_path / "export"
    output.mkdir()
    done = arcana(*_cluster_export_arguments(output), env=env)
    assert done.returncode == 0, done.stderr
    assert [p.name for p in output.iterdir()] == ["events.jsonl"]  # the output holds the export alone
    exported = [json.loads(line) for line in (output / "events.jsonl").read_text().splitlines()]
    assert {e["stream"] for e in exported} == {f"match-{two_matches['ended']}"}
    assert "exported" in done.stderr and done.stdout == ""


def test_the_analyst_reads_matchmaking_without_the_deck_lists_older_events_carried(
    postgres_url: str, pool: Any, analyst: str, match_schema: str
) -> None:
    """A version 1 TicketOpened listed the ticket's deck and an older MatchRequested each player's:
    the view leaves the lists out (as the topic does), and keeps every other field."""
    schema = f"{match_schema}_mm"
    migrate(postgres_url, schema)
    store = EventStore(pool, schema)
    deck = ["c01", "c01", "c02"]
    opened = {"ticket_id": "t-1", "player_id": "p-1", "mode": "ranked", "rating": 900, "deck": deck}
    requested = {
        "request_id": "r-1",
        "mode": "ranked",
        "players": [{"id": "p-1", "deck": deck}, {"id": "p-2"}],
    }
    store.append("ticket-t-1", 0, [NewEvent("TicketOpened", opened)])
    store.append("request-r-1", 0, [NewEvent("MatchRequested", requested)])
    store.append("ticket-t-2", 0, [NewEvent("TicketCancelled", {"ticket_id": "t-2", "reason": "player"})])
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        publish_events_views(conn, {"matchmaking": schema}, _user(analyst))

    view = sql.Identifier(analytics_schema(schema), "events")
    assert _rows(analyst, view, "ticket-t-1") == [
        ("TicketOpened", {k: v for k, v in opened.items() if k != "deck"})
    ]
    assert _rows(analyst, view, "request-r-1") == [
        ("MatchRequested", {**requested, "players": [{"id": "p-1"}, {"id": "p-2"}]})
    ]
    assert _rows(analyst, view, "ticket-t-2") == [
        ("TicketCancelled", {"ticket_id": "t-2", "reason": "player"})
    ]
    with psycopg.connect(analyst, autocommit=True) as conn, pytest.raises(pg_errors.InsufficientPrivilege):
        conn.execute(sql.SQL("SELECT data FROM {}").format(sql.Identifier(schema, "events")))


def test_the_analyst_reads_accounts_without_the_usernames_older_events_carried(
    postgres_url: str, pool: Any, analyst: str, match_schema: str
) -> None:
    """Issue 34, point 6: version 1 of PlayerRegistered and PlayerLoggedIn carried the log-in name;
    the analysts' view of accounts leaves it out (as the events since and the topic do)."""
    schema = f"{match_schema}_acc"
    migrate(postgres_url, schema)
    player = str(uuid.uuid4())
    stream = f"player-{player}"
    older = {"player_id": player, "username": "ada_login"}
    store = EventStore(pool, schema)
    store.append(stream, 0, [NewEvent("PlayerRegistered", older), NewEvent("PlayerLoggedIn", older)])
    named = NewEvent("DisplayNameChanged", {"player_id": player, "display_name": "Ada L"})
    store.append(stream, 2, [named])
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        publish_events_views(conn, {"accounts": schema}, _user(analyst))

    assert _rows(analyst, sql.Identifier(analytics_schema(schema), "events"), stream) == [
        ("PlayerRegistered", {"player_id": player}),
        ("PlayerLoggedIn", {"player_id": player}),
        ("DisplayNameChanged", {"player_id": player, "display_name": "Ada L"}),
    ]
