"""Which requests are the match events long-polls (``GET /v1/matches/<id>/events``) and streams
(``GET /v1/matches/<id>/stream``, Server-Sent Events): the requests a process of their own serves
(``services/match/waits_wsgi.py``, gunicorn's gevent worker), so waiting
players never take the GIL or the database pool of the processes that answer commands. In
Kubernetes the Ingress routes them there (``INGRESS_PATH``); under ``make run`` the gthread gunicorn,
the one port, passes them on (``LongPollRouter`` with a ``libs.web.forward.Forwarder``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

LONG_POLL = re.compile(r"^/v1/matches/[^/]+/events/?$")
STREAM = re.compile(r"^/v1/matches/[^/]+/stream/?$")
# The same routes for ingress-nginx (a regular expression path of the Ingress, matched from the
# start of the path): anchored, so /stream-tickets stays with the match pods.
INGRESS_PATH = "/v1/matches/[^/]+/(events|stream)/?$"


def is_long_poll(path: str) -> bool:
    return LONG_POLL.match(path) is not None


def is_stream(path: str) -> bool:
    return STREAM.match(path) is not None


def waits_for_the_match(path: str) -> bool:
    """A long-poll or a stream: what the long-poll process serves."""
    return is_long_poll(path) or is_stream(path)


class LongPollRouter:
    """The long-polls and streams to ``waits``, every other request to ``rest``."""

    def __init__(self, waits: Any, rest: Any) -> None:
        self.waits = waits
        self.rest = rest

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        app = self.waits if waits_for_the_match(environ.get("PATH_INFO", "")) else self.rest
        result: Iterable[bytes] = app(environ, start_response)
        return result
