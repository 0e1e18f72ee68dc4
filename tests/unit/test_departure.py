"""``libs.web.departure``: a streamed response's client is seen leaving as its connection closes,
on real sockets; bytes it sends, or a watch stopped first, are not a departure."""

from __future__ import annotations

import socket
import threading

from libs.web import departure


def _watched() -> tuple[socket.socket, socket.socket, threading.Event, departure.Watch]:
    server_side, client_side = socket.socketpair()
    left = threading.Event()
    return server_side, client_side, left, departure.watch({"gunicorn.socket": server_side}, left.set)


def test_a_client_that_closes_its_connection_is_seen_leaving_at_once() -> None:
    server_side, client_side, left, watch = _watched()
    client_side.close()
    assert left.wait(10), "the closed connection was not noticed (nothing was written to it)"
    watch.stop()
    server_side.close()


def test_bytes_from_the_client_or_a_stopped_watch_are_no_departure() -> None:
    server_side, client_side, left, watch = _watched()
    client_side.sendall(b"GET / HTTP/1.1\r\n")  # a pipelined request: not an end of file
    assert not left.wait(0.3)
    assert server_side.recv(64).startswith(b"GET")  # nothing was consumed by the watch
    watch.stop()
    server_side2, client_side2, left2, watch2 = _watched()
    watch2.stop()
    client_side2.close()
    assert not left2.wait(0.3)
    for s in (server_side, client_side, server_side2):
        s.close()


def test_without_a_socket_in_the_environ_nothing_is_watched() -> None:
    left = threading.Event()
    departure.watch({}, left.set).stop()
    assert not left.is_set()
