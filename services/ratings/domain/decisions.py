"""Which ended matches count, and the two RatingChanged of one that does."""

from __future__ import annotations

from dataclasses import dataclass

from libs.contracts.match import MatchEnded

from .elo import higher_tier, new_rating, tier_for
from .model import LOSS, WIN, PlayerRating, RatingChanged

RANKED = "ranked"
MIN_TURNS = 4  # docs/rules.md, "Which matches count": turn 4 reached


@dataclass(frozen=True)
class RankedResult:
    """A counted ranked match: who won, who lost."""

    match_id: str
    winner: str
    loser: str


def ranked_result(match_ended: MatchEnded) -> RankedResult | None:
    """The result of a ``MatchEnded`` when it moves ratings, else None: only ranked matches between
    two humans that reached turn 4 and did not end in a draw count (casual, practice, admin, draws
    and short matches change nothing)."""
    if match_ended.mode != RANKED or match_ended.draw or match_ended.bot:
        return None
    if match_ended.turns < MIN_TURNS:
        return None
    players = match_ended.players
    winner, loser = match_ended.winner, match_ended.loser
    if len(players) != 2 or not winner or not loser or winner == loser or {winner, loser} != set(players):
        return None
    return RankedResult(match_ended.match_id, winner, loser)


class AlreadyRated(Exception):
    """This match has already moved this player's rating (a redelivery)."""


def _changed(me: PlayerRating, opponent: PlayerRating, match_id: str, score: float) -> RatingChanged:
    after = new_rating(me.rating, opponent.rating, score, me.games, me.highest_tier)
    highest = higher_tier(me.highest_tier, tier_for(after))
    return RatingChanged(
        player_id=me.player_id,
        match_id=match_id,
        before=me.rating,
        after=after,
        tier=tier_for(after),
        highest_tier=highest,
        delta=after - me.rating,
        result=WIN if score else LOSS,
    )


def rate(
    result: RankedResult, winner: PlayerRating, loser: PlayerRating
) -> tuple[RatingChanged, RatingChanged]:
    """The winner's and the loser's RatingChanged, both from the ratings before the match.
    Raises ``AlreadyRated`` when either player already counted this match."""
    if result.match_id in winner.rated_matches or result.match_id in loser.rated_matches:
        raise AlreadyRated(result.match_id)
    return (
        _changed(winner, loser, result.match_id, 1.0),
        _changed(loser, winner, result.match_id, 0.0),
    )
