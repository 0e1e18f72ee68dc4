"""Every consumer decodes another service's event with its contract before doing anything: an event
that does not decode raises MalformedEvent (the runner dead-letters it at once), never skipped or
half applied. The handlers run as the consumer runs them (``libs.kit.consume.handler_for``) on the
real service objects, built without a database, and with no connection: work before the decode
would fail otherwise."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest

from libs import clock
from libs.contracts import MalformedEvent
from libs.eventstore import RecordedEvent
from libs.kit import definition
from libs.kit.consume import handler_for
from services.economy.service import EconomyService
from services.matchmaking.service import MatchmakingService
from services.progression.service import ProgressionService
from services.ratings.service import RatingsService

# accounts consumes nothing; match decodes in its own branch
SERVICES: dict[str, Callable[[], Any]] = {
    "economy": lambda: EconomyService(None, "economy"),  # type: ignore[arg-type]
    "matchmaking": lambda: MatchmakingService(None, "matchmaking"),  # type: ignore[arg-type]
    "progression": lambda: ProgressionService(None, "progression"),  # type: ignore[arg-type]
    "ratings": lambda: RatingsService(None, "ratings"),  # type: ignore[arg-type]
}
CONSUMED = [
    (svc, sub.name, kind)
    for svc in SERVICES
    for sub in definition(svc).subscriptions
    for kind in sub.handlers
]


def _event(kind: str, data: dict[str, object]) -> RecordedEvent:
    return RecordedEvent(uuid.uuid4(), "s-1", 1, 1, kind, 1, clock.now(), None, None, data)


@pytest.mark.parametrize(("service", "subscription", "kind"), CONSUMED)
@pytest.mark.parametrize("data", [{}, {"player_id": 7, "match_id": None, "request_id": 3, "turns": "9"}])
def test_a_consumed_event_that_does_not_decode_is_refused_before_any_work(
    service: str, subscription: str, kind: str, data: dict[str, object]
) -> None:
    (sub,) = [s for s in definition(service).subscriptions if s.name == subscription]
    handle = handler_for(sub, SERVICES[service](), service)
    with pytest.raises(MalformedEvent, match=kind):
        handle(_event(kind, data), None)  # type: ignore[arg-type]


def test_the_consumers_checked_are_every_subscription_of_those_services() -> None:
    kinds = {(svc, kind) for svc, _, kind in CONSUMED}
    assert len(kinds) == 7 + 7 + 2 + 5 + 4 * 2  # economy, matchmaking, progression, ratings; log-outs
    assert {("matchmaking", "AccountSuspended"), ("matchmaking", "RatingChangeVoided")} <= kinds  # operators
    assert ("economy", "RewardGranted") in kinds and ("matchmaking", "SessionRevoked") in kinds
    assert ("ratings", "DisplayNameChanged") in kinds and ("ratings", "AccountDeleted") in kinds
