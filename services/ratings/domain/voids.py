"""Voiding a match's rating change (an operator's action): the compensating event, decided from the
player's state now and the ``RatingChanged`` it undoes. Standard library only."""

from __future__ import annotations

from dataclasses import replace

from libs.contracts.ratings import RatingChanged
from services.ratings.events import RatingChangeVoided

from .model import PlayerRating


class AlreadyVoided(Exception):
    """The player's change of this match was voided already."""


def void(state: PlayerRating, changed: RatingChanged) -> RatingChangeVoided:
    """Move ``state``'s visible and hidden ratings back by what ``changed`` moved them (the visible
    one not below 0). Raises ``AlreadyVoided``."""
    if changed.match_id in state.voided:
        raise AlreadyVoided(changed.match_id)
    after = max(0, state.rating - changed.delta)
    hidden_after = state.hidden - (changed.hidden_after - changed.hidden_before)
    return RatingChangeVoided(
        state.player_id,
        changed.match_id,
        state.rating,
        after,
        state.hidden,
        hidden_after,
        replace(state, rating=after).tier,
        changed.result,
        game=state.game,
    )
