"""A queue ticket, folded from its stream ``ticket-<id>``, its events and the decisions on it.

Lifecycle: ``waiting`` → ``paired`` (a match was requested) → ``matched`` (the match service created
it), ``failed`` (the match service rejected the request) or back to ``waiting`` (``returned``: it
rejected it for a reason that passes, ``RETURNED_REASONS``); ``waiting`` → ``cancelled`` (by its
player or as abandoned). Every event carries the times the fold needs, so state never reads a clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from libs.contracts.matchmaking import MatchRequested
from services.matchmaking.events import (
    TicketCancelled,
    TicketFailed,
    TicketMatched,
    TicketOpened,
    TicketPaired,
    TicketReturned,
)

from .games import DEFAULT_GAME, MatchmakingError, check_unlocked, table_sizes

MODES = ("ranked", "casual")  # of every game (each offers some: its ``Offer.queue``)
WAITING, PAIRED, MATCHED, CANCELLED, FAILED = "waiting", "paired", "matched", "cancelled", "failed"
OPEN_STATUSES = (WAITING, PAIRED)
ANSWER_SECONDS = 120.0  # a paired ticket the match service has not answered for this long fails
NO_ANSWER = "no_answer"
# Rejections that pass: match has not heard of a player yet (a player who queued right after
# registering). The tickets wait again instead of failing; the unknown player's for a while.
RETURNED_REASONS = frozenset({"unknown_player"})
RETURN_WAIT_MAX_SECONDS = 30.0

TICKET_OPENED = TicketOpened.TYPE
TICKET_PAIRED = TicketPaired.TYPE
TICKET_MATCHED = TicketMatched.TYPE
TICKET_FAILED = TicketFailed.TYPE
TICKET_CANCELLED = TicketCancelled.TYPE
TICKET_RETURNED = TicketReturned.TYPE
TICKET_EVENTS = (
    TICKET_OPENED,
    TICKET_PAIRED,
    TICKET_MATCHED,
    TICKET_RETURNED,
    TICKET_FAILED,
    TICKET_CANCELLED,
)

TicketEvent = TicketOpened | TicketPaired | TicketMatched | TicketReturned | TicketFailed | TicketCancelled
Event = TicketEvent | MatchRequested  # what the domain decides (declared in ``events.py``)


class NoActiveDeck(MatchmakingError):
    """The game plays the player's own deck and economy has published no active one for it."""

    def __init__(self, game: str) -> None:
        super().__init__(f"build and activate a {game} deck before you queue")
        self.game = game


class IllegalDeck(MatchmakingError):
    """The player's active deck is not legal; ``problems`` says why."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("your active deck is not legal")
        self.problems = list(problems)


class TicketNotWaiting(MatchmakingError):
    """The ticket is no longer waiting (paired, matched, cancelled or failed)."""

    def __init__(self, status: str) -> None:
        super().__init__(f"the ticket is {status}, not waiting")
        self.status = status


def ticket_stream(ticket_id: str) -> str:
    return f"ticket-{ticket_id}"


@dataclass(frozen=True)
class ActiveDeck:
    """A player's active deck as economy last published it: its id and the version of economy's
    deck stream that made it active (a ticket names these, never the cards)."""

    deck_id: str | None
    version: int = 0
    legal: bool = True
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ticket:
    ticket_id: str
    player_id: str
    mode: str
    rating: int
    deck_id: str | None
    deck_version: int
    opened_at: datetime
    status: str = WAITING
    version: int = 1
    request_id: str | None = None
    match_id: str | None = None
    opponent_id: str | None = None
    reason: str | None = None
    message: str | None = None
    problems: tuple[str, ...] = ()
    closed_at: datetime | None = None
    game: str = DEFAULT_GAME
    sizes: tuple[int, ...] = (2,)  # the table sizes it accepts
    opponents: tuple[str, ...] = ()  # once paired: the other players of its table
    returns: int = 0  # times a match request was refused for a reason that passes
    pair_after: datetime | None = None  # returned: not paired again before this

    def waited(self, now: datetime) -> float:
        """Seconds waited: until now while waiting, until pairing or cancellation after that."""
        end = now if self.status == WAITING else (self.closed_at or now)
        return max(0.0, (end - self.opened_at).total_seconds())


def evolve(t: Ticket | None, event: TicketEvent) -> Ticket:
    """The ticket after one stored event. Raises ValueError on a stream not starting with
    TicketOpened or an event that is not a ticket's."""
    if isinstance(event, TicketOpened):
        at = datetime.fromisoformat(event.opened_at)
        return Ticket(
            event.ticket_id,
            event.player_id,
            event.mode,
            int(event.rating),
            event.deck_id,
            int(event.deck_version),
            at,
            game=event.game,
            sizes=tuple(event.sizes),
        )
    if t is None:
        raise ValueError("a ticket stream starts with TicketOpened")
    v = t.version + 1
    if isinstance(event, TicketPaired):
        return replace(
            t,
            status=PAIRED,
            version=v,
            request_id=event.request_id,
            match_id=event.match_id,
            opponent_id=event.opponent_id,
            opponents=tuple(event.opponents or [event.opponent_id]),
            closed_at=datetime.fromisoformat(event.paired_at),
        )
    if isinstance(event, TicketMatched):
        return replace(t, status=MATCHED, version=v, match_id=event.match_id)
    if isinstance(event, TicketReturned):
        return replace(
            t,
            status=WAITING,
            version=v,
            request_id=None,
            match_id=None,
            opponent_id=None,
            opponents=(),
            closed_at=None,
            returns=t.returns + 1,
            pair_after=datetime.fromisoformat(event.pair_after),
        )
    if isinstance(event, TicketFailed):
        return replace(
            t,
            status=FAILED,
            version=v,
            reason=event.reason,
            message=event.message,
            problems=tuple(event.problems or ()),
        )
    if isinstance(event, TicketCancelled):
        return replace(
            t,
            status=CANCELLED,
            version=v,
            reason=event.reason,
            closed_at=datetime.fromisoformat(event.cancelled_at),
        )
    raise ValueError(f"not a ticket event: {event!r}")


