"""What one pairing pass writes, planned from the rows it read (no I/O): cancel the abandoned
waiting tickets, fail the paired tickets never answered, pair or seat the rest (``domain.match_pass``:
pairs of Arcana and the line, the arena's tables)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from services.matchmaking import domain, store

Write = tuple[str, int, Sequence[domain.Event]]  # (stream, expected version, events)
ABANDONED, UNANSWERED, PAIRED, ILLEGAL = "abandoned", "unanswered", "pairs", "illegal_deck"


@dataclass(frozen=True)
class Step:
    """One unit of a pass, written all or nothing: ``kind`` and its appends."""

    kind: str
    writes: list[Write]


@dataclass(frozen=True)
class PassResult:
    pairs: int = 0
    abandoned: int = 0  # waiting tickets not polled for 30 s, cancelled
    illegal: int = 0  # waiting tickets whose player's active deck became illegal, cancelled
    unanswered: int = 0  # paired tickets the match service never answered, failed
    ran: bool = True  # False: another worker held the pairing lock

    @classmethod
    def of(cls, kinds_written: Iterable[str]) -> PassResult:
        done = Counter(kinds_written)
        return cls(
            pairs=done[PAIRED], abandoned=done[ABANDONED], unanswered=done[UNANSWERED], illegal=done[ILLEGAL]
        )


def _ticket_step(kind: str, t: domain.Ticket, decided: Sequence[domain.Event]) -> Step:
    return Step(kind, [(domain.ticket_stream(t.ticket_id), t.version, list(decided))])


def _request_step(table: Sequence[domain.Ticket], now: datetime) -> Step:
    """TicketPaired on every ticket of the table (at the versions read) and the MatchRequested."""
    _, by_stream = domain.request_table(table, now)
    expected = {domain.ticket_stream(t.ticket_id): t.version for t in table}
    return Step(PAIRED, [(stream, expected.get(stream, 0), decided) for stream, decided in by_stream.items()])


def _waiting(row: dict[str, Any]) -> domain.Waiting:
    return domain.Waiting(
        row["ticket_id"],
        row["player_id"],
        row["mode"],
        row["rating"],
        row["opened_at"],
        row["last_opponent"],
        row.get("game", domain.DEFAULT_GAME),
        tuple(row.get("sizes") or (2,)),
    )


def _tables(rows: Sequence[dict[str, Any]], now: datetime) -> list[list[domain.Ticket]]:
    tickets = {r["ticket_id"]: store.ticket_from_row(r) for r in rows}
    groups = domain.match_pass([_waiting(r) for r in rows], now)
    return [[tickets[w.ticket_id] for w in group] for group in groups]


def _abandoned(row: dict[str, Any], resumed: datetime | None, now: datetime) -> bool:
    silent = now - domain.silent_since(row["last_polled_at"], resumed)
    return domain.is_abandoned(silent.total_seconds())


def _held(row: dict[str, Any], now: datetime) -> bool:
    """A returned ticket whose wait before its next pairing is not over (``domain.returned``)."""
    pair_after = row.get("pair_after")
    return pair_after is not None and bool(pair_after > now)


def plan_pass(
    waiting: Sequence[dict[str, Any]],
    paired_long_ago: Sequence[dict[str, Any]],
    now: datetime,
    resumed: datetime | None = None,
) -> list[Step]:
    """The steps of one pass, from the waiting rows (``store.waiting``) and the paired rows past
    the answer deadline (``store.unanswered``). A waiting ticket silent for 30 s, counted from its
    last poll or the pairing's return from an outage (``resumed``) if later, is cancelled as
    abandoned. A ticket whose player's active deck is no longer legal (a card disenchanted while
    waiting) is cancelled, reason ``illegal_deck``, never paired. A ticket returned to waiting
    is paired again once its ``pair_after`` has passed."""
    abandoned = [r for r in waiting if _abandoned(r, resumed, now)]
    gone = {r["ticket_id"] for r in abandoned}
    illegal = [r for r in waiting if r["ticket_id"] not in gone and not r.get("deck_legal", True)]
    gone |= {r["ticket_id"] for r in illegal}
    steps = [
        _ticket_step(ABANDONED, t, [domain.cancel(t, "abandoned", now)])
        for t in map(store.ticket_from_row, abandoned)
    ]
    steps += [
        _ticket_step(ILLEGAL, t, [domain.cancel(t, ILLEGAL, now)])
        for t in map(store.ticket_from_row, illegal)
    ]
    steps += [
        _ticket_step(UNANSWERED, t, domain.unanswered(t, now))
        for t in map(store.ticket_from_row, paired_long_ago)
    ]
    steps += [
        _request_step(table, now)
        for table in _tables([r for r in waiting if r["ticket_id"] not in gone and not _held(r, now)], now)
    ]
    return steps
