"""Progress of long command-line work on standard error: a bar on a terminal, a line every few
seconds otherwise (a log file or CI keeps readable lines), and one closing line either way."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")

BAR_WIDTH = 30
LINE_EVERY_SECONDS = 5.0


class Progress:
    """``verb`` and ``noun`` name the work ("exported", "events"); ``total`` may be unknown (None)."""

    def __init__(
        self, verb: str, noun: str, total: int | None, *, quiet: bool = False, out: TextIO | None = None
    ) -> None:
        self.verb, self.noun, self.total, self.quiet = verb, noun, total, quiet
        self.out = out if out is not None else sys.stderr
        self.count = 0
        self.started = time.monotonic()
        self._shown = self.started
        self._terminal = self.out.isatty()

    def step(self, n: int = 1) -> None:
        self.count += n
        if self.quiet:
            return
        now = time.monotonic()
        if self._terminal and now - self._shown >= 0.1:
            self._shown = now
            self.out.write("\r" + self._bar())
            self.out.flush()
        elif not self._terminal and now - self._shown >= LINE_EVERY_SECONDS:
            self._shown = now
            self.out.write(self._line() + "\n")
            self.out.flush()

    def track(self, items: Iterable[T]) -> Iterator[T]:
        for item in items:
            yield item
            self.step()

    def done(self, count: int | None = None) -> None:
        if count is not None:
            self.count = count
        if self.quiet:
            return
        seconds = time.monotonic() - self.started
        ending = "\r" if self._terminal else ""
        self.out.write(f"{ending}{self.verb} {self.count} {self.noun} in {seconds:.1f} s\n")
        self.out.flush()

    def _line(self) -> str:
        of = f" of {self.total}" if self.total is not None else ""
        return f"{self.verb} {self.count}{of} {self.noun}"

    def _bar(self) -> str:
        if not self.total:
            return self._line()
        filled = min(BAR_WIDTH, BAR_WIDTH * self.count // self.total)
        return f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self._line()}"