def fold(events: Iterable[TicketEvent]) -> Ticket | None:
    t: Ticket | None = None
    for event in events:
        t = evolve(t, event)
    return t


def open_ticket(
    ticket_id: str,
    player_id: str,
    mode: str,
    rating: int,
    deck: ActiveDeck | None,
    now: datetime,
    *,
    game: str = DEFAULT_GAME,
    sizes: Sequence[int] | None = None,
    training_battles: int = 0,
) -> TicketOpened:
    """TicketOpened for ``game`` (``sizes``: the arena's table sizes, default all). Raises
    ``UnknownGame``, ``InvalidMode``, ``InvalidSizes``, ``RankedLocked`` (a ranked queue before the
    game's training battles), ``NoActiveDeck`` (``deck`` None) or ``IllegalDeck``. One open
    ticket per player is enforced by the store."""
    accepted = table_sizes(game, mode, sizes)
    check_unlocked(game, mode, training_battles)
    if deck is None:
        raise NoActiveDeck(game)
    if not deck.legal:
        raise IllegalDeck(deck.problems or ("the deck was refused",))
    return TicketOpened(
        ticket_id,
        player_id,
        mode,
        int(rating),
        deck.deck_id,
        deck.version,
        now.isoformat(),
        game=game,
        sizes=list(accepted),
    )


def cancel(t: Ticket, reason: str, now: datetime) -> TicketCancelled:
    """TicketCancelled (``reason`` ``player`` or ``abandoned``). Raises ``TicketNotWaiting``."""
    if t.status != WAITING:
        raise TicketNotWaiting(t.status)
    return TicketCancelled(t.ticket_id, reason, now.isoformat())


def paired(
    t: Ticket, others: Sequence[Ticket], request_id: str, match_id: str, now: datetime
) -> TicketPaired:
    """TicketPaired for ``t`` seated with ``others``. Raises ``TicketNotWaiting``, or ValueError for
    a table with a player twice, across games or modes, or of a size a ticket does not accept."""
    if t.status != WAITING:
        raise TicketNotWaiting(t.status)
    table = [t, *others]
    if not others:
        raise ValueError("a table seats two players at least")
    if len({x.player_id for x in table}) != len(table) or len({(x.game, x.mode) for x in table}) != 1:
        raise ValueError("a table seats different players' tickets of one game and mode")
    if any(len(table) not in x.sizes for x in table):
        raise ValueError("a table of a size one of its tickets does not accept")
    return TicketPaired(
        ticket_id=t.ticket_id,
        player_id=t.player_id,
        request_id=request_id,
        match_id=match_id,
        opponent_id=others[0].player_id,
        opponent_ticket=others[0].ticket_id,
        rating_gap=max(abs(t.rating - o.rating) for o in others),
        paired_at=now.isoformat(),
        opponents=[o.player_id for o in others],
    )


def matched(t: Ticket, match_id: str) -> list[TicketEvent]:
    """TicketMatched when the paired ticket's match was created; nothing if already settled."""
    if t.status != PAIRED or t.match_id != match_id:
        return []
    return [TicketMatched(t.ticket_id, t.player_id, match_id)]


def failed(
    t: Ticket, match_id: str, reason: str, message: str | None, problems: Sequence[str]
) -> list[TicketEvent]:
    """TicketFailed when the paired ticket's match request was rejected; nothing if already settled."""
    if t.status != PAIRED or t.match_id != match_id:
        return []
    return [TicketFailed(t.ticket_id, match_id, reason, message, [str(p) for p in problems])]


def return_wait(returns: int) -> float:
    """Seconds a ticket whose player match did not know waits before its next pairing, after
    ``returns`` earlier returns: 1, 2, 4 ... at most ``RETURN_WAIT_MAX_SECONDS``."""
    return min(2.0 ** min(returns, 16), RETURN_WAIT_MAX_SECONDS)


def returned(
    t: Ticket, match_id: str, reason: str, message: str | None, unknown: bool, now: datetime
) -> list[TicketEvent]:
    """TicketReturned when the paired ticket's match request was refused for a reason in
    ``RETURNED_REASONS``: the ticket waits again, at once when its own player was known (``unknown``
    False: its partner was not), else after ``return_wait``; nothing if already settled."""
    if t.status != PAIRED or t.match_id != match_id:
        return []
    wait = timedelta(seconds=return_wait(t.returns) if unknown else 0.0)
    return [
        TicketReturned(
            t.ticket_id, t.player_id, match_id, reason, message, (now + wait).isoformat(), now.isoformat()
        )
    ]


def unanswered(t: Ticket, now: datetime) -> list[TicketEvent]:
    """TicketFailed (``no_answer``) for a ticket paired ``ANSWER_SECONDS`` ago or more whose match
    the match service has neither created nor rejected, so its player can queue again; else nothing."""
    if t.status != PAIRED or t.closed_at is None or (now - t.closed_at).total_seconds() < ANSWER_SECONDS:
        return []
    message = "the match service did not answer the match request"
    return failed(t, t.match_id or "", NO_ANSWER, message, [])
