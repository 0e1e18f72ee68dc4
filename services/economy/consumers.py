"""What economy consumes and pays: ``PlayerRegistered`` and ``PlayerLoggedIn`` (accounts),
``MatchEnded`` (match), ``RewardGranted`` (progression).

Every message is applied once through the inbox (``libs.bus.consumer``); on top of that every
credit's event id is derived from its source (``service.credit_event_id``), so the same payment
can never be written twice: not on a redelivery, a consumer restart, a replayed broker, nor an
event republished with another id. Events of different streams arrive in any order: a credit for
a player whose ``PlayerRegistered`` has not arrived yet is kept, and the opening adds to it.

Run: ``python -m services.economy.consumers`` (``DATABASE_URL``, ``KAFKA_BOOTSTRAP_SERVERS``).
"""

from __future__ import annotations

import logging
import os
from typing import Any

import psycopg

from libs.bus import ConsumerRunner, run_consumer_process, topic_for
from libs.bus.consumer import Handler
from libs.eventstore import RecordedEvent
from services.economy.domain import AlreadyCredited, AlreadyOpened
from services.economy.domain.credits import PlayerCredit, daily_login, match_credits, reward_credit
from services.economy.service import EconomyService

log = logging.getLogger(__name__)

CONSUMER = "economy-credits"
TOPICS = (topic_for("accounts"), topic_for("match"), topic_for("progression"))


def _pay(svc: EconomyService, paid: PlayerCredit, conn: psycopg.Connection[Any]) -> bool:
    """Pay one credit in the consumer's transaction; False when it was paid already."""
    try:
        svc.credit(paid, conn=conn)
    except AlreadyCredited:
        log.info("%s for %s was paid already", paid.credit.source, paid.player_id)
        return False
    return True


def _registered(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    player = event.data.get("player_id")
    if not isinstance(player, str) or not player:
        log.error("PlayerRegistered %s without a player id; skipped", event.event_id)
        return
    try:
        svc.open_account(player, conn=conn)
    except AlreadyOpened:
        log.info("player %s has a wallet already", player)


def _logged_in(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    player = event.data.get("player_id")
    if isinstance(player, str) and player:
        _pay(svc, daily_login(player, event.occurred_at), conn)


def _match_ended(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    for paid in match_credits(event.data):
        _pay(svc, paid, conn)


def _reward(svc: EconomyService, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    paid = reward_credit(event.data)
    if paid is None:
        log.error("RewardGranted %s is malformed; skipped: %r", event.event_id, event.data)
        return
    _pay(svc, paid, conn)


_BY_TYPE = {
    "PlayerRegistered": _registered,
    "PlayerLoggedIn": _logged_in,
    "MatchEnded": _match_ended,
    "RewardGranted": _reward,
}


def handler_for(svc: EconomyService) -> Handler:
    """The consumer's handler: apply one event of the consumed topics (others are ignored)."""

    def handle(event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
        action = _BY_TYPE.get(event.type)
        if action is not None:
            action(svc, event, conn)

    return handle


def build_runner(
    svc: EconomyService,
    bootstrap: str,
    *,
    name: str = CONSUMER,
    topics: tuple[str, ...] = TOPICS,
    **options: Any,
) -> ConsumerRunner:
    return ConsumerRunner(svc.pool, svc.schema, name, list(topics), handler_for(svc), bootstrap, **options)


def main() -> None:
    from libs.bus.process import require_env
    from libs.db import make_pool

    pool = make_pool(require_env("DATABASE_URL"), min_size=1, max_size=4, name="economy-consumers")
    try:
        svc = EconomyService(pool, os.environ.get("ARCANA_ECONOMY_SCHEMA", "economy"))
        run_consumer_process(build_runner(svc, require_env("KAFKA_BOOTSTRAP_SERVERS")))
    finally:
        pool.close()


if __name__ == "__main__":
    main()
