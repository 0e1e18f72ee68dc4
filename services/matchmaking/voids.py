"""An operator voided a rating change (ratings' ``RatingChangeVoided``): ranked tickets are paired by
the hidden rating after it, as after a ``RatingChanged`` (``MatchmakingService.handle``)."""

from __future__ import annotations

from typing import Any

import psycopg

from libs.contracts import RatingChangeVoided
from libs.eventstore import RecordedEvent
from libs.kit.definition import EventHandler
from services.matchmaking import store
from services.matchmaking.service import MatchmakingService


def rating_change_voided(
    svc: MatchmakingService, event: RecordedEvent, conn: psycopg.Connection[Any]
) -> None:
    voided = RatingChangeVoided.decode(event)
    store.save_rating(conn, svc.schema, voided.player_id, voided.game, voided.hidden_after, event.version)


HANDLERS: dict[str, EventHandler] = {RatingChangeVoided.TYPE: rating_change_voided}
