"""Command handling: load a match (cached fold + the events since), decide, append at the version it
was decided on, keep ``match_index`` and presence up to date, announce, and schedule timers/bot.

Player commands are never retried: a concurrent append means the player decided on a stale state
(409 with the current version). System commands (timeouts, forfeits, presence, the bot's moves) are
decided again from a fresh read, a few times, when they lose a race.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from libs import clock
from libs.eventstore import ConcurrencyError, EventStore, Expect, NewEvent, QueuedAppend, RecordedEvent
from libs.rules import STARTER_DECK, RuleViolation
from services.match import decks, domain, projections, store
from services.match.domain import Match
from services.match.notify import MatchNotifier
from services.match.scheduling import Scheduler

log = logging.getLogger(__name__)

CACHE_SIZE = 5000
SYSTEM_ATTEMPTS = 5
PLAYER_ATTEMPTS = 3  # commands without an expected version, after a lost race
MAX_TICK_STEPS = 8
MAX_BOT_MOVES = 100
TOUCH_EVERY_SECONDS = 5.0
PRESENCE_WRITE_SECONDS = 1.0


class MatchNotFound(Exception):
    """No such match, or the requester is not one of its players."""


class VersionConflict(Exception):
    def __init__(self, current: int) -> None:
        super().__init__(f"the match is at version {current}")
        self.current = current


class IllegalActiveDeck(Exception):
    """The player's active deck (as economy published it) is not legal: ``problems`` says why."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class MatchExists(Exception):
    """The match id (from a request id) already has a stream."""


@dataclass(frozen=True)
class Outcome:
    before: Match | None
    after: Match
    recorded: Sequence[RecordedEvent]
    pending: QueuedAppend | None = None  # a queued append: positions unknown until it syncs


def stream_of(match_id: str) -> str:
    return f"match-{match_id}"


def as_rows(events: Sequence[RecordedEvent]) -> list[tuple[str, Mapping[str, Any], Any, int]]:
    return [(e.type, e.data, e.occurred_at, e.version) for e in events]


