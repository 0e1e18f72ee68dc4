"""A notifier's listener stops when closed (as every listener is before the test session's database
goes away, tests/conftest.py), and a later wait starts it again."""

from __future__ import annotations

import uuid

import psycopg

from harness.waiting import wait_until
from services.match import notify


def _listening(notifier: notify.MatchNotifier) -> bool:
    return notifier._listening


def test_a_closed_listener_stops_and_a_later_wait_listens_again(postgres_url: str) -> None:
    channel = f"t_{uuid.uuid4().hex[:8]}_match_events"
    notifier = notify.MatchNotifier(postgres_url, channel)
    # The first wait starts the listener. Its answer depends on whether the listener connected within
    # those 10 ms (a loaded machine decides), so it is not asserted here: tests/unit/match/test_notify.py
    # covers both answers with the listener's state set.
    notifier.wait("m-1", 0, 0.01)
    wait_until(lambda: _listening(notifier), 30, "the listener connected")
    thread = notifier._thread

    notify.close_all()
    assert thread is not None and not thread.is_alive()
    assert not _listening(notifier)

    notifier.wait("m-1", 0, 0.01)
    wait_until(lambda: _listening(notifier), 30, "the listener connected again")
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"NOTIFY {channel}, 'm-1:4'")
    assert notifier.wait("m-1", 3, 10.0) is True  # announced: woken, not timed out
    notifier.close()
    assert not notifier._thread.is_alive()  # type: ignore[union-attr]
