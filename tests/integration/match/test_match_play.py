"""Complete matches through the Flask test client, two players, against the real PostgreSQL."""

from __future__ import annotations

import threading
import time
from typing import Any

from psycopg import sql

from libs.games.arcana import STARTER_DECK
from services.match.service import MatchService
from tests.integration.conftest import run_tool
from tests.integration.match.play import decks_without_common_cards, play_to_end


def test_two_players_play_a_complete_match(make_player: Any, admin: Any, svc: MatchService) -> None:
    alice, bob = make_player(), make_player()
    a, b = decks_without_common_cards()
    match_id = admin([alice, bob], [a, b])
    view = alice.view(match_id)
    assert view["phase"] == "mulligan" and view["version"] > 1 and view["mode"] == "admin"
    play_to_end({alice.id: alice, bob.id: bob}, svc, match_id)
    final_a, final_b = alice.view(match_id), bob.view(match_id)
    assert final_a["phase"] == "ended" and final_a["winner"] in (alice.id, bob.id, "draw")
    assert final_a["version"] == final_b["version"]
    assert svc.matches.verify_replay(match_id) == []
    events = svc.matches.read_events(match_id, 0)
    assert [e.version for e in events] == list(range(1, len(events) + 1))
    ended = events[-1]
    assert ended.type == "MatchEnded" and ended.data["mode"] == "admin"
    assert set(ended.data["stats"]) == {alice.id, bob.id} and ended.data["turns"] >= 1
    if ended.data["draw"]:
        assert ended.data["loser"] is None
    else:
        assert {ended.data["winner"], ended.data["loser"]} == {alice.id, bob.id}


def test_events_long_poll_and_legal_commands(make_player: Any, admin: Any) -> None:
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK), list(STARTER_DECK)], first=alice.id)
    r = alice.get(f"/v1/matches/{match_id}/events?after=0")
    body = r.get_json()
    assert r.status_code == 200 and body["events"][0]["type"] == "MatchCreated"
    version = body["version"]
    legal = alice.get(f"/v1/matches/{match_id}/legal-commands").get_json()
    assert legal["version"] == version and all(c["type"] == "mulligan" for c in legal["commands"])
    assert sorted(legal["awaiting"]) == sorted([alice.id, bob.id])  # both decide their mulligan
    r = alice.get(f"/v1/matches/{match_id}/events?after={version}&wait=0.3")
    # Nothing new, but the answer says what the match waits for: her mulligan, among others.
    assert r.status_code == 200 and r.get_json() == {
        "version": version,
        "events": [],
        "legal_commands": legal["commands"],
        "awaiting": legal["awaiting"],
    }
    assert alice.command(match_id, {"type": "mulligan", "cards": []})["awaiting"] == [bob.id]
    polled: dict[str, Any] = {}
    waiting = threading.Thread(  # alice waits for bob's mulligan, as a client would
        target=lambda: polled.update(
            alice.get(f"/v1/matches/{match_id}/events?after={version + 1}&wait=5").get_json()
        )
    )
    waiting.start()
    answer = bob.command(match_id, {"type": "mulligan", "cards": [], "expected_version": version + 1})
    assert answer["legal_commands"] == [] and answer["awaiting"] == [alice.id]  # alice moves first
    waiting.join(10)
    legal = alice.get(f"/v1/matches/{match_id}/legal-commands").get_json()
    assert {"type": "end_turn"} in legal["commands"]
    # Her long-poll returned bob's mulligan and her turn, with what she may do now: no other request.
    assert polled["events"][0]["type"] == "MulliganCompleted" and polled["version"] == legal["version"]
    assert polled["awaiting"] == [alice.id] and polled["legal_commands"] == legal["commands"]
    r = bob.get(f"/v1/matches/{match_id}/events?after={version}&wait=5").get_json()
    types = [e["type"] for e in r["events"]]
    assert types[:2] == ["MulliganCompleted", "MulliganCompleted"] and "TurnStarted" in types
    assert r["awaiting"] == [alice.id] and r["legal_commands"] == []  # not bob's move
    assert bob.get(f"/v1/matches/{match_id}/legal-commands").get_json()["commands"] == []
    answer = alice.command(match_id, {"type": "end_turn"})
    assert answer["legal_commands"] == [] and answer["awaiting"] == [bob.id]
    answer = bob.command(match_id, {"type": "concede"})
    assert answer["legal_commands"] == [] and answer["awaiting"] == []


def test_replay_command_replays_turn_by_turn_and_detects_drift(
    make_player: Any, admin: Any, svc: MatchService, postgres_url: str, match_schema: str, pool: Any
) -> None:
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK), list(STARTER_DECK)])
    alice.command(match_id, {"type": "mulligan", "cards": []})
    bob.command(match_id, {"type": "mulligan", "cards": []})
    args = (match_id, "--schema", match_schema, "--as", bob.id)
    done = run_tool(postgres_url, "services.match.replay", *args)
    assert done.returncode == 0, done.stderr
    assert "--- turn 1" in done.stdout and "every stored state hash matches" in done.stdout
    assert '"seed"' not in done.stdout
    with pool.connection() as conn:
        conn.execute(
            sql.SQL(
                "UPDATE {} SET data = jsonb_set(data, '{{state_hash}}', '\"tampered\"') "
                "WHERE stream = %s AND data ? 'state_hash'"
            ).format(sql.Identifier(match_schema, "events")),
            (f"match-{match_id}",),
        )
    done = run_tool(postgres_url, "services.match.replay", *args)
    assert done.returncode == 1 and "DRIFT" in done.stderr


def test_a_long_poll_wakes_up_when_the_opponent_moves(make_player: Any, admin: Any) -> None:
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK), list(STARTER_DECK)], first=alice.id)
    version = bob.view(match_id)["version"]
    answer: dict[str, Any] = {}

    def poll() -> None:
        started = time.monotonic()
        answer["body"] = bob.fresh().get(f"/v1/matches/{match_id}/events?after={version}&wait=20").get_json()
        answer["seconds"] = time.monotonic() - started

    waiting = threading.Thread(target=poll)
    waiting.start()
    time.sleep(0.5)  # bob is waiting now
    alice.command(match_id, {"type": "mulligan", "cards": []})
    waiting.join(25)
    assert answer["seconds"] < 5  # woken by the notification, not by the 20 s timeout
    assert [e["type"] for e in answer["body"]["events"]] == ["MulliganCompleted"]
    assert answer["body"]["events"][0]["data"] == {"player_id": alice.id, "count": 0}
