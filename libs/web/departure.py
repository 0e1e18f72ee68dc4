"""Noticing at once that the client of a streamed response left: its TCP connection closed.

A server learns that a client left from a write that fails, and the first write after the client
closed usually succeeds (the kernel buffers it; the peer answers with a reset), so a stream that
writes only heartbeats would notice one or two heartbeats late. A client of a stream (Server-Sent
Events) sends nothing after its request, so its socket turning readable means it closed (end of
file) or was reset: ``watch`` waits for that on a thread of its own (a greenlet under gevent, whose
worker patches ``threading`` and ``select``) and calls ``on_leave`` then.

The socket is the one the gunicorn workers put in the WSGI environ (``gunicorn.socket``: the gthread
and gevent workers; ``gunicorn.sock``: gevent's pywsgi one). Without it (another server, a test
client) nothing is watched; the next failed write still ends the stream. Over TLS a socket cannot be
peeked at without reading: nothing is watched either.
"""

from __future__ import annotations

import select
import socket
import ssl
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any

SOCKET_KEYS = ("gunicorn.socket", "gunicorn.sock")


class Watch:
    """A client's socket watched until it closes (``on_leave`` is called then, once) or ``stop``."""

    def __init__(self, client: socket.socket | None, on_leave: Callable[[], None]) -> None:
        self._on_leave = on_leave
        self._stopped = threading.Event()
        self._wake: socket.socket | None = None
        self._waker: socket.socket | None = None
        if client is not None:
            self._wake, self._waker = socket.socketpair()  # ``stop`` wakes the watch through it
            threading.Thread(target=self._watch, args=(client,), name="departure", daemon=True).start()

    def stop(self) -> None:
        """The response ended: watch no more (the socket may serve another request, or be closed)."""
        self._stopped.set()
        if self._waker is not None:
            with suppress(OSError):
                self._waker.send(b"!")
            self._waker.close()

    def _watch(self, client: socket.socket) -> None:
        assert self._wake is not None
        try:
            poller = select.poll()
            poller.register(client, select.POLLIN)
            poller.register(self._wake, select.POLLIN)
            poller.poll()
            if not self._stopped.is_set() and _closed(client) and not self._stopped.is_set():
                self._on_leave()
        except OSError:  # the socket was closed under the watch: the response has ended
            return
        finally:
            self._wake.close()


def watch(environ: dict[str, Any], on_leave: Callable[[], None]) -> Watch:
    """Watch the client of this request (``environ``): ``on_leave`` once it closes its connection."""
    client = next((environ[k] for k in SOCKET_KEYS if environ.get(k) is not None), None)
    if isinstance(client, ssl.SSLSocket) or not isinstance(client, socket.socket):
        client = None
    return Watch(client, on_leave)


def _closed(client: socket.socket) -> bool:
    """Whether a readable ``client`` closed (end of file, reset) rather than sent bytes."""
    try:
        return client.recv(1, socket.MSG_PEEK) == b""
    except (ConnectionError, TimeoutError):
        return True
    except BlockingIOError:
        return False
