"""Live matches through a crash of the whole stack, step by step: what `make bench-recovery`
(``bench/bench_recovery.py``) times with M = 1,000 matches and ``tests/e2e/test_recovery.py`` checks
with M = 3. The stack is `make run` itself (``harness/makerun.py``).

1. ``open_and_drive``: M operator matches (``POST /v1/admin/matches``) between fresh player ids,
   whose bearer tokens are signed with the stack's secret; both players keep their hands, then the
   player whose turn it is makes a few commands. Over a few threads, each with one keep-alive
   connection (``harness/client.py``).
2. ``take_snapshots``: both players' views and event lists (``/events?after=0``), all four at one
   version. ``make_last_moves``, right before the crash: the player whose turn it is ends it (a
   command acknowledged last; the new turn's deadline is 60 s after this short pass, so none passes
   before the crash) and the other player looks at the match.
3. ``crash``: every process `make run` started and PostgreSQL, SIGKILLed in one pass; the clock is
   moved 61 s forward, so every turn deadline passes while the stack is down. `make run`'s
   supervisor brings everything back.
4. ``watch_recovery`` (the players as coroutines of one asyncio loop, ``harness/loadgen.py``):
   seconds from the crash until PostgreSQL accepts connections, ``/readyz``
   answers 200, every match's view answers 200 for both players, every overdue deadline is enforced
   (a ``TurnTimedOut`` after the snapshot's version, seen by a long-poll as a client waits for it),
   and the relays have published the whole log again to the new, empty broker.
5. ``verify``: nothing lost and nothing invented. Each player's event list still starts with exactly
   the snapshot's list. The match's stored stream is replayed with the service's own domain code:
   its first events (up to the snapshot's version) give exactly the views the players saw before the
   crash; every later event is what the engine decides for the acknowledged last move (which must be
   there, as its answer showed it) or for a system command at that point (a turn timeout once its
   deadline has passed, a disconnection, a reconnection, a forfeit after 120 s away; the engine is
   deterministic, so each is decided again here and compared field by field); the views and event
   lists served now are those of the whole stream. A match that was playing must have a
   ``TurnTimedOut`` after its snapshot, decided after the crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import random
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import psycopg
from psycopg import sql

from harness.client import Client, Reply
from harness.loadgen import TRANSPORT_ERRORS, Http, LongPollFeed, Refused
from harness.makerun import MakeRun
from libs.db import make_pool
from libs.eventstore import EventStore
from libs.games import IllegalCommand
from libs.games.arcana import STARTER_DECK
from libs.games.arcana.game import TURN_SECONDS
from libs.kit import service_names
from services.match import domain
from services.match.domain import Match, Row
from services.match.repository import as_rows, stream_of

T = TypeVar("T")
R = TypeVar("R")

COMMANDS_BEFORE_THE_SNAPSHOT = 3
CLOCK_JUMP_SECONDS = TURN_SECONDS + 1  # every turn deadline passes while the stack is down
LONG_POLL_SECONDS = 25
RETRY_SECONDS = 0.2


class SetupFailed(RuntimeError):
    """The stack refused a set-up request (creating or driving a match, a snapshot)."""


@dataclass
class LiveMatch:
    """A match being driven: its players and their tokens, and what the last answer said."""

    match_id: str
    players: tuple[str, str]
    tokens: dict[str, str]
    version: int = 0
    awaiting: list[str] = field(default_factory=list)
    known_legal: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def path(self) -> str:
        return f"/v1/matches/{self.match_id}"


@dataclass(frozen=True)
class Acknowledged:
    """A command the stack acknowledged: who sent it, and the version and events its answer gave."""

    player: str
    command: dict[str, Any]
    version: int
    events: list[dict[str, Any]]


@dataclass(frozen=True)
class Snapshot:
    """Both players' views and event lists of one match, all at ``version``; and the last move, a
    command acknowledged after them (``make_last_moves``)."""

    match: LiveMatch
    version: int
    views: dict[str, dict[str, Any]]
    events: dict[str, list[dict[str, Any]]]
    last_move: Acknowledged | None = None

    @property
    def playing(self) -> bool:
        return bool(self.views[self.match.players[0]]["phase"] == "playing")


@dataclass(frozen=True)
class Crash:
    """When every process was killed: ``at`` (monotonic, t0) and ``wall`` (UTC, before the clock
    moved: whatever a process decided after the restart is stored at a later ``occurred_at``)."""

    at: float
    wall: datetime
    killed: int


@dataclass
class Recovery:
    """Seconds from the crash to each milestone (None: not reached before the limit), and what never
    recovered."""

    postgres: float | None = None
    ready: float | None = None
    views: float | None = None
    deadlines: float | None = None
    republished: float | None = None
    unanswered: list[str] = field(default_factory=list)
    not_enforced: list[str] = field(default_factory=list)


# -- threads ---------------------------------------------------------------------------------------


def each(base: str, items: Sequence[T], work: Callable[[Client, T], R], threads: int) -> list[R]:
    """``work(client, item)`` for every item over ``threads`` threads, each with one keep-alive client;
    the results in the order of ``items``. The first exception raised stops the others and is raised."""
    local = threading.local()
    clients: list[Client] = []
    failed = threading.Event()
    lock = threading.Lock()

    def run(item: T) -> R:
        if failed.is_set():
            raise SetupFailed("another item failed")
        client = getattr(local, "client", None)
        if client is None:
            client = local.client = Client(base, timeout=60)
            with lock:
                clients.append(client)
        try:
            return work(client, item)
        except BaseException:
            failed.set()
            raise

    try:
        with ThreadPoolExecutor(threads) as pool:
            return list(pool.map(run, items))
    finally:
        for client in clients:
            client.close()


def _ok(reply: Reply, status: int, what: str) -> Any:
    if reply.status != status:
        raise SetupFailed(f"{what}: {reply.status} {reply.body[:300]!r}")
    return reply.json()


# -- 1. set-up -------------------------------------------------------------------------------------


def open_and_drive(stack: MakeRun, count: int, threads: int, seed: int = 13) -> list[LiveMatch]:
    """``count`` operator matches, each past the mulligan and a few commands (see the module)."""

    def one(client: Client, index: int) -> LiveMatch:
        match = open_match(stack, client)
        drive(client, match, random.Random(seed * 1_000_003 + index))
        return match

    return each(stack.base, range(count), one, threads)


def open_match(stack: MakeRun, client: Client) -> LiveMatch:
    """A new operator match between two fresh player ids (their tokens signed with the stack's secret)."""
    players = (str(uuid.uuid4()), str(uuid.uuid4()))
    setup = {"players": [{"id": p, "deck": list(STARTER_DECK)} for p in players]}
    made = _ok(
        client.post("/v1/admin/matches", {"setup": setup}, token=stack.operator_token), 201, "a new match"
    )
    return LiveMatch(made["match_id"], players, {p: stack.token(p) for p in players}, made["version"])


def drive(client: Client, match: LiveMatch, rng: random.Random) -> None:
    """Both players keep their hands; then ``COMMANDS_BEFORE_THE_SNAPSHOT`` commands of whoever the
    match waits for (plays and attacks, sometimes the end of the turn)."""
    for player in match.players:
        move(client, match, player, _keep_the_hand)
    for _ in range(COMMANDS_BEFORE_THE_SNAPSHOT):
        move(client, match, match.awaiting[0], lambda legal: _play_or_end(legal, rng))


def move(
    client: Client,
    match: LiveMatch,
    player: str,
    choose: Callable[[list[dict[str, Any]]], dict[str, Any] | None],
) -> None:
    """``player`` posts the command ``choose`` picks among their legal commands (nothing when it picks
    none), at the version they were listed for; after a 409 (a timer moved the match first) they are
    read again. Raises ``SetupFailed`` for any other refusal."""
    for _ in range(5):
        legal = match.known_legal.pop(player, None)
        version = match.version
        if legal is None:
            listed = _ok(client.get(f"{match.path}/legal-commands", match.tokens[player]), 200, "legal")
            legal, version, match.awaiting = listed["commands"], listed["version"], listed["awaiting"]
        command = choose(legal)
        if command is None:
            return
        reply = client.post(
            f"{match.path}/commands", {**command, "expected_version": version}, match.tokens[player]
        )
        if reply.status == 409:
            continue
        answer = _ok(reply, 200, f"{command['type']} in {match.match_id}")
        match.version, match.awaiting = answer["version"], answer["awaiting"]
        match.known_legal = {player: answer["legal_commands"]} if player in answer["awaiting"] else {}
        return
    raise SetupFailed(f"{match.match_id}: five version conflicts in a row")


def _keep_the_hand(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((c for c in legal if c["type"] == "mulligan" and not c.get("cards")), None)


def _end_the_turn(legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((c for c in legal if c["type"] == "end_turn"), None)


def _play_or_end(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    actions = [c for c in legal if c["type"] in ("play", "attack")]
    if actions and rng.random() < 0.7:
        return rng.choice(actions)
    return _end_the_turn(legal)


# -- 2. snapshots ----------------------------------------------------------------------------------


def take_snapshots(stack: MakeRun, matches: Sequence[LiveMatch], threads: int) -> list[Snapshot]:
    """Each match's snapshot (see ``snapshot``)."""
    return each(stack.base, matches, snapshot, threads)


def snapshot(client: Client, match: LiveMatch) -> Snapshot:
    """Both players' views and event lists at one version (a read reconnects a player marked
    disconnected, which moves the match: all four are read again while their versions differ).
    Raises ``SetupFailed``."""
    for _ in range(5):
        views = {p: _ok(client.get(match.path, match.tokens[p]), 200, "view") for p in match.players}
        lists = {
            p: _ok(client.get(f"{match.path}/events?after=0", match.tokens[p]), 200, "events")
            for p in match.players
        }
        versions = {v["version"] for v in views.values()} | {e["version"] for e in lists.values()}
        if len(versions) == 1:
            return Snapshot(match, versions.pop(), views, {p: e["events"] for p, e in lists.items()})
    raise SetupFailed(f"{match.match_id} kept moving while its snapshot was taken")


def make_last_moves(stack: MakeRun, snapshots: Sequence[Snapshot], threads: int) -> list[Snapshot]:
    """Right before the crash, in each match the player whose turn it is ends it (the new turn's
    deadline is then 60 s after this pass, so none passes before the crash, and the answer is a
    command acknowledged last), and the other player looks at the match (so neither has been
    silent long). Returns the snapshots with their last move."""

    def one(client: Client, s: Snapshot) -> Snapshot:
        acknowledged = end_turn(client, s.match)
        other = next(p for p in s.match.players if p != acknowledged.player)
        _ok(client.get(s.match.path, s.match.tokens[other]), 200, "view")
        return replace(s, last_move=acknowledged)

    return each(stack.base, snapshots, one, threads)


def end_turn(client: Client, match: LiveMatch) -> Acknowledged:
    """The player whose turn it is ends it, in one request (the server reads the match first);
    when the turn is no longer theirs (a timer moved the match), the player it now waits for.
    Raises ``SetupFailed`` for another refusal."""
    command = {"type": "end_turn"}
    for _ in range(3):
        player = match.awaiting[0]
        reply = client.post(f"{match.path}/commands", command, match.tokens[player])
        if reply.status == 422:
            listed = _ok(client.get(f"{match.path}/legal-commands", match.tokens[player]), 200, "legal")
            match.awaiting = listed["awaiting"]
            continue
        answer = _ok(reply, 200, f"end_turn in {match.match_id}")
        match.version, match.awaiting, match.known_legal = answer["version"], answer["awaiting"], {}
        return Acknowledged(player, command, answer["version"], answer["events"])
    raise SetupFailed(f"{match.match_id}: no turn to end")


def relay_progress(database_url: str) -> dict[tuple[str, str], tuple[int, str | None]]:
    """Every relay's recorded progress: (schema, relay) -> (position published, broker cluster id)."""
    found: dict[tuple[str, str], tuple[int, str | None]] = {}
    with psycopg.connect(database_url, autocommit=True, connect_timeout=3) as conn:
        for schema in service_names():
            table = sql.Identifier(schema, "relay_progress")
            for relay, position, cluster in conn.execute(
                sql.SQL("SELECT relay, position, cluster_id FROM {}").format(table)
            ):
                found[(schema, relay)] = (int(position), cluster)
    return found


def log_heads(database_url: str) -> dict[str, int]:
    """Each service's highest event position: what its relay must publish again after the crash."""
    with psycopg.connect(database_url, autocommit=True, connect_timeout=3) as conn:
        return {
            schema: int(
                conn.execute(
                    sql.SQL("SELECT coalesce(max(position), 0) FROM {}").format(
                        sql.Identifier(schema, "events")
                    )
                ).fetchone()[0]  # type: ignore[index]
            )
            for schema in service_names()
        }


# -- 3. the crash ----------------------------------------------------------------------------------


def crash(stack: MakeRun) -> Crash:
    """SIGKILL everything `make run` started and PostgreSQL in one pass (t0), then move the clock
    ``CLOCK_JUMP_SECONDS`` forward. Returns once the web and PostgreSQL ports are closed."""
    wall = datetime.now(UTC)
    at = time.monotonic()
    killed = stack.kill_everything()
    stack.advance_clock(CLOCK_JUMP_SECONDS)
    for port in (stack.port, stack.pg_port):
        _wait_closed(port)
    return Crash(at, wall, killed)


def _wait_closed(port: int, timeout: float = 5.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                pass
        except OSError:
            return
        time.sleep(0.01)


# -- 4. recovery -----------------------------------------------------------------------------------


def watch_recovery(
    stack: MakeRun,
    snapshots: Sequence[Snapshot],
    crashed: Crash,
    *,
    heads: Mapping[str, int],
    before: Mapping[tuple[str, str], tuple[int, str | None]],
    threads: int,
    limit: float,
) -> Recovery:
    """Every milestone of ``Recovery``, each watched from the crash on, none longer than ``limit``
    seconds after it: PostgreSQL, ``/readyz`` and the relays each in a thread of their own, the
    players (views and long-polls) as coroutines of one asyncio loop in another."""
    until = crashed.at + limit
    found = Recovery()
    web_up = threading.Event()

    def since_crash(at: float | None) -> float | None:
        return None if at is None else at - crashed.at

    def postgres() -> None:
        found.postgres = since_crash(_postgres_accepting(stack.database_url, until))

    def ready() -> None:
        found.ready = since_crash(_ready(stack.base, web_up, until))

    def players() -> None:
        (views, unanswered), (deadlines, not_enforced) = asyncio.run(
            _watch_players(stack.base, snapshots, crashed.wall, web_up, threads, until)
        )
        found.views, found.unanswered = since_crash(views), unanswered
        found.deadlines, found.not_enforced = since_crash(deadlines), not_enforced

    def republished() -> None:
        found.republished = since_crash(_republished(stack.database_url, heads, before, until))

    watchers = [threading.Thread(target=w) for w in (postgres, ready, players, republished)]
    for watcher in watchers:
        watcher.start()
    for watcher in watchers:
        watcher.join()
    return found


def _postgres_accepting(url: str, until: float) -> float | None:
    """When (monotonic) PostgreSQL first answered a query; None if not before ``until``."""
    while time.monotonic() < until:
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=2) as conn:
                conn.execute("SELECT 1")
            return time.monotonic()
        except psycopg.Error:
            time.sleep(0.05)
    return None


def _ready(base: str, web_up: threading.Event, until: float) -> float | None:
    """When (monotonic) ``/readyz`` first answered 200; None if not before ``until``. ``web_up`` is
    set once the web answers anything."""
    client = Client(base, timeout=5)
    try:
        while time.monotonic() < until:
            with contextlib.suppress(OSError, http.client.HTTPException):
                status = client.get("/readyz").status
                web_up.set()
                if status == 200:
                    return time.monotonic()
            time.sleep(0.05)
        return None
    finally:
        client.close()


Watched = tuple[float | None, list[str]]


async def _watch_players(
    base: str,
    snapshots: Sequence[Snapshot],
    crashed_at: datetime,
    web_up: threading.Event,
    connections: int,
    until: float,
) -> tuple[Watched, Watched]:
    """The views read and the deadlines awaited, from the moment the web answers, over one aiohttp
    session (``harness/loadgen.py``)."""
    while not web_up.is_set() and time.monotonic() < until:
        await asyncio.sleep(0.05)
    client = Http(base, timeout=LONG_POLL_SECONDS + 30)
    try:
        views, deadlines = await asyncio.gather(
            _read_views(client, snapshots, connections, until),
            _deadlines_enforced(client, snapshots, crashed_at, until),
        )
    finally:
        await client.close()
    return views, deadlines


async def _read_views(client: Http, snapshots: Sequence[Snapshot], connections: int, until: float) -> Watched:
    """Each match's view, for each player, read until it answers 200 (a refused connection or a 5xx
    is tried again), ``connections`` reads at a time; returns when the last one answered
    (monotonic; None unless all did) and those that did not (or answered another status)."""
    pending = deque((s.match, p) for s in snapshots for p in s.match.players)
    unanswered: list[str] = []
    last = 0.0

    async def reader() -> None:
        nonlocal last
        while pending and time.monotonic() < until:
            match, player = pending.popleft()
            status = await _status(client, match.path, match.tokens[player])
            if status is None or status >= 500:
                pending.append((match, player))
                await asyncio.sleep(RETRY_SECONDS)
            elif status == 200:
                last = max(last, time.monotonic())
            else:
                unanswered.append(f"{match.match_id} as {player}: {status}")

    await asyncio.gather(*(reader() for _ in range(connections)))
    unanswered += [f"{m.match_id} as {p}: never answered" for m, p in pending]
    return (last if not unanswered else None), unanswered


async def _status(client: Http, path: str, token: str) -> int | None:
    try:
        return (await client.get(path, token, timeout=30)).status
    except TRANSPORT_ERRORS:
        return None


async def _deadlines_enforced(
    client: Http, snapshots: Sequence[Snapshot], crashed_at: datetime, until: float
) -> Watched:
    """For each match that was playing, a long-poll of its first player on ``/events`` after the
    snapshot's version (again after each answer that settles nothing, see ``_outcome``) until a
    ``TurnTimedOut`` decided after the crash comes; a coroutine per match, as each client waits.
    Returns when the last one came (monotonic; None unless all did) and the matches where none came
    (ended after the crash without one, or the limit passed)."""
    playing = [s for s in snapshots if s.playing]
    outcomes: dict[str, tuple[str, float]] = {}

    async def wait_for_timeout(s: Snapshot) -> None:
        feed = LongPollFeed(client, s.match.match_id, s.match.tokens[s.match.players[0]])
        after = s.version
        while time.monotonic() < until:
            wait = max(1, min(LONG_POLL_SECONDS, int(until - time.monotonic())))
            try:
                update = await feed.next(after, wait)
            except (*TRANSPORT_ERRORS, Refused):
                await asyncio.sleep(RETRY_SECONDS)
                continue
            outcome = _outcome(update.events, crashed_at)
            if outcome is not None:
                outcomes[s.match.match_id] = (outcome, time.monotonic())
                return
            after = update.version

    await asyncio.gather(*(wait_for_timeout(s) for s in playing))
    enforced = [at for outcome, at in outcomes.values() if outcome == "enforced"]
    missing = [
        s.match.match_id
        for s in playing
        if outcomes.get(s.match.match_id, ("",))[0] not in ("enforced", "ended before the crash")
    ]
    return (max(enforced, default=time.monotonic()) if not missing else None), missing


def _outcome(events: Sequence[Mapping[str, Any]], crashed_at: datetime) -> str | None:
    """What events of a match say of its deadline overdue at the crash: ``enforced`` (a
    ``TurnTimedOut`` decided after the crash), ``ended before the crash`` (no deadline was running),
    ``ended`` (after the crash, without one); None: nothing yet."""
    for event in events:
        after_crash = datetime.fromisoformat(event["occurred_at"]) >= crashed_at
        if event["type"] == "TurnTimedOut" and after_crash:
            return "enforced"
        if event["type"] == "MatchEnded":
            return "ended" if after_crash else "ended before the crash"
    return None


def _republished(
    url: str,
    heads: Mapping[str, int],
    before: Mapping[tuple[str, str], tuple[int, str | None]],
    until: float,
) -> float | None:
    """When (monotonic) every relay had recorded, for a broker other than the one it knew before the
    crash, a position at or past its service's log head at the crash; None if not before ``until``."""
    while time.monotonic() < until:
        try:
            now = relay_progress(url)
        except psycopg.Error:
            now = {}
        done = all(
            now.get(key, (0, None))[1] not in (None, cluster) and now[key][0] >= heads.get(key[0], 0)
            for key, (_, cluster) in before.items()
        )
        if now and done:
            return time.monotonic()
        time.sleep(0.25)
    return None


# -- 5. verification -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Served:
    """What the stack serves for one match after recovery: each player's view and event list, and the
    stored stream read after them."""

    views: dict[str, dict[str, Any]]
    events: dict[str, list[dict[str, Any]]]
    stored: list[Row]


def verify(stack: MakeRun, snapshots: Sequence[Snapshot], crashed: Crash, threads: int) -> list[str]:
    """Problems found (empty: nothing lost, nothing but deadlines and presence happened; see the
    module). Each read again now: both views, both event lists, then the stored stream."""
    pool = make_pool(stack.database_url, min_size=1, max_size=threads, name="recovery-check")
    store = EventStore(pool, "match")

    def one(client: Client, s: Snapshot) -> list[str]:
        match = s.match
        views = {p: _ok(client.get(match.path, match.tokens[p]), 200, "view") for p in match.players}
        lists = {
            p: _ok(client.get(f"{match.path}/events?after=0", match.tokens[p]), 200, "events")["events"]
            for p in match.players
        }
        stored = as_rows(store.read(stream_of(match.match_id)))
        return [f"{match.match_id}: {p}" for p in problems_of(s, Served(views, lists, stored), crashed.wall)]

    try:
        return [p for found in each(stack.base, snapshots, one, threads) for p in found]
    finally:
        pool.close()


def problems_of(s: Snapshot, served: Served, crashed_at: datetime) -> list[str]:
    """What is wrong with one match after recovery (see the module): each problem as a sentence."""
    stored = served.stored
    if [row[3] for row in stored] != list(range(1, len(stored) + 1)) or len(stored) < s.version:
        versions = [row[3] for row in stored]
        return [f"the stored stream is not versions 1..{s.version} or more: {versions[-5:]}"]
    at_snapshot = domain.fold_match(stored[: s.version])
    tail = stored[s.version :]
    return [
        *_snapshot_kept(s, served, at_snapshot),
        *explain(at_snapshot, tail, s.last_move),
        *_deadline_enforced(at_snapshot, tail, crashed_at),
        *_served_as_stored(s, served),
    ]


def _snapshot_kept(s: Snapshot, served: Served, at_snapshot: Match) -> list[str]:
    """Each player's event list still starts with the snapshot's, and the stored events up to the
    snapshot's version give the views the players saw then."""
    found = []
    for player in s.match.players:
        if served.events[player][: len(s.events[player])] != s.events[player]:
            found.append(f"{player}'s events up to version {s.version} are not those of the snapshot")
        if _view(at_snapshot, player) != s.views[player]:
            found.append(f"the stored events up to {s.version} give {player} another view than the snapshot")
    return found


def _deadline_enforced(at_snapshot: Match, tail: Sequence[Row], crashed_at: datetime) -> list[str]:
    """A match still running at the crash has a ``TurnTimedOut`` decided after it (its turn's deadline
    passed while the stack was down)."""
    before_crash = [row for row in tail if row[2] < crashed_at]
    if domain.fold_match(before_crash, at_snapshot).ended:
        return []
    if any(kind == "TurnTimedOut" and at >= crashed_at for kind, _, at, _ in tail):
        return []
    return ["no TurnTimedOut decided after the crash: the overdue deadline was not enforced"]


def _served_as_stored(s: Snapshot, served: Served) -> list[str]:
    """The views and event lists served now are those of the stored stream at their versions."""
    found = []
    for player in s.match.players:
        version = served.views[player]["version"]
        if served.views[player] != _view(domain.fold_match(served.stored[:version]), player):
            found.append(f"{player}'s view at version {version} is not the fold of the stored events")
        events = served.events[player]
        upto = events[-1]["version"] if events else 0
        if events != client_events(served.stored[:upto], player):
            found.append(f"{player}'s event list is not the stored stream as they may see it")
    return found


def explain(m: Match, tail: Sequence[Row], last_move: Acknowledged | None = None) -> list[str]:
    """Walk the events stored after a snapshot (the match then ``m``). Each batch must be exactly what
    the engine decides for the acknowledged ``last_move`` (once, ending at the version its answer
    gave, which showed its player those events) or for a system command at that point
    (``system_command``) once it was due (a timeout at or after its turn's deadline). Returns the
    problems: the walk stops at the first batch nothing explains, and the last move must be found."""
    i = 0
    pending = last_move
    while i < len(tail):
        batch = _acknowledged_batch(m, tail[i:], pending)
        if batch:
            pending = None
        else:
            batch, problem = _system_batch(m, tail[i:])
            if problem:
                return [problem]
        m = domain.fold_match(batch, m)
        i += len(batch)
    if pending is not None:
        return [f"the acknowledged {pending.command} of {pending.player} (version {pending.version}) is lost"]
    return []


def _acknowledged_batch(m: Match, rest: Sequence[Row], move: Acknowledged | None) -> Sequence[Row]:
    """The first events of ``rest`` if they are ``move`` as the engine decides it at ``m`` and as its
    answer showed it; else nothing."""
    if move is None:
        return []
    try:
        expected = domain.decide_for(m, move.player, move.command).events
    except IllegalCommand:
        return []
    batch = rest[: len(expected)]
    same = _as_json([[k, d] for k, d, _, _ in batch]) == _as_json([[k, d] for k, d in expected])
    answered = client_events(batch, move.player) == move.events
    return batch if same and answered and batch[-1][3] == move.version else []


def _system_batch(m: Match, rest: Sequence[Row]) -> tuple[Sequence[Row], str]:
    """The first events of ``rest`` if a system command decided them at ``m`` once it was due, and no
    problem; else nothing and the problem."""
    kind, data, at, version = rest[0]
    command, due = system_command(m, kind, data)
    if command is None:
        return [], f"version {version}: {kind} is not what a deadline or a reconnection decides"
    expected = domain.decide_match(m, command).events
    batch = rest[: len(expected)]
    if _as_json([[k, d] for k, d, _, _ in batch]) != _as_json([[k, d] for k, d in expected]):
        return [], f"versions {version}..: not what the engine decides for {command}"
    if due is not None and at < due:
        return [], f"version {version}: {command['type']} decided at {at}, before it was due ({due})"
    return batch, ""


def system_command(m: Match, kind: str, data: Mapping[str, Any]) -> tuple[dict[str, Any] | None, Any]:
    """The system command that may have stored an event of ``kind`` (its first) in match ``m``, and
    when it became due (None: whenever); (None, None) when no system command stores it."""
    if kind == domain.PLAYER_DISCONNECTED and data.get("player_id") in set(m.humans()) - set(m.disconnected):
        since = datetime.fromisoformat(data["since"])
        return {"type": "disconnect", "player": data["player_id"], "since": data["since"]}, since
    if kind == domain.PLAYER_RECONNECTED and data.get("player_id") in m.disconnected:
        return {"type": "reconnect", "player": data["player_id"]}, None
    if kind == "TurnTimedOut" and m.rules is not None and m.rules.phase == "playing":
        return {"type": "timeout", "player": domain.awaiting(m)[0]}, domain.deadline(m)
    away = m.disconnected.get(str(data.get("loser")))
    if kind == "MatchEnded" and data.get("reason") == "disconnect" and away is not None:
        forfeit = {"type": "forfeit", "player": data["loser"], "reason": "disconnect"}
        return forfeit, away + timedelta(seconds=domain.DISCONNECT_FORFEIT_SECONDS)
    return None, None


def client_events(rows: Iterable[Row], player: str) -> list[dict[str, Any]]:
    """Stored events as ``GET /events`` answers them to ``player``."""
    out = []
    for kind, data, at, version in rows:
        seen = domain.client_event(kind, data, player)
        if seen is not None:
            seen.pop("type", None)
            out.append({"version": version, "type": kind, "occurred_at": at.isoformat(), "data": seen})
    return _as_json(out)


def _view(m: Match, player: str) -> dict[str, Any]:
    return dict(_as_json(domain.player_view(m, player)))


def _as_json(value: Any) -> Any:
    return json.loads(json.dumps(value))
