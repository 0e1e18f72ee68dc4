"""After a restart the worker sends the first sweep as soon as PostgreSQL accepts connections
(``services/match/sweep_start.py``), not at the beat's next tick."""

from __future__ import annotations

from libs.devstack.ports import free_port
from services.match.scheduling import SWEEP_TASK
from services.match.sweep_start import sweep_when_database_accepts


def test_the_first_sweep_is_sent_once_the_database_accepts(postgres_url: str) -> None:
    sent: list[str] = []
    assert sweep_when_database_accepts(postgres_url, sent.append)
    assert sent == [SWEEP_TASK]


def test_nothing_is_sent_while_the_database_does_not_accept() -> None:
    sent: list[str] = []
    closed = f"postgresql://nobody@127.0.0.1:{free_port()}/none"
    assert not sweep_when_database_accepts(closed, sent.append, give_up=0.5)
    assert sent == []
