"""The pairing pass: which waiting tickets to pair now. Pure, O(n log n) in the number waiting.

Ranked: tickets sorted by rating; the longest-waiting ticket goes first and takes the nearest rating
still unpaired within its window (``window.window``). A ticket that waited longer has the wider
window, so a pair is allowed when its gap fits the wider of the two windows. Never a player with
themselves; never the same two players as the previous ranked match of either of them, unless they
are the only two waiting. Casual: first come, first served. Each game pairs apart (each by the
rating of its own ladder): ``pairing_pass``. A game whose tickets name table sizes (the arena: 2 to 4)
is seated at tables (``tables.form_tables``); ``match_pass`` is every game's groups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from libs import fairplay

from .games import DEFAULT_GAME, by_tables
from .window import window


@dataclass(frozen=True)
class Waiting:
    """A waiting ticket as the pairing pass sees it."""

    ticket_id: str
    player_id: str
    mode: str
    rating: int
    opened_at: datetime
    last_opponent: str | None = None  # the player's previous ranked opponent in this game
    game: str = DEFAULT_GAME
    sizes: tuple[int, ...] = (2,)  # the table sizes it accepts

    def waited(self, now: datetime) -> float:
        return max(0.0, (now - self.opened_at).total_seconds())


@dataclass(frozen=True)
class Pair:
    first: Waiting
    second: Waiting

    @property
    def tickets(self) -> tuple[Waiting, Waiting]:
        return self.first, self.second

    @property
    def gap(self) -> int:
        return abs(self.first.rating - self.second.rating)


def _urgency(w: Waiting) -> tuple[datetime, str]:
    return w.opened_at, w.ticket_id


def _allowed(a: Waiting, b: Waiting, now: datetime) -> bool:
    if a.player_id == b.player_id:
        return False
    rematch = a.last_opponent == b.player_id or b.last_opponent == a.player_id
    return not rematch or fairplay.may_rematch(a.waited(now), b.waited(now))


class _SortedQueue:
    """Tickets sorted by rating as a doubly linked list, so a paired ticket leaves in O(1)."""

    def __init__(self, tickets: Sequence[Waiting]) -> None:
        self.items = sorted(tickets, key=lambda w: (w.rating, w.opened_at, w.ticket_id))
        n = len(self.items)
        self.index = {w.ticket_id: i for i, w in enumerate(self.items)}
        self.prev = list(range(-1, n - 1))
        self.next = [*range(1, n), -1]
        self.taken = [False] * n

    def remove(self, i: int) -> None:
        p, nx = self.prev[i], self.next[i]
        if p >= 0:
            self.next[p] = nx
        if nx >= 0:
            self.prev[nx] = p
        self.taken[i] = True

    def nearest(self, i: int, limit: float, now: datetime) -> int:
        """The index of the allowed ticket nearest in rating to ``i`` within ``limit``, or -1."""
        me, best, best_gap = self.items[i], -1, limit
        for step in (self.prev, self.next):
            j = step[i]
            while j >= 0:
                gap = abs(self.items[j].rating - me.rating)
                if gap > best_gap:
                    break
                if _allowed(me, self.items[j], now):
                    if best < 0 or gap < best_gap:
                        best, best_gap = j, gap
                    break
                j = step[j]
        return best


def pair_ranked(waiting: Sequence[Waiting], now: datetime) -> list[Pair]:
    """Pairs of waiting ranked tickets by rating, within the window schedule."""
    queue = _SortedQueue(waiting)
    pairs: list[Pair] = []
    for w in sorted(waiting, key=_urgency):
        i = queue.index[w.ticket_id]
        if queue.taken[i]:
            continue
        j = queue.nearest(i, window(w.waited(now)), now)
        if j >= 0:
            queue.remove(i)
            queue.remove(j)
            pairs.append(Pair(w, queue.items[j]))
    return pairs


def pair_casual(waiting: Sequence[Waiting]) -> list[Pair]:
    """Pairs of waiting casual tickets in arrival order (never a player with themselves)."""
    pairs: list[Pair] = []
    pending: list[Waiting] = []
    for w in sorted(waiting, key=_urgency):
        partner = next((p for p in pending if p.player_id != w.player_id), None)
        if partner is None:
            pending.append(w)
        else:
            pending.remove(partner)
            pairs.append(Pair(partner, w))
    return pairs


def pairing_pass(waiting: Sequence[Waiting], now: datetime) -> list[Pair]:
    """Every pair to make now, ranked and casual, of the games that pair two players: each game and
    mode apart (the tickets of a game seated by table sizes are left to ``tables.form_tables``)."""
    pairs: list[Pair] = []
    for game in sorted(g for g in {w.game for w in waiting} if not by_tables(g)):
        ranked = [w for w in waiting if w.game == game and w.mode == "ranked"]
        casual = [w for w in waiting if w.game == game and w.mode == "casual"]
        pairs += pair_ranked(ranked, now) + pair_casual(casual)
    return pairs
