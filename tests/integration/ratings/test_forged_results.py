"""Issue 34, finding 3: ratings rated any ranked ``MatchEnded`` that reached it (15 forged: +161
rating). It now rates only the result of a match it saw start (match's ``MatchCreated``, on the same
stream and topic, before it) with the same players; anything else is a dead letter, rated nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from psycopg import sql

from libs.bus import OutboxRelay, topic_for
from libs.contracts import Unacceptable
from libs.eventstore import Expect, NewEvent
from libs.kit import definition
from libs.kit.consume import subscription_runner
from services.ratings.service import RatingsService
from tests.integration.bus.helpers import wait_until

from .conftest import created, ended

FORGED = 15


def _dead_letters(svc: RatingsService) -> list[str]:
    with svc.pool.connection() as conn:
        query = sql.SQL("SELECT event_id FROM {}").format(sql.Identifier(svc.schema, "dead_letters"))
        return [str(r[0]) for r in conn.execute(query).fetchall()]


def test_forged_ranked_results_on_the_broker_rate_nothing_and_are_dead_letters(
    svc: RatingsService, source: Any, make_broker: Any
) -> None:
    main = str(uuid.uuid4())
    honest = ended(main, str(uuid.uuid4()))
    source.append(
        f"match-{honest['match_id']}",
        Expect.ANY,
        [NewEvent("MatchCreated", created(honest)), NewEvent("MatchEnded", honest)],
    )
    forged = [NewEvent("MatchEnded", ended(main, str(uuid.uuid4()))) for _ in range(FORGED)]
    for event in forged:
        source.append(f"match-{event.data['match_id']}", Expect.ANY, [event])
    broker = make_broker.start()
    service = f"src{uuid.uuid4().hex[:8]}"
    relay = OutboxRelay(source, service, broker.bootstrap, backoff_max=1.0)
    (matches,) = [s for s in definition("ratings").subscriptions if "MatchEnded" in s.handlers]
    runner = subscription_runner(
        matches, svc, svc.pool, svc.schema, broker.bootstrap, topics=[topic_for(service)]
    )
    relay.start()
    runner.start()
    try:
        wait_until(lambda: runner.applied + runner.dead_lettered == FORGED + 2, 90, "every event handled")
    finally:
        relay.stop()
        runner.stop()
    assert svc.mine(main)["rating"] == 920 and svc.mine(main)["games"] == 1  # the honest match only
    assert sorted(_dead_letters(svc)) == sorted(str(e.event_id) for e in forged)


def test_a_result_with_other_players_than_the_match_started_with_is_refused(
    svc: RatingsService, deliver: Callable[..., None]
) -> None:
    a, b, c = (str(uuid.uuid4()) for _ in range(3))
    match = ended(a, b)
    deliver("MatchCreated", created(match))
    with pytest.raises(Unacceptable):
        deliver("MatchEnded", {**match, "players": [a, c], "loser": c}, started=False)
    with pytest.raises(Unacceptable):
        deliver("MatchEnded", ended(a, b), started=False)  # never started
    assert not list(svc.events.iter_all())
    deliver("MatchEnded", match, started=False)  # the real one, after its start
    assert svc.mine(a)["games"] == 1 and svc.mine(b)["games"] == 1


def test_casual_and_practice_starts_are_not_kept(svc: RatingsService, deliver: Callable[..., None]) -> None:
    casual = ended(str(uuid.uuid4()), str(uuid.uuid4()), mode="casual")
    deliver("MatchCreated", created(casual))
    with svc.pool.connection() as conn:
        count = conn.execute(
            sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(svc.schema, "started_matches"))
        )
        assert count.fetchone()[0] == 0  # type: ignore[index]
