"""One purge policy for the idempotency and inbox tables of every service's schema.

- ``idempotency``: Idempotency-Key records older than ``idempotency_keep`` (a day) are deleted; a
  client's retry within that time still gets the first response.
- ``inbox``: each consumer's horizon moves up to ``now - inbox_horizon`` (30 days) and its inbox
  rows of events that occurred before it are deleted; the consumer treats any older event as
  already applied (``libs/bus/purge.py``). ``inbox_horizon`` must exceed the longest time an event
  may wait for its consumer (an outage, a dead letter awaiting its retry).
- ``token_revocations``: logged-out tokens recorded from accounts' events (``libs.kit.sessions``)
  are deleted once expired (an expired token is refused anyway).
- ``rate_limits``: per-player counters (``libs.kit.limits``) whose window started over a day ago
  (longer than any limit's window).
- closed things a service keeps in its read models (its ``ServiceDef.purge_closed``: matchmaking's
  closed queue tickets) once closed for ``closed_keep`` (a day); their events stay.

Settings: ``ARCANA_IDEMPOTENCY_KEEP_HOURS`` (default 24), ``ARCANA_INBOX_HORIZON_DAYS`` (default 30),
``ARCANA_CLOSED_TICKETS_KEEP_HOURS`` (default 24).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from psycopg_pool import ConnectionPool

from libs import config
from libs.bus.purge import purge_inbox
from libs.kit.limits import purge_rate_limits
from libs.web.idempotency import purge_idempotency_keys
from libs.web.sessions import purge_revoked_tokens


@dataclass(frozen=True)
class PurgePolicy:
    idempotency_keep: timedelta = timedelta(days=1)
    inbox_horizon: timedelta = timedelta(days=30)
    closed_keep: timedelta = timedelta(days=1)
    rate_limits_keep: timedelta = timedelta(days=1)

    @classmethod
    def from_env(cls) -> PurgePolicy:
        """The policy of ``ARCANA_IDEMPOTENCY_KEEP_HOURS`` and ``ARCANA_INBOX_HORIZON_DAYS``; raises
        ``ValueError`` for a value that is not a positive number."""
        return cls(
            idempotency_keep=timedelta(hours=_positive(config.IDEMPOTENCY_KEEP_HOURS)),
            inbox_horizon=timedelta(days=_positive(config.INBOX_HORIZON_DAYS)),
            closed_keep=timedelta(hours=_positive(config.CLOSED_TICKETS_KEEP_HOURS)),
        )


def _positive(setting: config.Setting[float]) -> float:
    value = setting.get()
    if value <= 0:
        raise ValueError(f"{setting.name} must be a positive number, not {value!r}")
    return value


@dataclass(frozen=True)
class PurgeReport:
    schema: str
    idempotency: int
    inbox: dict[str, int] = field(default_factory=dict)
    revoked_tokens: int = 0
    rate_limits: int = 0
    closed: int = 0

    @property
    def total(self) -> int:
        return (
            self.idempotency + sum(self.inbox.values()) + self.revoked_tokens + self.rate_limits + self.closed
        )


def purge_schema(
    pool: ConnectionPool,
    schema: str,
    policy: PurgePolicy,
    now: datetime,
    closed: Callable[[datetime], int] | None = None,
) -> PurgeReport:
    """Apply ``policy`` to one service's schema at time ``now``, and ``closed(now - closed_keep)``
    (the service's ``purge_closed``) when given; returns what was deleted. Raises psycopg errors."""
    keys = purge_idempotency_keys(pool, schema, int(policy.idempotency_keep.total_seconds()))
    inbox = purge_inbox(pool, schema, now - policy.inbox_horizon)
    revoked = purge_revoked_tokens(pool, schema, now)
    limits = purge_rate_limits(pool, schema, now, int(policy.rate_limits_keep.total_seconds()))
    gone = closed(now - policy.closed_keep) if closed is not None else 0
    return PurgeReport(schema, keys, inbox, revoked, limits, gone)
