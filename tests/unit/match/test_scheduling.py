"""Deadline tasks are coalesced per match: a process sends another only when none of its own is
still to come by the new deadline (the task that runs schedules the deadline it then finds)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from services.match import scheduling
from services.match.scheduling import ENFORCE_TASK, CeleryScheduler, PendingDeadlines

T0 = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def test_a_later_deadline_waits_for_the_task_still_to_come() -> None:
    pending = PendingDeadlines()
    assert pending.claim("m", at(30), now=at(0))  # mulligan deadline: sent
    assert not pending.claim("m", at(60), now=at(5))  # turn 1: the task at 30 s will follow up
    assert not pending.claim("m", at(30), now=at(5))  # the same deadline again
    assert pending.claim("m", at(20), now=at(5))  # earlier than the task to come: sent
    assert pending.claim("other", at(60), now=at(5))  # matches are independent


def test_once_the_task_is_due_the_next_deadline_is_sent() -> None:
    pending = PendingDeadlines()
    assert pending.claim("m", at(30), now=at(0))
    assert pending.claim("m", at(90), now=at(30))  # the task at 30 s is running or done
    assert not pending.claim("m", at(120), now=at(31))


def test_a_failed_send_is_released_and_tried_again() -> None:
    pending = PendingDeadlines()
    assert pending.claim("m", at(30), now=at(0))
    pending.release("m", at(30))
    assert pending.claim("m", at(60), now=at(1))


def test_the_oldest_entries_are_forgotten_beyond_the_limit() -> None:
    pending = PendingDeadlines(limit=2)
    for name in ("a", "b", "c"):
        assert pending.claim(name, at(30), now=at(0))
    assert pending.claim("a", at(40), now=at(1))  # forgotten: sent again (never fewer tasks)
    assert not pending.claim("c", at(40), now=at(1))


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, dict[str, Any]]]:
    calls: list[tuple[str, str, dict[str, Any]]] = []

    def fake_send(name: str, match_id: str, **options: Any) -> bool:
        calls.append((name, match_id, options))
        return options.get("eta") is None or len(calls) != 3  # the third send fails

    monkeypatch.setattr(CeleryScheduler, "_send", staticmethod(fake_send))
    monkeypatch.setattr(scheduling.clock, "now", lambda: at(0))
    return calls


def test_scheduler_sends_one_task_per_deadline_period(sent: list[Any]) -> None:
    scheduler = CeleryScheduler()
    for turn in range(5):  # a fast match: five turn deadlines before the first task runs
        scheduler.deadline("m", at(60 + turn))
    assert [(name, mid) for name, mid, _ in sent] == [(ENFORCE_TASK, "m")]
    eta = sent[0][2]["eta"]
    assert abs((eta - datetime.now(UTC)) - timedelta(seconds=60)) < timedelta(seconds=5)


def test_scheduler_sends_again_after_a_failed_send(sent: list[Any]) -> None:
    scheduler = CeleryScheduler()
    scheduler.deadline("a", at(60))
    scheduler.deadline("b", at(60))
    scheduler.deadline("c", at(60))  # fails
    scheduler.deadline("c", at(61))
    assert [mid for _, mid, _ in sent] == ["a", "b", "c", "c"]
