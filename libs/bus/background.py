"""What the relay, the consumer runner and the projector share: a ``run(stop)`` loop that a
process runs in its main thread, or a test or service runs in a daemon thread."""

from __future__ import annotations

import threading


class BackgroundLoop:
    """Subclasses implement ``run(stop)`` and ``thread_name``; ``start``/``stop`` come from here."""

    thread_name = "loop"

    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def run(self, stop: threading.Event | None = None) -> None:
        raise NotImplementedError

    def start(self) -> threading.Thread:
        """Run in a daemon thread; ``stop()`` ends it."""
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name=self.thread_name, daemon=True)
        self._thread.start()
        return self._thread

    def stop(self, timeout: float = 30.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
