"""Folded stream states kept per process, so a command reads only the events it has not seen.

An entry is (version, id of the event at that version, state, confirmed). A ``confirmed`` entry is
known committed (handed over after its transaction committed, or read outside any transaction):
a load reads the events after it, and a command decided on it may skip the read altogether
(``Repository.peek``). Any other entry is checked: a load reads the stream from its version on,
and when the first event read is not the cached one (the cache saw a transaction that rolled
back), the entry is dropped and the stream is folded from the start. States are immutable, so an
entry is shared safely between threads.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Folded:
    version: int
    last_event_id: uuid.UUID
    state: Any
    confirmed: bool = False


class StreamCache:
    """The last ``size`` streams' folded states (least recently used dropped first)."""

    def __init__(self, size: int = 20_000) -> None:
        self.size = size
        self._entries: OrderedDict[str, Folded] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, stream: str) -> Folded | None:
        with self._lock:
            found = self._entries.get(stream)
            if found is not None:
                self._entries.move_to_end(stream)
            return found

    def put(self, stream: str, folded: Folded) -> None:
        with self._lock:
            current = self._entries.get(stream)
            if current is None or _newer(folded, current):
                self._entries[stream] = folded
            self._entries.move_to_end(stream)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def drop(self, stream: str) -> None:
        with self._lock:
            self._entries.pop(stream, None)


def _newer(new: Folded, current: Folded) -> bool:
    """Whether ``new`` replaces ``current``: a later version, or the same one unless only the
    current entry is known committed."""
    if new.version != current.version:
        return new.version > current.version
    return new.confirmed or not current.confirmed
