"""The small stream the event store's command-path tests fold: ``Counted`` events summed into a
``Tally``, and ``count``, the command that appends one (used by
tests/integration/eventstore/test_repository.py on PostgreSQL, by
tests/unit/eventstore/test_command_path.py on the in-memory store, and, for the event, by
tests/integration/eventstore/test_store_contract.py on both)."""

from __future__ import annotations

from dataclasses import dataclass, field

from libs.contracts import IntegrationEvent, integration_event
from libs.eventstore import Fold, RecordedEvent, Repository, UnitOfWork


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


PLAIN = Fold(Tally, evolve)


def count(repo: Repository, stream: str, n: int, fold: Fold[Tally] = PLAIN) -> int:
    """Append ``Counted(n)`` to ``stream`` as one command; the total after it."""

    def command(uow: UnitOfWork) -> int:
        loaded = repo.get(uow, stream, fold)
        uow.append(stream, loaded.version, [Counted(n)])
        return loaded.state.total + n

    return repo.execute(command)
