"""An operator voids a ranked match's rating change (docs/operations.md, "Operator actions").

For each player whose rating the match moved (its ``RatingChanged`` events, on any ladder), a
``RatingChangeVoided`` moves the visible and hidden ratings back by that change, and one
``OperatorActed`` in ratings' ``audit`` stream names the operator, the reason and what moved: all
in one transaction (the players in id order, as ``record_match`` appends them). The match stays
rated: it is never rated again.
"""

from __future__ import annotations

from typing import Any

from libs import clock
from libs.contracts import OperatorActed
from libs.contracts.audit import AUDIT_STREAM, VOID_RATING
from libs.contracts.ratings import RatingChanged
from libs.eventstore import Expect, Transaction, UnitOfWork
from services.ratings import domain, store
from services.ratings.domain.voids import AlreadyVoided, void
from services.ratings.service import RatingsService


class NoRatingChange(Exception):
    """The match moved no one's rating (not ranked, not counted, or unknown)."""


def _changes(uow: UnitOfWork, svc: RatingsService, match_id: str) -> list[tuple[str, RatingChanged]]:
    """Each rating stream's ``RatingChanged`` of ``match_id`` (read upcast): the streams of the
    match's players (as it started) on every ladder, in stream order."""
    found = []
    for player in store.started_players(uow.conn, svc.schema, match_id) or []:
        for game in domain.ladders():
            stream = domain.rating_stream(player, game)
            for e in svc.events.read(stream, conn=uow.conn):
                if e.type == domain.RATING_CHANGED and e.data.get("match_id") == match_id:
                    found.append((stream, RatingChanged.from_data(e.data)))
    return sorted(found, key=lambda c: c[0])


def void_match(
    svc: RatingsService, match_id: str, operator: str, reason: str, tx: Transaction | None = None
) -> list[dict[str, Any]]:
    """Void every rating change of ``match_id``; what moved, per player. Raises ``NoRatingChange``,
    ``AlreadyVoided``; nothing is written then."""

    def work(uow: UnitOfWork) -> list[dict[str, Any]]:
        changes = _changes(uow, svc, match_id)
        if not changes:
            raise NoRatingChange(match_id)
        now, moved = clock.now(), []
        for stream, changed in changes:
            state = svc.load(changed.player_id, uow, changed.game)
            voided = void(state, changed)
            uow.append(stream, state.version, [voided], occurred_at=now)
            moved.append(
                {
                    k: voided.data()[k]
                    for k in ("player_id", "game", "before", "after", "hidden_before", "hidden_after")
                }
            )
        subject = f"match-{match_id}"
        entry = OperatorActed(
            VOID_RATING, operator, reason, moved[0]["player_id"], subject, {"players": moved}
        )
        uow.append(AUDIT_STREAM, Expect.ANY, [entry], occurred_at=now)
        return moved

    return svc.repository.execute(work, transaction=tx)


__all__ = ["AlreadyVoided", "NoRatingChange", "void_match"]
