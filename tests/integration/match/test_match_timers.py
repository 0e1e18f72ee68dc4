"""Timers and presence with the clock moved in-process (no sleeping): turn timeouts, the three
timeouts forfeit, the mulligan default, the 120 s disconnection forfeit, reconnection, and sweeps
that overlap sharing the due matches."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

from psycopg_pool import ConnectionPool

from libs import clock
from libs.db.pool import CELERY_CHILD_POOL_MAX
from libs.games.arcana import STARTER_DECK
from services.match import presence, store
from services.match.root import assemble
from services.match.scheduling import RecordingScheduler
from services.match.service import MatchService
from services.match.usecases import polls as waiting


def _types(svc: MatchService, match_id: str, after: int = 0) -> list[str]:
    return [e.type for e in svc.matches.read_events(match_id, after)]


def _started(make_player: Any, admin: Any) -> tuple[Any, Any, str]:
    alice, bob = make_player(), make_player()
    match_id = admin([alice, bob], [list(STARTER_DECK)] * 2, first=alice.id, shuffle=False)
    return alice, bob, match_id


def _both_keep(alice: Any, bob: Any, match_id: str) -> None:
    alice.command(match_id, {"type": "mulligan", "cards": []})
    bob.command(match_id, {"type": "mulligan", "cards": []})


def test_a_turn_times_out_at_60_seconds_and_a_deadline_is_scheduled(
    make_player: Any, admin: Any, svc: MatchService, scheduler: RecordingScheduler
) -> None:
    alice, bob, match_id = _started(make_player, admin)
    _both_keep(alice, bob, match_id)
    view = alice.view(match_id)
    assert view["active_player"] == alice.id and view["deadline"] is not None
    assert scheduler.deadlines[-1][0] == match_id
    assert scheduler.deadlines[-1][1].isoformat() == view["deadline"]
    clock.advance(59)
    svc.sweeper.sweep()
    assert alice.view(match_id)["active_player"] == alice.id
    clock.advance(2)
    svc.sweeper.sweep()
    view = bob.view(match_id)
    assert view["active_player"] == bob.id and view["opponent"]["timeouts"] == 1
    timed = [e for e in svc.matches.read_events(match_id) if e.type == "TurnTimedOut"]
    assert [(e.data["player_id"], e.data["timeouts"]) for e in timed] == [(alice.id, 1)]


def test_a_deadline_task_schedules_the_deadline_it_finds(
    make_player: Any, admin: Any, svc: MatchService, scheduler: RecordingScheduler
) -> None:
    """Senders skip later deadlines while a task is to come, so the task must pass the baton."""
    alice, bob, match_id = _started(make_player, admin)
    _both_keep(alice, bob, match_id)
    alice.command(match_id, {"type": "end_turn"})
    current = bob.view(match_id)["deadline"]
    scheduler.deadlines.clear()
    svc.system.tick(match_id)  # the mulligan's task, run at its time: nothing due any more
    svc.system.follow_up(match_id)
    assert [(m, at.isoformat()) for m, at in scheduler.deadlines] == [(match_id, current)]
    clock.advance(61)
    scheduler.deadlines.clear()
    svc.system.follow_up(match_id)  # already past: the sweep's, not a task to run at once again and again
    assert scheduler.deadlines == []
    bob.command(match_id, {"type": "concede"})
    scheduler.deadlines.clear()
    svc.system.follow_up(match_id)  # ended: nothing more to enforce
    assert scheduler.deadlines == []


def test_three_timed_out_turns_in_a_row_forfeit(make_player: Any, admin: Any, svc: MatchService) -> None:
    alice, bob, match_id = _started(make_player, admin)
    _both_keep(alice, bob, match_id)
    for _ in range(5):  # alice: turns 1, 3, 5 time out; bob: 2, 4
        clock.advance(61)
        svc.sweeper.sweep()
        alice.view(match_id)  # both keep making requests: no disconnection forfeit
        bob.view(match_id)
    view = alice.view(match_id)
    assert view["phase"] == "ended" and view["winner"] == bob.id and view["reason"] == "timeouts"
    ended = svc.matches.read_events(match_id)[-1]
    assert (
        ended.type == "MatchEnded" and ended.data["loser"] == alice.id and ended.data["reason"] == "timeouts"
    )


def test_ending_a_turn_resets_the_timeout_count(make_player: Any, admin: Any, svc: MatchService) -> None:
    alice, bob, match_id = _started(make_player, admin)
    _both_keep(alice, bob, match_id)
    clock.advance(61)
    svc.sweeper.sweep()  # alice 1
    bob.command(match_id, {"type": "end_turn"})
    assert alice.view(match_id)["you"]["timeouts"] == 1
    alice.command(match_id, {"type": "end_turn"})
    assert alice.view(match_id)["you"]["timeouts"] == 0


def test_an_undecided_player_keeps_the_hand_at_30_seconds(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    alice, bob, match_id = _started(make_player, admin)
    hand = [c["id"] for c in bob.view(match_id)["you"]["hand"]]
    alice.command(match_id, {"type": "mulligan", "cards": [alice.view(match_id)["you"]["hand"][0]["id"]]})
    clock.advance(29)
    svc.sweeper.sweep()
    assert bob.view(match_id)["phase"] == "mulligan"
    clock.advance(2)
    svc.sweeper.sweep()
    view = bob.view(match_id)
    assert view["phase"] == "playing" and view["active_player"] == alice.id
    assert [c["id"] for c in view["you"]["hand"]] == hand
    kept = [
        e
        for e in svc.matches.read_events(match_id)
        if e.type == "MulliganCompleted" and e.data["player_id"] == bob.id
    ]
    assert len(kept) == 1 and kept[0].data["returned"] == []


def test_silence_disconnects_and_120_seconds_disconnected_forfeits(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    alice, bob, match_id = _started(make_player, admin)
    created = svc.matches.read_events(match_id)[0].occurred_at
    alice.command(match_id, {"type": "mulligan", "cards": []})  # bob never makes a request
    for _ in range(13):  # 130 s: bob disconnected at 20 s, not yet forfeited
        clock.advance(10)
        alice.view(match_id)
        svc.sweeper.sweep()
    view = alice.view(match_id)
    assert view["phase"] != "ended" and view["connected"] == {alice.id: True, bob.id: False}
    gone = [e for e in svc.matches.read_events(match_id) if e.type == "PlayerDisconnected"]
    assert [e.data["player_id"] for e in gone] == [bob.id]
    assert gone[0].data["since"] == (created + timedelta(seconds=20)).isoformat()
    for _ in range(2):
        clock.advance(10)
        alice.view(match_id)
        svc.sweeper.sweep()
    view = alice.view(match_id)
    assert view["phase"] == "ended" and view["winner"] == alice.id and view["reason"] == "disconnect"
    assert svc.matches.read_events(match_id)[-1].data["loser"] == bob.id


def test_any_request_reconnects(make_player: Any, admin: Any, svc: MatchService) -> None:
    alice, bob, match_id = _started(make_player, admin)
    clock.advance(25)
    svc.sweeper.sweep()
    assert alice.view(match_id)["connected"][bob.id] is False
    bob.get(f"/v1/matches/{match_id}/legal-commands")
    types = _types(svc, match_id)
    assert types.count("PlayerDisconnected") == 2 and types.count("PlayerReconnected") == 2
    assert alice.view(match_id)["connected"] == {alice.id: True, bob.id: True}


def test_a_waiting_long_poll_keeps_recording_presence(
    make_player: Any, admin: Any, svc: MatchService, monkeypatch: Any
) -> None:
    """A player who only waits stays connected: the poll records presence while it waits, not only
    when it starts and ends (the periodic write is shortened here from 10 s to 0.3 s)."""
    monkeypatch.setattr(waiting, "TOUCH_EVERY_SECONDS", 0.3)
    monkeypatch.setattr(presence, "PRESENCE_WRITE_SECONDS", 0.0)
    alice, bob, match_id = _started(make_player, admin)
    version = alice.view(match_id)["version"]
    poll = threading.Thread(target=bob.get, args=(f"/v1/matches/{match_id}/events?after={version}&wait=2",))
    poll.start()
    time.sleep(0.2)  # the poll has started and recorded its start
    clock.advance(30)  # bob makes no other request meanwhile
    later = clock.now()
    time.sleep(0.6)  # a periodic write falls in here, while the poll still waits
    with svc.matches.reading() as conn:
        seen = store.last_seen(conn, svc.schema, match_id)
    poll.join(5)
    assert seen[bob.id] >= later


def test_a_sweep_passes_over_a_match_another_sweep_is_working_on(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    """Overlapping sweeps (one every 2 s, one per Celery process, each longer than 2 s after an outage)
    share the due matches: a match another sweep has claimed is left to it, and the next sweep
    takes it once the claim is given back."""
    first, second = _started(make_player, admin), _started(make_player, admin)
    for alice, bob, match_id in (first, second):
        _both_keep(alice, bob, match_id)
    clock.advance(61)  # both turns overdue
    held = first[2]
    with svc.matches.reading() as other_sweep:
        assert store.claim_for_sweep(other_sweep, svc.schema, held)
        assert svc.sweeper.sweep() == 1
        assert "TurnTimedOut" not in _types(svc, held) and "TurnTimedOut" in _types(svc, second[2])
        store.release_sweep_claim(other_sweep, svc.schema, held)
    assert svc.sweeper.sweep() == 1
    assert "TurnTimedOut" in _types(svc, held)


def test_a_tick_after_an_outage_stores_everything_due_in_one_append(
    make_player: Any, admin: Any, svc: MatchService
) -> None:
    """Both players silent and the turn over, as after a crash of the whole stack: the two
    disconnections and the timeout are stored by one append (one moment, one commit instead of
    three), in ``next_due``'s order, and nothing is due after it."""
    alice, bob, match_id = _started(make_player, admin)
    _both_keep(alice, bob, match_id)
    known = len(svc.matches.read_events(match_id))
    clock.advance(61)
    assert svc.system.tick(match_id) == 3
    new = svc.matches.read_events(match_id, known)
    assert [e.type for e in new[:3]] == ["PlayerDisconnected", "PlayerDisconnected", "TurnTimedOut"]
    assert len({e.occurred_at for e in new}) == 1
    assert svc.system.tick(match_id) == 0
    view = bob.view(match_id)
    assert view["active_player"] == bob.id and view["connected"] == {alice.id: False, bob.id: True}


def test_a_sweep_enforces_a_deadline_within_a_celery_childs_pool(
    make_player: Any, admin: Any, postgres_url: str, match_schema: str
) -> None:
    """A Celery child holds at most CELERY_CHILD_POOL_MAX connections (libs/db/pool.py): the sweep's
    claims take one, the command's unit of work another, and the command reads in that one."""
    alice, bob, match_id = _started(make_player, admin)
    _both_keep(alice, bob, match_id)
    small = ConnectionPool(postgres_url, min_size=1, max_size=CELERY_CHILD_POOL_MAX, timeout=5, open=True)
    try:
        worker = assemble(small, match_schema, scheduler=RecordingScheduler())
        clock.advance(61)
        worker.sweeper.sweep()
        assert bob.view(match_id)["active_player"] == bob.id
    finally:
        small.close()
