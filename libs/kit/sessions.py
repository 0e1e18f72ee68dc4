"""Revoked sessions in every service: what the kit adds to each service but accounts.

Accounts publishes ``SessionRevoked`` (one token logged out) and ``AllSessionsRevoked`` (the
player's token version raised) on ``arcana.accounts.events``. Every service whose definition does
not say ``own_sessions`` gets:

- the subscription ``<name>-sessions`` (added to its ``subscriptions`` by
  :func:`libs.kit.definition`), which records them in its schema's shared tables
  ``token_revocations`` and ``token_versions`` (``libs/web/migrations/002_token_revocations.sql``),
  once per event like every consumer;
- a check of every token in its web app against those tables (``libs.kit.web`` installs
  :meth:`libs.web.sessions.RevocationCache.shared`);
- the purge of expired revocations by the shared maintenance task (``libs/maintenance``).

This module stays pure (``libs.kit`` is imported by domain code): database work is imported when
a handler runs.
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from libs.contracts import AllSessionsRevoked, SessionRevoked
from libs.kit.definition import ServiceDef, Subscription

if TYPE_CHECKING:
    import psycopg

    from libs.eventstore import RecordedEvent

ACCOUNTS_TOPIC = "arcana.accounts.events"  # libs.bus.topic_for("accounts")
SESSION_REVOKED = SessionRevoked.TYPE
ALL_SESSIONS_REVOKED = AllSessionsRevoked.TYPE


def consumer_name(service: str) -> str:
    """The kit's revocation consumer (and Kafka group) of ``service``."""
    return f"{service}-sessions"


@dataclass(frozen=True)
class SessionTables:
    """What the handlers work on: the consumer's schema (its shared tables)."""

    schema: str


def _tables(_service: Any, schema: str) -> SessionTables:
    return SessionTables(schema)


def session_revoked(tables: SessionTables, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    from libs.web.sessions import record_revoked_token

    revoked = SessionRevoked.decode(event)
    expires_at = datetime.fromisoformat(revoked.expires_at)
    record_revoked_token(conn, tables.schema, uuid.UUID(revoked.player_id), revoked.token_id, expires_at)


def all_sessions_revoked(tables: SessionTables, event: RecordedEvent, conn: psycopg.Connection[Any]) -> None:
    from libs.web.sessions import record_token_version

    revoked = AllSessionsRevoked.decode(event)
    record_token_version(conn, tables.schema, uuid.UUID(revoked.player_id), revoked.token_version)


def revocation_subscription(service: str) -> Subscription:
    """The subscription the kit adds to ``service``."""
    return Subscription(
        consumer_name(service),
        (ACCOUNTS_TOPIC,),
        {SESSION_REVOKED: session_revoked, ALL_SESSIONS_REVOKED: all_sessions_revoked},
        receiver=_tables,
    )


def with_kit_subscriptions(svc: ServiceDef) -> ServiceDef:
    """``svc`` with the kit's revocation subscription, unless it keeps its own sessions."""
    if svc.own_sessions or any(sub.name == consumer_name(svc.name) for sub in svc.subscriptions):
        return svc
    return dataclasses.replace(svc, subscriptions=(*svc.subscriptions, revocation_subscription(svc.name)))
