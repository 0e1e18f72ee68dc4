"""A player's match as a stream of Server-Sent Events (issue 33): every event they may see, as the
long-poll would answer it, pushed as it is stored, on one open response.

Frames (``text/event-stream``):

- ``retry: 2000`` first: a browser's ``EventSource`` reconnects 2 s after a dropped connection;
- one ``message`` per visible event, its version as the ``id`` and ``visible_events``'s form of it
  (version, type, occurred_at, data) as ``data``;
- after each batch (and once at the start) an ``event: state``: ``{"version", "awaiting",
  "legal_commands"}``, its ``id`` the version it describes, so a resume never reads again the
  events the player cannot see;
- ``: ping`` (a comment) after ``heartbeat_seconds`` without a frame, which keeps proxies from
  closing an idle connection.

A stream resumes after a version (``Last-Event-ID``, else ``?after=``): reconnecting is replay. It
ends after the match's last event (a resume after it is answered 204, which tells ``EventSource``
to stop), after ``max_seconds`` (the client resumes where it was), or once the caller's session
is no longer valid. While open it is the player's presence, recorded as a long-poll records it,
until its client leaves: the HTTP layer watches the client's connection and calls ``leave`` as it
closes (``libs.web.departure``), and the stream then records no more presence and ends at once. (A
failed write would notice it too, but only at the second write after the client left: heartbeats
later.)
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from libs import config
from services.match.domain import Match
from services.match.errors import TooManyRequests
from services.match.notify import MatchNotifier
from services.match.usecases.polls import TOUCH_EVERY_SECONDS, PlayerReads
from services.match.usecases.replies import next_move, visible_events

RETRY_MILLISECONDS = 2000
PING = b": ping\n\n"


class NothingToStream(Exception):
    """The match has ended and the caller has every event of it (HTTP 204)."""


@dataclass(frozen=True)
class StreamSettings:
    """``ARCANA_STREAM_HEARTBEAT_SECONDS``, ``ARCANA_STREAM_MAX_SECONDS``,
    ``ARCANA_STREAMS_PER_PLAYER`` (``from_env``; unset ones keep these defaults)."""

    # Below the 60 s idle timeout of common proxies (ingress-nginx).
    heartbeat_seconds: float = config.STREAM_HEARTBEAT_SECONDS.default
    # then the client resumes: a stream moves to another replica
    max_seconds: float = config.STREAM_MAX_SECONDS.default
    per_player: int = config.STREAMS_PER_PLAYER.default  # streams open at once per player in one process

    @classmethod
    def from_env(cls) -> StreamSettings:
        heartbeat, longest = config.STREAM_HEARTBEAT_SECONDS.get(), config.STREAM_MAX_SECONDS.get()
        return cls(heartbeat, longest, config.STREAMS_PER_PLAYER.get())


class StreamSlots:
    """The streams open in this process, per player (thread-safe)."""

    def __init__(self, per_player: int, retry_after: int) -> None:
        self.per_player = per_player
        self.retry_after = retry_after
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def open_for(self, player: str) -> int:
        with self._lock:
            return self._open.get(player, 0)

    def take(self, player: str) -> Callable[[], None]:
        """One of ``player``'s slots, and the function that gives it back (once); raises
        ``TooManyRequests`` when all are taken. A stream whose client left frees its slot as its
        connection closes, else at its next heartbeat at the latest: hence ``retry_after``."""
        with self._lock:
            held = self._open.get(player, 0)
            if held >= self.per_player:
                raise TooManyRequests(self.retry_after)
            self._open[player] = held + 1
        given_back = threading.Event()

        def release() -> None:
            if given_back.is_set():
                return
            given_back.set()
            with self._lock:
                left = self._open.get(player, 1) - 1
                if left > 0:
                    self._open[player] = left
                else:
                    self._open.pop(player, None)

        return release


class OpenStream:
    """An open stream: iterate for its frames (bytes); ``leave`` says its client left; ``close`` ends
    it and frees its slot (the WSGI server calls it when the response ends, the client left, or it
    was never started), then calls what was given to ``on_close``."""

    def __init__(self, frames: Iterator[bytes], release: Callable[[], None], left: Left) -> None:
        self._frames = frames
        self._release = release
        self._left = left
        self._closing: list[Callable[[], None]] = []

    def __iter__(self) -> Iterator[bytes]:
        return self._frames

    def leave(self) -> None:
        """The client closed its connection (any thread): no more presence, and the stream ends."""
        self._left.set()

    def on_close(self, then: Callable[[], None]) -> None:
        self._closing.append(then)

    def close(self) -> None:
        try:
            self._frames.close()  # type: ignore[attr-defined]
        finally:
            self._release()
            for then in self._closing:
                then()


class Left:
    """Whether a stream's client left; setting it wakes the stream where it waits."""

    def __init__(self, match_id: str, notifier: MatchNotifier | None) -> None:
        self._event = threading.Event()
        self._match_id = match_id
        self._notifier = notifier

    def set(self) -> None:
        self._event.set()
        if self._notifier is not None:
            self._notifier.wake(self._match_id)

    def is_set(self) -> bool:
        return self._event.is_set()

    def wait(self, after: int, seconds: float) -> bool:
        """Wait as the stream does (``MatchNotifier.wait``, else a 0.2 s nap): whether to read the
        database after."""
        if self._notifier is None:
            self._event.wait(min(seconds, 0.2))
            return True
        return self._notifier.wait(self._match_id, after, seconds, until=self._event)


