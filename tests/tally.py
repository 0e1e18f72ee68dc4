"""The small stream the event store's command-path tests fold: ``Counted`` events summed into a
``Tally`` (used by tests/integration/eventstore/test_repository.py on PostgreSQL and by
tests/unit/eventstore/test_command_path.py on the in-memory store)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts import IntegrationEvent, integration_event
from libs.eventstore import RecordedEvent


@integration_event("Counted", version=1)
@dataclass(frozen=True)
class Counted(IntegrationEvent):
    n: int = field(metadata={"doc": "how much"})


@dataclass(frozen=True)
class Tally:
    total: int = 0
    seen: tuple[int, ...] = ()


def evolve(state: Tally, event: RecordedEvent) -> Tally:
    n = Counted.from_data(event.data).n
    return Tally(state.total + n, (*state.seen, n))
