"""The notifier wakes exactly the waiters of the announced match, and waiters poll the database only
while the listener is down."""

from __future__ import annotations

import threading
import time

import pytest

from services.match.notify import FALLBACK_SECONDS, MatchNotifier


@pytest.fixture
def notifier(monkeypatch: pytest.MonkeyPatch) -> MatchNotifier:
    n = MatchNotifier("postgresql://nobody@127.0.0.1:1/none", "test_match_events")
    monkeypatch.setattr(n, "_ensure_started", lambda: None)  # no listener thread: the test announces
    return n


def _waiting(notifier: MatchNotifier, count: int) -> None:
    for _ in range(500):
        if notifier.waiting() == count:
            return
        time.sleep(0.01)
    raise AssertionError(f"{notifier.waiting()} waiters, expected {count}")


def _start(notifier: MatchNotifier, match: str, after: int, seconds: float, out: dict) -> threading.Thread:
    t = threading.Thread(target=lambda: out.__setitem__(match, notifier.wait(match, after, seconds)))
    t.start()
    return t


def test_an_announcement_wakes_only_its_matchs_waiters(notifier: MatchNotifier) -> None:
    notifier._set_listening(True)
    woken: dict[str, bool] = {}
    a = _start(notifier, "a", 3, 30.0, woken)
    b = _start(notifier, "b", 3, 30.0, woken)
    _waiting(notifier, 2)
    notifier.announce("a:3")  # not past the version waited after
    notifier.announce("b:4")
    b.join(5)
    assert woken == {"b": True}
    _waiting(notifier, 1)
    notifier.announce("a:4")
    a.join(5)
    assert woken == {"a": True, "b": True}
    assert notifier.waiting() == 0


def test_an_announcement_before_the_wait_is_not_missed(notifier: MatchNotifier) -> None:
    notifier._set_listening(True)
    notifier.announce("m:7")
    assert notifier.wait("m", 6, 30.0) is True


def test_while_listening_a_wait_runs_its_full_time_and_says_nothing_is_new(notifier: MatchNotifier) -> None:
    notifier._set_listening(True)
    assert notifier.wait("m", 0, FALLBACK_SECONDS * 1.5) is False  # timed out: no database read


def test_while_not_listening_a_waiter_is_told_to_look_at_the_database(notifier: MatchNotifier) -> None:
    assert notifier.wait("m", 0, FALLBACK_SECONDS / 2) is True  # nothing announced, yet: look


def test_a_reconnected_listener_wakes_every_waiter_to_look(notifier: MatchNotifier) -> None:
    notifier._set_listening(True)
    woken: dict[str, bool] = {}
    threads = [_start(notifier, m, 1, 30.0, woken) for m in ("a", "b", "c")]
    _waiting(notifier, 3)
    notifier._set_listening(False)  # notifications sent while it is down are lost
    for t in threads:
        t.join(5)
    assert woken == {"a": True, "b": True, "c": True}
