"""Reading a Server-Sent Events stream in tests, frame by frame, as the HTML standard parses it
(fields ``event``, ``id``, ``data``, ``retry``; a line starting with ``:`` is a comment)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Frame:
    event: str | None = None
    id: str | None = None
    data: list[str] = field(default_factory=list)
    retry: int | None = None
    comments: list[str] = field(default_factory=list)

    @property
    def json(self) -> Any:
        return json.loads("\n".join(self.data))

    @property
    def is_ping(self) -> bool:
        return self.comments == ["ping"] and not self.data and self.id is None


class SseReader:
    """Frames from an iterator of byte chunks (a streamed response); ``next()`` blocks for the next
    whole frame and raises ``StopIteration`` when the stream ends."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._buffer = b""

    def __iter__(self) -> Iterator[Frame]:
        return self

    def __next__(self) -> Frame:
        while b"\n\n" not in self._buffer:
            chunk = next(self._chunks)  # StopIteration: the stream ended
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\n\n", 1)
        return parse(raw.decode())

    def until(self, event: str) -> list[Frame]:
        """Frames up to and including the next one of type ``event``."""
        frames = []
        for frame in self:
            frames.append(frame)
            if frame.event == event:
                return frames
        raise AssertionError(f"the stream ended before an {event!r} frame: {frames}")


def parse(raw: str) -> Frame:
    frame = Frame()
    for line in raw.split("\n"):
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "":
            frame.comments.append(value)
        elif name == "event":
            frame.event = value
        elif name == "id":
            frame.id = value
        elif name == "data":
            frame.data.append(value)
        elif name == "retry":
            frame.retry = int(value)
    return frame


def messages(frames: list[Frame]) -> list[Any]:
    """The match events among ``frames`` (the unnamed ``message`` frames), as JSON."""
    return [f.json for f in frames if f.event is None and f.data]