class MatchStreams:
    def __init__(self, reads: PlayerReads, settings: StreamSettings | None = None) -> None:
        self.reads = reads
        self.settings = settings or StreamSettings()
        self.slots = StreamSlots(self.settings.per_player, max(1, math.ceil(self.settings.heartbeat_seconds)))

    def open(
        self,
        match_id: str,
        player: str,
        after: int,
        still_valid: Callable[[], bool],
        counted: Callable[[], AbstractContextManager[None]] = nullcontext,
    ) -> OpenStream:
        """``player``'s stream of the match after version ``after``. Raises ``MatchNotFound`` unless
        they play in it, ``TooManyRequests`` when they hold every stream slot of this process,
        ``NothingToStream`` when it has ended at or before ``after``. ``still_valid`` is asked
        each time presence is recorded: the stream ends once it says no (a logged-out session).
        ``counted()`` is entered while the stream runs (a gauge of the open streams)."""
        release = self.slots.take(player)
        try:
            m = self.reads.system.touch(match_id, player)  # presence, and a reconnection
            if m.ended and m.version <= after:
                raise NothingToStream(match_id)
        except BaseException:
            release()
            raise
        left = Left(match_id, self.reads.notifier)
        return OpenStream(_within(counted, self._frames(m, player, after, still_valid, left)), release, left)

    def _frames(
        self, m: Match, player: str, after: int, still_valid: Callable[[], bool], left: Left
    ) -> Iterator[bytes]:
        yield f"retry: {RETRY_MILLISECONDS}\n\n".encode()
        heartbeat = self.settings.heartbeat_seconds
        ends = time.monotonic() + self.settings.max_seconds
        touched = written = time.monotonic()
        look, first = m.version > after, True
        while True:
            recorded = self.reads.matches.read_events(m.match_id, after) if look else []
            if recorded or first:
                m = self.reads.matches.advanced(m, recorded)
                yield self._batch(m, player, recorded, after)
                after = max(after, m.version)
                written, first = time.monotonic(), False
            now = time.monotonic()
            if m.ended or now >= ends or left.is_set():
                return
            if now - touched >= TOUCH_EVERY_SECONDS:
                if not still_valid():
                    return
                self.reads.record_presence(m.match_id, player)
                touched = now
            if now - written >= heartbeat:
                yield PING
                written = now
            nap = max(0.0, min(ends, touched + TOUCH_EVERY_SECONDS, written + heartbeat) - time.monotonic())
            look = left.wait(after, nap)

    @staticmethod
    def _batch(m: Match, player: str, recorded: list[Any], after: int) -> bytes:
        """The frames of ``recorded`` as ``player`` sees them, then the state they leave."""
        frames = [_frame(e, ident=e["version"]) for e in visible_events(recorded, m, player)]
        version = max(after, m.version, 0)
        frames.append(_frame({"version": version, **next_move(m, player)}, ident=version, event="state"))
        return b"".join(frames)


def _within(context: Callable[[], AbstractContextManager[None]], frames: Iterator[bytes]) -> Iterator[bytes]:
    """``frames``, with ``context`` entered from the first frame until the last or the close."""
    with context():
        yield from frames


def _frame(data: dict[str, Any], *, ident: int, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    return f"{head}id: {ident}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()
