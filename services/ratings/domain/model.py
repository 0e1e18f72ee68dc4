"""A player's rating as folded from the stream ``rating-<player>`` of ``RatingChanged`` events (the
integration event, declared once in ``libs.contracts.ratings``) and ``RatingUnchanged`` events (a
ranked match that moved nothing, ``services.ratings.events``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from libs.contracts.ratings import FLOOR as FLOOR  # a RatingChanged's reason
from libs.contracts.ratings import RatingChanged
from libs.games import registry
from libs.games.offer import ELO, MMR, Ladder
from services.ratings.events import RatingChangeVoided, RatingUnchanged

from .elo import START_RATING, TIERS, higher_tier, tier_for
from .mmr import NO_TIER, START_MMR

RATING_CHANGED = RatingChanged.TYPE
RATING_UNCHANGED = RatingUnchanged.TYPE
RATING_CHANGE_VOIDED = RatingChangeVoided.TYPE
WIN, LOSS, DRAW = "win", "loss", "draw"
DEFAULT_GAME = registry.DEFAULT_GAME  # the game of rating events from before games
SYSTEMS = (ELO, MMR)  # the rating systems this service runs: ``elo.py`` and ``mmr.py``

RatingEvent = RatingChanged | RatingUnchanged | RatingChangeVoided


class NoLadder(LookupError):
    """The game has no ladder (or is not hosted here)."""


def ladder_of(game: str) -> Ladder:
    """The ladder of ``game`` as its offer declares it (``libs.games.offer.Ladder``); raises ``NoLadder``."""
    try:
        ladder = registry.offer(game).ladder
    except registry.UnknownGame:
        ladder = None
    if ladder is None or ladder.system not in SYSTEMS:
        raise NoLadder(game)
    return ladder


def has_ladder(game: object) -> bool:
    """Whether ``game`` is the name of a game with a ladder."""
    if not isinstance(game, str):
        return False
    try:
        ladder_of(game)
    except NoLadder:
        return False
    return True


def ladders() -> list[str]:
    """The games with a ladder, by name."""
    return [name for name in registry.names() if has_ladder(name)]


def rating_stream(player_id: str, game: str = DEFAULT_GAME) -> str:
    """The player's stream on the ladder of ``game``: ``<its ladder's stream>-<player>`` (Arcana's
    ``rating-<player>``, the line's ``line-rating-<player>``)."""
    return f"{ladder_of(game).stream}-{player_id}"


@dataclass(frozen=True)
class PlayerRating:
    """The visible rating (``rating``, the ladder points shown), the hidden one (``hidden``, what
    pairs and decides gains; MMR, the line's, is both), the highest tier reached, the games counted and
    which matches they were, on the ladder of ``game`` (``start`` makes a new player's)."""

    player_id: str
    rating: int = START_RATING
    highest_tier: str = TIERS[0][0]
    wins: int = 0
    losses: int = 0
    version: int = 0
    rated_matches: frozenset[str] = field(default_factory=frozenset)
    game: str = DEFAULT_GAME
    hidden: int = START_RATING
    voided: frozenset[str] = field(default_factory=frozenset)  # matches whose change an operator voided

    @property
    def games(self) -> int:
        return self.wins + self.losses

    @property
    def tiered(self) -> bool:
        """Whether its ladder's system has tiers (Elo's; MMR has none)."""
        return ladder_of(self.game).system == ELO

    @property
    def tier(self) -> str:
        return tier_for(self.rating) if self.tiered else NO_TIER


def start(player_id: str, game: str = DEFAULT_GAME) -> PlayerRating:
    """A player before any counted match on the ladder of ``game``, by its system: Elo's 900 bronze,
    or MMR's 1,000 without tiers. Raises ``NoLadder``."""
    if ladder_of(game).system == ELO:
        return PlayerRating(player_id, game=game)
    return PlayerRating(player_id, START_MMR, NO_TIER, game=game, hidden=START_MMR)


def evolve(state: PlayerRating, event: RatingEvent) -> PlayerRating:
    """The rating after one event of its stream (a RatingUnchanged only marks the match counted)."""
    if isinstance(event, RatingUnchanged):
        return replace(state, version=state.version + 1, rated_matches=state.rated_matches | {event.match_id})
    if isinstance(event, RatingChangeVoided):  # the match stays rated: it is never rated again
        won = event.result == WIN
        return replace(
            state,
            rating=event.after,
            hidden=event.hidden_after,
            wins=state.wins - won,
            losses=state.losses - (not won),
            version=state.version + 1,
            voided=state.voided | {event.match_id},
        )
    won = event.result == WIN
    return replace(
        state,
        rating=event.after,
        hidden=event.hidden_after,
        highest_tier=higher_tier(state.highest_tier, event.highest_tier)
        if state.tiered
        else state.highest_tier,
        wins=state.wins + won,
        losses=state.losses + (not won),
        version=state.version + 1,
        rated_matches=state.rated_matches | {event.match_id},
    )


def fold(player_id: str, events: Iterable[RatingEvent], game: str = DEFAULT_GAME) -> PlayerRating:
    state = start(player_id, game)
    for event in events:
        state = evolve(state, event)
    return state
