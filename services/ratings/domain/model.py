"""A player's rating as folded from the stream ``rating-<player>`` of ``RatingChanged`` events (the
integration event, declared once in ``libs.contracts.ratings``) and ``RatingUnchanged`` events (a
ranked match that moved nothing, ``services.ratings.events``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from libs.contracts.ratings import FLOOR as FLOOR  # a RatingChanged's reason
from libs.contracts.ratings import RatingChanged
from services.ratings.events import RatingUnchanged

from .elo import START_RATING, TIERS, higher_tier, tier_for
from .mmr import LINE, NO_TIER, START_MMR

RATING_CHANGED = RatingChanged.TYPE
RATING_UNCHANGED = RatingUnchanged.TYPE
WIN, LOSS, DRAW = "win", "loss", "draw"
ARCANA = "arcana"
LADDERS = (ARCANA, LINE)  # the games with a ladder (the arena has none)

RatingEvent = RatingChanged | RatingUnchanged


def rating_stream(player_id: str, game: str = ARCANA) -> str:
    """Arcana's ``rating-<player>``, the line's ``line-rating-<player>``."""
    return f"rating-{player_id}" if game == ARCANA else f"{game}-rating-{player_id}"


@dataclass(frozen=True)
class PlayerRating:
    """The visible rating (``rating``, the ladder points shown), the hidden one (``hidden``, what
    pairs and decides gains; the line's MMR is both), the highest tier reached, the games counted and
    which matches they were, on the ladder of ``game`` (``start`` makes a new player's)."""

    player_id: str
    rating: int = START_RATING
    highest_tier: str = TIERS[0][0]
    wins: int = 0
    losses: int = 0
    version: int = 0
    rated_matches: frozenset[str] = field(default_factory=frozenset)
    game: str = ARCANA
    hidden: int = START_RATING

    @property
    def games(self) -> int:
        return self.wins + self.losses

    @property
    def tier(self) -> str:
        return tier_for(self.rating) if self.game == ARCANA else NO_TIER


def start(player_id: str, game: str = ARCANA) -> PlayerRating:
    """A player before any counted match on the ladder of ``game``: 900 bronze, or the line's 1,000."""
    if game == ARCANA:
        return PlayerRating(player_id)
    return PlayerRating(player_id, START_MMR, NO_TIER, game=game, hidden=START_MMR)


def evolve(state: PlayerRating, event: RatingEvent) -> PlayerRating:
    """The rating after one event of its stream (a RatingUnchanged only marks the match counted)."""
    if isinstance(event, RatingUnchanged):
        return replace(state, version=state.version + 1, rated_matches=state.rated_matches | {event.match_id})
    won = event.result == WIN
    tiered = state.game == ARCANA
    return replace(
        state,
        rating=event.after,
        hidden=event.hidden_after,
        highest_tier=higher_tier(state.highest_tier, event.highest_tier) if tiered else state.highest_tier,
        wins=state.wins + won,
        losses=state.losses + (not won),
        version=state.version + 1,
        rated_matches=state.rated_matches | {event.match_id},
    )


def event_from(kind: str, data: Mapping[str, Any]) -> RatingEvent | None:
    """A stored event of a rating stream (None for a type this version does not know)."""
    if kind == RATING_CHANGED:
        return RatingChanged.from_data(data)
    if kind == RATING_UNCHANGED:
        return RatingUnchanged.from_data(data)
    return None


def fold(player_id: str, events: Iterable[RatingEvent], game: str = ARCANA) -> PlayerRating:
    state = start(player_id, game)
    for event in events:
        state = evolve(state, event)
    return state
