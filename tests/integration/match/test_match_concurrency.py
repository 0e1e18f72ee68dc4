"""Concurrent requests on one match: idempotent retries apply once; racing commands on one version:
one wins, the others get 409 with the current version; the stream never has a gap."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from harness.waiting import wait_until
from libs.eventstore import EventStore, NewEvent
from libs.games.arcana import STARTER_DECK
from services.match.service import MatchService


def _playing(make_player: Any, admin: Any) -> tuple[Any, Any, str]:
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK)] * 2, first=alice.id)
    alice.command(match_id, {"type": "mulligan", "cards": []})
    bob.command(match_id, {"type": "mulligan", "cards": []})
    return alice, bob, match_id


def _gap_free(svc: MatchService, match_id: str) -> list[int]:
    versions = [e.version for e in svc.matches.read_events(match_id)]
    assert versions == list(range(1, len(versions) + 1))
    return versions


def test_50_concurrent_identical_posts_with_one_key_apply_once(
    make_player: Any, admin: Any, svc: MatchService, counts: Any
) -> None:
    alice, _, match_id = _playing(make_player, admin)
    before = counts()
    version = alice.view(match_id)["version"]
    key = {"Idempotency-Key": f"end-{uuid.uuid4()}"}
    body = {"type": "end_turn", "expected_version": version}

    def post(_: int) -> tuple[int, Any]:
        r = alice.fresh().post(f"/v1/matches/{match_id}/commands", body, headers=key)
        return r.status_code, r.get_json()

    with ThreadPoolExecutor(50) as pool:
        results = list(pool.map(post, range(50)))
    assert {status for status, _ in results} == {200}
    assert len({repr(body) for _, body in results}) == 1
    ended = [e for e in svc.matches.read_events(match_id) if e.type == "TurnEnded"]
    assert len(ended) == 1
    after = counts()
    assert after["idempotency"] == before["idempotency"] + 1
    assert after["events"] - before["events"] == results[0][1]["version"] - version
    _gap_free(svc, match_id)


def test_50_different_commands_racing_on_one_version_one_applies(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    alice, _, match_id = _playing(make_player, admin)
    legal = alice.get(f"/v1/matches/{match_id}/legal-commands").get_json()
    version = legal["version"]
    bodies = [
        {**legal["commands"][i % len(legal["commands"])], "expected_version": version} for i in range(50)
    ]

    def post(body: dict[str, Any]) -> tuple[int, Any]:
        r = alice.fresh().post(f"/v1/matches/{match_id}/commands", body)
        return r.status_code, r.get_json()

    with ThreadPoolExecutor(50) as pool:
        results = list(pool.map(post, bodies))
    statuses = [s for s, _ in results]
    assert statuses.count(200) == 1 and statuses.count(409) == 49, statuses
    winner = next(body for s, body in results if s == 200)
    for status, body in results:
        if status == 409:
            assert body["error"]["code"] == "version_conflict"
            assert body["error"]["details"]["current_version"] in (winner["version"],)
    assert _gap_free(svc, match_id)[-1] == winner["version"]
    assert svc.matches.verify_replay(match_id) == []


def test_both_players_mulligan_at_once_without_a_version_both_apply(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    """A command without ``expected_version`` that loses a race is decided again, not refused."""
    for round_ in range(8):
        alice, bob = make_player(), make_player()
        match_id = admin([alice, bob], [list(STARTER_DECK)] * 2, first=alice.id)
        barrier = threading.Barrier(2)

        def mulligan(player: Any, match_id: str = match_id, barrier: threading.Barrier = barrier) -> Any:
            client = player.fresh()
            barrier.wait()
            r = client.post(f"/v1/matches/{match_id}/commands", {"type": "mulligan", "cards": []})
            return r.status_code, r.get_json()

        with ThreadPoolExecutor(2) as pool:
            results = list(pool.map(mulligan, [alice, bob]))
        assert [status for status, _ in results] == [200, 200], (round_, results)
        view = alice.view(match_id)
        assert (
            view["phase"] == "playing" and view["you"]["mulligan_done"] and view["opponent"]["mulligan_done"]
        )
        _gap_free(svc, match_id)
        assert svc.matches.verify_replay(match_id) == []


def test_a_stale_expected_version_is_still_refused_after_a_lost_race(make_player: Any, admin: Any) -> None:
    alice, bob, match_id = _playing(make_player, admin)
    version = alice.view(match_id)["version"]
    alice.command(match_id, {"type": "end_turn"})
    r = bob.post(f"/v1/matches/{match_id}/commands", {"type": "end_turn", "expected_version": version})
    assert r.status_code == 409 and r.get_json()["error"]["details"]["current_version"] > version


def test_a_command_decided_on_a_cached_version_that_another_process_moved_past_is_a_409(
    make_player: Any, admin: Any, svc: MatchService, counts: Any
) -> None:
    """The web process decides a command on its cached state when the client names that version;
    here another process (the Celery side, its own cache) appended after it, so the append fails."""
    alice, bob, match_id = _playing(make_player, admin)
    version = alice.view(match_id)["version"]  # the web process now caches this version
    with svc.pool.connection() as conn, conn.transaction():
        svc.commands.player_command(
            match_id, alice.id, {"type": "end_turn"}, version, svc.matches.unit_of_work(conn)
        )
    before = counts()
    r = alice.post(f"/v1/matches/{match_id}/commands", {"type": "end_turn", "expected_version": version})
    assert r.status_code == 409 and r.get_json()["error"]["details"]["current_version"] > version
    assert counts() == before
    assert bob.view(match_id)["active_player"] == bob.id  # alice's one end_turn, not two
    _gap_free(svc, match_id)


def test_with_an_idempotency_key_a_command_on_a_cached_version_another_process_moved_past_is_a_409(
    make_player: Any, admin: Any, svc: MatchService, counts: Any
) -> None:
    """As above, inside an Idempotency-Key's outer transaction: its connection is not in pipeline
    mode, so the append syncs a pipeline of its own and its refusal comes at once (it was a 500)."""
    alice, bob, match_id = _playing(make_player, admin)
    version = alice.view(match_id)["version"]
    with svc.pool.connection() as conn, conn.transaction():
        svc.commands.player_command(
            match_id, alice.id, {"type": "end_turn"}, version, svc.matches.unit_of_work(conn)
        )
    before = counts()
    key = {"Idempotency-Key": f"stale-{uuid.uuid4()}"}
    body = {"type": "end_turn", "expected_version": version}
    r = alice.post(f"/v1/matches/{match_id}/commands", body, headers=key)
    assert r.status_code == 409, r.get_json()
    assert r.get_json()["error"]["details"]["current_version"] > version
    assert counts()["events"] == before["events"]
    assert bob.view(match_id)["active_player"] == bob.id
    _gap_free(svc, match_id)


def test_a_command_that_loses_to_a_longer_append_is_told_the_stream_s_version(
    make_player: Any, admin: Any, pool: Any, match_schema: str
) -> None:
    """The refusal names the first version the winner took; when the winner appended two events the
    409 must still name where the stream is, the version a client decides on next."""
    alice, _, match_id = _playing(make_player, admin)
    version = alice.view(match_id)["version"]
    store = EventStore(pool, match_schema)
    body = {"type": "end_turn", "expected_version": version}
    with ThreadPoolExecutor(1) as player:
        with pool.connection() as other, other.transaction():
            two = [NewEvent("TurnTimedOut", {}), NewEvent("TurnEnded", {})]  # another writer, uncommitted
            store.append(f"match-{match_id}", version, two, conn=other)
            answer = player.submit(lambda: alice.fresh().post(f"/v1/matches/{match_id}/commands", body))
            wait_until(lambda: _waiting_on_a_lock(pool), 20, "the command waiting on the other append")
        r = answer.result(30)
    assert r.status_code == 409, r.get_json()
    assert r.get_json()["error"]["details"]["current_version"] == version + 2


def _waiting_on_a_lock(pool: Any) -> bool:
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ).fetchone()
    return bool(row and row[0])
