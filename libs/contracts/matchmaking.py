"""What matchmaking asks of match on ``arcana.matchmaking.events``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from libs.contracts.base import FIRST_GAME, IntegrationEvent, integration_event


@integration_event("MatchRequested", version=1)
@dataclass(frozen=True)
class MatchRequested(IntegrationEvent):
    """Two paired tickets ask the match service for a match (it answers with MatchCreated or
    MatchRequestRejected carrying the same `request_id`)."""

    request_id: str = field(metadata={"doc": "UUID5 of the two ticket ids: a repeat names the same request"})
    mode: str = field(metadata={"doc": "`ranked` or `casual`"})
    players: list[dict[str, Any]] = field(
        metadata={
            "doc": "two `{id}`: the players' ids; match plays each one's active deck as economy "
            "published it (events written before 2026-12 also carry each `deck`, which match checks)"
        }
    )
    tickets: list[str] = field(metadata={"doc": "the two ticket ids, in the order of `players`"})
    match_id: str = field(
        metadata={"doc": "the match id the match service will give it (UUID5 of request_id)"}
    )
    game: str = field(
        default=FIRST_GAME,
        metadata={"doc": "the game to play (`arcana`, `line`, `arena`; `arcana` when absent: before games)"},
    )