class MatchService:
    def __init__(
        self,
        pool: ConnectionPool,
        schema: str,
        scheduler: Scheduler | None = None,
        notifier: MatchNotifier | None = None,
    ) -> None:
        self.pool = pool
        self.schema = schema
        self.events = EventStore(pool, schema)
        self.scheduler = scheduler
        self.notifier = notifier
        self._cache: OrderedDict[str, Match] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._presence_written: dict[tuple[str, str], Any] = {}

    # -- reading -------------------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled connection in autocommit mode: each read is one round trip (no BEGIN/COMMIT)."""
        with self.pool.connection() as conn:
            conn.autocommit = True
            try:
                yield conn
            finally:
                conn.autocommit = False

    def load(self, match_id: str, conn: psycopg.Connection[Any] | None = None) -> Match | None:
        """The match as stored now (None when there is no such stream)."""
        with self._cache_lock:
            cached = self._cache.get(match_id)
        start = cached.version + 1 if cached else 1
        if conn is None:
            with self.reading() as own:
                tail = self.events.read(stream_of(match_id), start, conn=own)
        else:
            tail = self.events.read(stream_of(match_id), start, conn=conn)
        if not tail:
            return cached
        m = domain.fold_match(as_rows(tail), cached)
        self.remember(m)
        return m

    def remember(self, m: Match) -> None:
        """Keep ``m`` in the cache (it must be committed: the cache is read without the database)."""
        with self._cache_lock:
            known = self._cache.get(m.match_id)
            if known is None or known.version < m.version:
                self._cache[m.match_id] = m
            self._cache.move_to_end(m.match_id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def load_for(self, match_id: str, player: str, conn: psycopg.Connection[Any] | None = None) -> Match:
        """The match if ``player`` is one of its players; ``MatchNotFound`` otherwise."""
        m = self.load(match_id, conn)
        if m is None or m.rejected or player not in m.players:
            raise MatchNotFound(match_id)
        return m

    def cached_at(self, match_id: str, player: str, version: int | None) -> Match | None:
        """The match at exactly ``version`` from this process's cache, if it holds that version and
        ``player`` plays in it; else None (read it). A command that names the version it was
        decided on needs no read then: the state at a version never changes, and the append at
        that version fails if the match has moved on since."""
        if version is None:
            return None
        with self._cache_lock:
            cached = self._cache.get(match_id)
        if cached is None or cached.version != version or cached.rejected or player not in cached.players:
            return None
        return cached

    def read_events(self, match_id: str, after: int = 0) -> list[RecordedEvent]:
        with self.reading() as conn:
            return self.events.read(stream_of(match_id), after + 1, conn=conn)

    def verify_replay(self, match_id: str) -> list[str]:
        """Problems found replaying the whole stream against its stored state hashes (empty: none)."""
        return domain.replay_problems(as_rows(self.events.read(stream_of(match_id))))

    # -- writing -------------------------------------------------------------------------------

    def _append(
        self,
        before: Match | None,
        match_id: str,
        events: list[domain.Event],
        conn: psycopg.Connection[Any] | None,
        *,
        savepoint: bool = True,
        queued: bool = False,
    ) -> Outcome:
        """Append in ``conn``'s transaction (or a transaction of its own), index and announce.
        ``savepoint=False`` (two round trips fewer) when the caller's transaction is abandoned on
        any error; without ``conn`` the own transaction needs none. ``queued`` (with ``conn``):
        the append's result is not waited for, so on a pipelined connection the whole write is
        one round trip with the COMMIT; a refused append is then raised as a ``psycopg.Error``
        when the pipeline syncs (see ``refused_appends``), and ``confirmed`` reads the positions."""
        now = clock.now()
        new = [NewEvent(kind, data, occurred_at=now) for kind, data in events]
        expected = before.version if before is not None else Expect.NO_STREAM

        def write(c: psycopg.Connection[Any]) -> tuple[list[RecordedEvent], QueuedAppend | None]:
            pending = None
            if queued:
                pending = self.events.append_queued(c, stream_of(match_id), expected, new)
                recorded = pending.predicted()
            else:
                recorded = self.events.append(
                    stream_of(match_id), expected, new, conn=c, savepoint=savepoint and conn is not None
                )
            if recorded[-1].type == "MatchEnded":
                store.forget_presence(c, self.schema, match_id)
            # the index update and the NOTIFY (sent on commit) in one statement
            announce = (store.channel(self.schema), f"{match_id}:{recorded[-1].version}")
            projections.apply(c, self.schema, recorded, notify=announce)
            return recorded, pending

        if conn is not None:
            recorded, pending = write(conn)
        else:
            with self.pool.connection() as own, own.transaction():
                recorded, pending = write(own)
        after = domain.fold_match(as_rows(recorded), before)
        if conn is None:
            self.remember(after)
        return Outcome(before, after, recorded, pending)

    @staticmethod
    def confirmed(outcome: Outcome) -> Outcome:
        """``outcome`` with its events as stored (their positions), once its transaction committed."""
        if outcome.pending is None:
            return outcome
        return Outcome(outcome.before, outcome.after, outcome.pending.recorded())

    @contextmanager
    def refused_appends(self, match_id: str, expected: int | None) -> Iterator[None]:
        """Around a transaction holding a queued append: its refusal, raised when the pipeline
        syncs, becomes ``VersionConflict`` (with the current version)."""
        try:
            yield
        except psycopg.Error as exc:
            failure = self.events.append_failure(exc, stream_of(match_id), expected or 0)
            if isinstance(failure, ConcurrencyError):
                raise VersionConflict(int(failure.actual)) from None
            raise

    def dispatch(self, outcome: Outcome, *, bot: bool = True) -> None:
        """After the commit: schedule the new deadline, and the bot when the match waits for it."""
        if self.scheduler is None:
            return
        after, before = outcome.after, outcome.before
        due = domain.deadline(after)
        if due is not None and (before is None or domain.deadline(before) != due):
            self.scheduler.deadline(after.match_id, due)
        if bot and after.bot is not None and after.bot in domain.awaiting(after):
            self.scheduler.bot(after.match_id)

    def create_match(
        self,
        mode: str,
        players: Sequence[Mapping[str, Any]],
        *,
        bot: str | None = None,
        request_id: str | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        match_id: str | None = None,
        conn: psycopg.Connection[Any] | None = None,
    ) -> Outcome:
        """Start a match (``RuleViolation`` for an illegal setup; ``MatchExists`` for a taken id).
        With ``conn`` the caller commits and then calls ``dispatch``."""
        match_id = match_id or str(uuid.uuid4())
        seed = seed if seed is not None else secrets.randbits(63)
        today = clock.now().date().isoformat()
        events = domain.new_match_events(
            match_id, mode, players, seed, today, bot=bot, request_id=request_id, options=options
        )
        try:
            outcome = self._append(None, match_id, events, conn)
        except ConcurrencyError:
            raise MatchExists(match_id) from None
        if conn is None:
            self.dispatch(outcome)
        return outcome

    def reject_request(
        self, match_id: str, events: list[domain.Event], conn: psycopg.Connection[Any]
    ) -> bool:
        """Store a MatchRequestRejected stream; False when the request was already handled."""
        try:
            self._append(None, match_id, events, conn)
        except ConcurrencyError:
            return False
        return True

    def player_command(
        self,
        match_id: str,
        player: str,
        command: Mapping[str, Any],
        expected_version: int | None,
        conn: psycopg.Connection[Any],
        *,
        loaded: Match | None = None,
    ) -> Outcome:
        """Apply a player's command in the caller's transaction (the caller commits, then ``dispatch``).

        ``loaded``: the match as ``load_for`` just read it (before the transaction began: the append
        checks the version it was decided on anyway), else it is read in ``conn``.
        Raises ``MatchNotFound``, ``VersionConflict`` (a stale ``expected_version``, or three races
        lost without one) and ``RuleViolation``; nothing is written then (the caller must abandon
        its transaction). With ``expected_version`` the append is queued: a race lost with it is
        raised when the transaction ends (run it inside ``refused_appends``), and the returned
        outcome's positions are read by ``confirmed`` after the commit.
        """
        # Without an expected version the player did not decide on a particular state: a race
        # lost to the opponent (both mulligan at once) is decided again on a fresh read, inside a
        # savepoint so the transaction survives the lost race.
        retry = expected_version is None
        m = loaded if loaded is not None else self.load_for(match_id, player, conn)
        for attempt in range(PLAYER_ATTEMPTS if retry else 1):
            if attempt:
                m = self.load_for(match_id, player, conn)
            if expected_version is not None and expected_version != m.version:
                raise VersionConflict(m.version)
            events = domain.with_reconnect(m, player, domain.decide_command(m, {**command, "player": player}))
            try:
                # with an expected version a refusal is final: queue the append (no wait)
                outcome = self._append(m, match_id, events, conn, savepoint=retry, queued=not retry)
            except ConcurrencyError as exc:
                if not retry or attempt + 1 == PLAYER_ATTEMPTS:
                    raise VersionConflict(int(exc.actual)) from None
                continue
            if not outcome.after.ended:
                self._record_presence(conn, match_id, player)
            return outcome
        raise AssertionError("unreachable: the last attempt returns or raises")

    def execute(
        self,
        match_id: str,
        player: str,
        command: dict[str, Any],
        expected: int | None,
        *,
        transaction: Callable[..., AbstractContextManager[psycopg.Connection[Any]]],
        in_outer_transaction: bool = False,
        after_commit: Callable[[Callable[[], None]], None],
    ) -> Outcome:
        """A player's command, decided and appended; timers and the bot are dispatched through
        ``after_commit`` once ``transaction`` (pipelined) has committed.

        The match at the expected version comes from the cache (no read), else it is read before
        the transaction (one autocommit round trip); inside an outer transaction (an
        Idempotency-Key's) the read happens there, on its connection. With an expected version the
        write is one round trip (BEGIN, append, index + NOTIFY, presence, COMMIT), else two.

        Raises ``MatchNotFound``, ``VersionConflict`` and ``RuleViolation``; nothing is written then.
        """
        loaded = self.cached_at(match_id, player, expected)
        if loaded is None and not in_outer_transaction:
            loaded = self.load_for(match_id, player)
        with self.refused_appends(match_id, expected), transaction(pipelined=True) as conn:
            outcome = self.player_command(match_id, player, command, expected, conn, loaded=loaded)
        outcome = self.confirmed(outcome)
        if not in_outer_transaction:  # committed now (else when the outer transaction commits)
            self.remember(outcome.after)
        after_commit(lambda: self.dispatch(outcome))
        return outcome

    def _system(
        self, match_id: str, choose: Callable[[Match], dict[str, Any] | None], *, bot: bool = True
    ) -> Outcome | None:
        """Apply the system command ``choose`` picks on a fresh read; retried on a lost race."""
        for _ in range(SYSTEM_ATTEMPTS):
            m = self.load(match_id)
            if m is None or m.ended:
                return None
            command = choose(m)
            if command is None:
                return None
            try:
                events = domain.decide_command(m, command)
            except RuleViolation as exc:
                log.error("match %s: system command %s refused: %s", match_id, command, exc)
                return None
            try:
                outcome = self._append(m, match_id, events, None)
            except ConcurrencyError:
                continue
            self.dispatch(outcome, bot=bot)
            return outcome
        log.warning("match %s: gave up a system command after %d races", match_id, SYSTEM_ATTEMPTS)
        return None

    # -- presence, timers, bot -----------------------------------------------------------------

    def _record_presence(
        self, conn: psycopg.Connection[Any], match_id: str, player: str, *, relaxed: bool = False
    ) -> None:
        """Record a request of ``player``: at most once per ``PRESENCE_WRITE_SECONDS`` per process
        (the 20 s rule tolerates that much), so reads rarely write."""
        now = clock.now()
        key = (match_id, player)
        with self._cache_lock:
            last = self._presence_written.get(key)
            if last is not None and (now - last).total_seconds() < PRESENCE_WRITE_SECONDS:
                return
            self._presence_written[key] = now
            if len(self._presence_written) > 4 * CACHE_SIZE:
                self._presence_written.clear()
        if not relaxed:  # inside the caller's transaction
            store.touch(conn, self.schema, match_id, player, now)
            return
        if conn.autocommit:  # one statement, its own transaction, committed without the disk
            store.touch(conn, self.schema, match_id, player, now, relaxed=True)
            return
        with conn.transaction():  # only presence: no need to wait for the disk
            conn.execute("SET LOCAL synchronous_commit TO off")
            store.touch(conn, self.schema, match_id, player, now)

    def touch(self, match_id: str, player: str) -> Match:
        """A request of ``player`` to the match: record it, reconnect them if marked disconnected."""
        with self.reading() as conn:
            m = self.load_for(match_id, player, conn)
            if not m.ended:
                self._record_presence(conn, match_id, player, relaxed=True)
        if player in m.disconnected and not m.ended:
            self._system(
                match_id,
                lambda x: {"type": "reconnect", "player": player} if player in x.disconnected else None,
            )
            m = self.load_for(match_id, player)
        return m

    def tick(self, match_id: str) -> int:
        """Apply every system command due now (presence, forfeits, timeouts); returns how many."""
        applied = 0
        for _ in range(MAX_TICK_STEPS):
            now = clock.now()

            def due(m: Match, now: Any = now) -> dict[str, Any] | None:
                with self.reading() as conn:
                    seen = store.last_seen(conn, self.schema, m.match_id)
                return domain.next_due(m, now, seen)

            if self._system(match_id, due) is None:
                break
            applied += 1
        return applied

    def follow_up(self, match_id: str) -> None:
        """Schedule the match's deadline as it is now (after a deadline task ran: senders skip a
        later deadline while an earlier task is still to come, counting on this)."""
        m = self.load(match_id)
        due = domain.deadline(m) if m is not None and not m.ended else None
        # one already past is the sweep's (a task now could only find the same and send again)
        if due is not None and due > clock.now() and self.scheduler is not None:
            self.scheduler.deadline(match_id, due)

    def bot_turn(self, match_id: str) -> int:
        """Play the bot's moves while the match waits for it; returns how many."""
        moves = 0
        for _ in range(MAX_BOT_MOVES):
            outcome = self._system(
                match_id,
                lambda m: domain.bot_command(m, random.Random(f"{m.match_id}:{m.version}")),
                bot=False,
            )
            if outcome is None:
                break
            moves += 1
        return moves

    def sweep(self, limit: int = 500) -> int:
        """Enforce whatever is due in every running match (the beat task); returns matches visited."""
        with self.reading() as conn:
            ids = store.due_matches(conn, self.schema, clock.now(), limit)
        for match_id in ids:
            try:
                self.tick(match_id)
                self.bot_turn(match_id)
            except Exception:
                log.exception("sweep: match %s failed", match_id)
        return len(ids)

    # -- long poll -----------------------------------------------------------------------------

    def wait_for_events(
        self, match_id: str, player: str, after: int, wait: float
    ) -> tuple[int, list[RecordedEvent]]:
        """Events after version ``after`` (waiting up to ``wait`` seconds for one); and the version."""
        m = self.touch(match_id, player)
        end = time.monotonic() + wait
        touched = time.monotonic()
        while True:
            recorded = self.read_events(match_id, after)
            left = end - time.monotonic()
            if recorded or left <= 0 or m.ended:
                break
            if self.notifier is not None:
                self.notifier.wait(match_id, after, left)
            else:
                time.sleep(min(left, 0.2))
            if time.monotonic() - touched >= TOUCH_EVERY_SECONDS:
                m = self.touch(match_id, player)
                touched = time.monotonic()
        if wait > 1.0 and not m.ended and not any(e.type == "MatchEnded" for e in recorded):
            with self.reading() as conn:
                self._record_presence(conn, match_id, player, relaxed=True)
        version = recorded[-1].version if recorded else max(m.version, 0)
        return version, recorded

    def matches_of(self, player: str, active_only: bool) -> list[dict[str, Any]]:
        with self.reading() as conn:
            return store.matches_of(conn, self.schema, player, active_only)

    # -- practice decks (economy's ActiveDeckChanged) -----------------------------------------

    def keep_active_deck(self, data: dict[str, Any], version: int, conn: psycopg.Connection[Any]) -> None:
        """Record a player's active deck as economy published it (in the consumer's transaction)."""
        decks.keep(conn, self.schema, data, version)

    def practice_deck(self, player: str) -> list[str]:
        """The player's active deck as economy last published it, the starter deck when none was.

        Raises ``IllegalActiveDeck`` (with every problem) when that deck is not legal now."""
        with self.reading() as conn:
            found = decks.active_deck(conn, self.schema, player)
        if found is None:
            return list(STARTER_DECK)
        if not found.legal:
            raise IllegalActiveDeck(found.problems)
        return found.cards
