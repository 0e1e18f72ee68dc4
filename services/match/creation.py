"""Starting a match (practice, operator, a MatchRequested), and storing the rejection of a request that
cannot start one."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

import psycopg

from libs import clock
from libs.eventstore import ConcurrencyError
from services.match import domain
from services.match.dispatch import Dispatcher
from services.match.errors import MatchExists
from services.match.writing import MatchWriter, Outcome


class MatchCreation:
    def __init__(self, writer: MatchWriter, dispatcher: Dispatcher) -> None:
        self.writer = writer
        self.dispatcher = dispatcher

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
        decision = domain.open_match(
            match_id, mode, players, seed, today, bot=bot, request_id=request_id, options=options
        )
        try:
            outcome = self.writer.append(None, match_id, decision, conn)
        except ConcurrencyError:
            raise MatchExists(match_id) from None
        if conn is None:
            self.dispatcher.dispatch(outcome)
        return outcome

    def reject_request(
        self, match_id: str, events: list[domain.Event], conn: psycopg.Connection[Any]
    ) -> bool:
        """Store a MatchRequestRejected stream in ``conn``'s transaction; False when the request was
        already handled (the stream exists)."""
        try:
            self.writer.append(None, match_id, domain.Decision(events), conn)
        except ConcurrencyError:
            return False
        return True
