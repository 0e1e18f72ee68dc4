"""Celery tasks every service gets (loaded by ``services/worker.py`` besides services' tasks.py).

- ``maintenance.purge()``: hourly (beat entry ``maintenance-purge``), the purge policy
  (``libs/maintenance/policy.py``) on the schema of every service (``libs.kit.service_names()``).
  A service that fails is logged and the others are still purged.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from libs import clock
from libs.celeryapp import app
from libs.kit.registry import service_names
from libs.kit.runtime import built
from libs.maintenance.policy import PurgePolicy, PurgeReport, purge_schema

log = logging.getLogger(__name__)

PURGE_TASK = "maintenance.purge"
PURGE_SECONDS = 3600.0

BEAT_SCHEDULE: dict[str, Any] = {
    "maintenance-purge": {"task": PURGE_TASK, "schedule": PURGE_SECONDS, "options": {"expires": 600}},
}


def purge_services(names: list[str], policy: PurgePolicy) -> list[PurgeReport]:
    """Purge the schema of each service in ``names`` (its runtime's pool and schema); a failing
    service is logged and skipped."""
    reports = []
    for name in names:
        try:
            runtime, service = built(name)
            hook = runtime.service.purge_closed
            closed = functools.partial(hook, service) if hook is not None else None
            report = purge_schema(runtime.pool, runtime.schema, policy, clock.now(), closed)
        except Exception:
            log.exception("purge of service %s failed", name)
            continue
        log.info(
            "purged %s: %d idempotency keys, inbox %s, %d expired revocations, %d rate counters, %d closed",
            name,
            report.idempotency,
            report.inbox,
            report.revoked_tokens,
            report.rate_limits,
            report.closed,
        )
        reports.append(report)
    return reports


@app.task(name=PURGE_TASK, ignore_result=True)
def purge() -> int:
    """Purge every service's schema; returns how many rows were deleted in all."""
    reports = purge_services(service_names(), PurgePolicy.from_env())
    return sum(r.total for r in reports)
