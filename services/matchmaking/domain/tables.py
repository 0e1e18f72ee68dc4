"""The tables of a game seated by table sizes (the arena's): which waiting tickets to seat together now.
Pure and deterministic.

A table of the game's largest size forms as soon as that many tickets accepting it wait; each size
below it once the oldest of as many tickets accepting it has waited 10 s more (the arena: a table of 4
at once, of 3 after 10 s, of 2 after 20 s).
The oldest ticket is served first: in arrival order, each ticket not yet seated takes the largest size
it accepts that may form now, with the oldest tickets accepting that size. A larger table fills
while the wait is short; the group settles for a smaller one as it grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .games import by_tables, queue_of
from .pairing import Waiting, pairing_pass

WAIT_STEP_SECONDS = 10.0  # each size below the game's largest waits this much longer


def wait_seconds(size: int, sizes: Sequence[int]) -> float:
    """The oldest ticket's wait before a table of ``size`` forms, of a game seating ``sizes``."""
    return WAIT_STEP_SECONDS * (max(sizes) - size)


@dataclass(frozen=True)
class Table:
    tickets: tuple[Waiting, ...]  # seat order: oldest first


def _age(w: Waiting) -> tuple[datetime, str]:
    return w.opened_at, w.ticket_id


def _seat(
    anchor: Waiting, size: int, queue: Sequence[Waiting], taken: set[str]
) -> tuple[Waiting, ...] | None:
    """``anchor`` and the oldest free tickets of other players accepting ``size``, or None."""
    seated, players = [anchor], {anchor.player_id}
    for w in queue:
        if len(seated) == size:
            break
        if w.ticket_id not in taken and size in w.sizes and w.player_id not in players:
            seated.append(w)
            players.add(w.player_id)
    return tuple(sorted(seated, key=_age)) if len(seated) == size else None


def form_tables(waiting: Sequence[Waiting], now: datetime) -> list[Table]:
    """The tables to seat now, each game apart, of the games seated by table sizes (other games'
    tickets are ignored)."""
    games = sorted(g for g in {w.game for w in waiting} if by_tables(g))
    return [t for g in games for t in _tables_of([w for w in waiting if w.game == g], now, queue_of(g).sizes)]


def _tables_of(waiting: Sequence[Waiting], now: datetime, sizes: Sequence[int]) -> list[Table]:
    """The tables to seat now of one game's waiting tickets (the game seats ``sizes``)."""
    queue = sorted(waiting, key=_age)
    taken: set[str] = set()
    short: set[int] = set()  # sizes too few free tickets accept: stays so, as free tickets only go
    tables: list[Table] = []
    for anchor in queue:
        if anchor.ticket_id in taken:
            continue
        taken.add(anchor.ticket_id)
        for size in sorted(set(anchor.sizes) - short, reverse=True):
            if anchor.waited(now) < wait_seconds(size, sizes):
                continue
            seated = _seat(anchor, size, queue, taken)
            if seated is None:
                short.add(size)
                continue
            tables.append(Table(seated))
            taken.update(w.ticket_id for w in seated)
            break
        else:
            taken.discard(anchor.ticket_id)
    return tables


def match_pass(waiting: Sequence[Waiting], now: datetime) -> list[tuple[Waiting, ...]]:
    """Every group to request a match for now, all games (never mixing games or modes)."""
    return [p.tickets for p in pairing_pass(waiting, now)] + [t.tickets for t in form_tables(waiting, now)]
