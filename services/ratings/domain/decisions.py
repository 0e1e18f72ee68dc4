"""Which ended matches count, and the two RatingChanged of one that does."""

from __future__ import annotations

from dataclasses import dataclass

from libs import fairplay
from libs.contracts.match import MatchEnded
from libs.games import registry

from .elo import hidden_step, higher_tier, tier_for, visible_after
from .mmr import NO_TIER, new_mmr
from .model import (
    DEFAULT_GAME,
    DRAW,
    FLOOR,
    LOSS,
    WIN,
    PlayerRating,
    RatingChanged,
    RatingUnchanged,
    has_ladder,
)

RANKED = "ranked"


@dataclass(frozen=True)
class RankedResult:
    """A ranked match that moves a rating: who won, who lost, and whose rating stays (``still``: the
    winner of a concede before turn 4, who gains nothing while the one who left loses as usual)."""

    match_id: str
    winner: str
    loser: str
    still: frozenset[str] = frozenset()
    game: str = DEFAULT_GAME  # whose ladder


def _rated(match_ended: MatchEnded) -> bool:
    """A ranked match between two humans of a game with a ladder."""
    return match_ended.mode == RANKED and not match_ended.bot and has_ladder(match_ended.game)


def ranked_result(match_ended: MatchEnded) -> RankedResult | None:
    """The result of a ``MatchEnded`` when it moves a rating, else None: a ranked match between two
    humans with a winner, of a game with a ladder (its offer's: Arcana, the line), moving the ratings
    its verdict says (``libs.fairplay``: from turn 4 both, within the repeat-opponent rule; a concede
    or forfeit before turn 4 only the leaver's). Casual, practice, admin, draws, short matches, repeat
    opponents, the arena and anything malformed change nothing."""
    if not _rated(match_ended) or match_ended.draw:
        return None
    players = match_ended.players
    winner, loser = match_ended.winner, match_ended.loser
    if len(players) != 2 or not winner or not loser or winner == loser or {winner, loser} != set(players):
        return None
    verdicts = fairplay.verdicts_of(match_ended.data(), registry.fair_play(match_ended.game))
    moving = {p for p, v in verdicts.items() if v.rating}
    if not moving:
        return None
    still = frozenset(p for p in (winner, loser) if p not in moving)
    return RankedResult(match_ended.match_id, winner, loser, still, match_ended.game)


class AlreadyRated(Exception):
    """This match has already moved this player's rating (a redelivery)."""


def _mmr_changed(me: PlayerRating, match_id: str, won: bool) -> RatingChanged:
    after = new_mmr(me.rating, won)
    return RatingChanged(
        player_id=me.player_id,
        match_id=match_id,
        before=me.rating,
        after=after,
        tier=NO_TIER,
        highest_tier=NO_TIER,
        delta=after - me.rating,
        result=WIN if won else LOSS,
        hidden_before=me.rating,
        hidden_after=after,
        game=me.game,
    )


def _changed(me: PlayerRating, match_id: str, step: int, won: bool) -> RatingChanged:
    """Elo (Arcana's): the hidden rating moves by ``step`` (gained on a win, lost on a loss); the
    visible points follow it (``visible_after``), held by the floor of the highest tier reached. MMR
    (the line's) moves by the result alone."""
    if not me.tiered:
        return _mmr_changed(me, match_id, won)
    hidden = me.hidden + (step if won else -step)
    after, floored = visible_after(me.rating, hidden, hidden - me.hidden, won, me.highest_tier)
    return RatingChanged(
        player_id=me.player_id,
        match_id=match_id,
        before=me.rating,
        after=after,
        tier=tier_for(after),
        highest_tier=higher_tier(me.highest_tier, tier_for(after)),
        delta=after - me.rating,
        result=WIN if won else LOSS,
        hidden_before=me.hidden,
        hidden_after=hidden,
        reason=FLOOR if floored else None,
        game=me.game,
    )


def rate(result: RankedResult, winner: PlayerRating, loser: PlayerRating) -> tuple[RatingChanged, ...]:
    """The RatingChanged of the winner and of the loser whose ratings move (not those ``still``), on
    the ladder of the players' states. Arcana: one hidden step from both hidden ratings before the
    match, gained by the winner and lost by the loser (zero-sum; a loss counts against the
    opponent's rating whether or not theirs moves, so a ``still`` winner makes it negative-sum, never
    positive); the line's MMR moves by the result alone. Raises ``AlreadyRated`` when either player
    already counted this match."""
    if result.match_id in winner.rated_matches or result.match_id in loser.rated_matches:
        raise AlreadyRated(result.match_id)
    step = hidden_step(winner.hidden, loser.hidden, winner.games, loser.games)
    changes = (
        (winner.player_id, _changed(winner, result.match_id, step, True)),
        (loser.player_id, _changed(loser, result.match_id, step, False)),
    )
    return tuple(change for player, change in changes if player not in result.still)


@dataclass(frozen=True)
class Unmoved:
    """A player of a ranked match whose rating it does not move: their result and the reason."""

    match_id: str
    player_id: str
    result: str
    reason: str
    game: str = DEFAULT_GAME


def unmoved(match_ended: MatchEnded) -> list[Unmoved]:
    """The players of a ranked ``MatchEnded`` between two humans whose rating it does not move, with
    the verdict's reason (a repeat opponent, an early concede's winner, a short match, a draw); their
    rating history shows it. Empty for any other match."""
    if not _rated(match_ended):
        return []
    verdicts = fairplay.verdicts_of(match_ended.data(), registry.fair_play(match_ended.game))
    winner = None if match_ended.draw else match_ended.winner
    match_id = match_ended.match_id
    return [
        Unmoved(
            match_id,
            p,
            DRAW if winner is None else WIN if p == winner else LOSS,
            v.reasons.get("rating", ""),
            match_ended.game,
        )
        for p, v in verdicts.items()
        if not v.rating
    ]


def keep(player: PlayerRating, why: Unmoved) -> RatingUnchanged:
    """The RatingUnchanged of ``why``. Raises ``AlreadyRated`` when the player counted the match."""
    if why.match_id in player.rated_matches:
        raise AlreadyRated(why.match_id)
    return RatingUnchanged(
        player.player_id,
        why.match_id,
        player.rating,
        player.tier,
        player.highest_tier,
        why.result,
        why.reason,
        why.game,
    )
