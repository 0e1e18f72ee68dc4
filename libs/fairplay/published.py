"""The verdicts of a game after Arcana (the line, the arena): every ``MatchEnded`` of such a game was
published with its verdict (those games came after verdicts), so there is no older rule to upcast to;
the verdict is read as published, held within what every mode allows (``allowed_by_mode``).

``verdicts_of`` here is the package's: Arcana's events go to ``verdict.verdicts_of`` as before. (Once
``verdict.verdicts_of`` reads every game by the game's own rule, this module has nothing left to do.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from . import verdict
from .limits import ADMIN
from .verdict import ASPECTS, Verdict

ARCANA: Final = "arcana"  # a MatchEnded without ``game`` is Arcana's
MAX_PLAYERS: Final = 4


def game_of(data: Mapping[str, Any]) -> str:
    """The game of a ``MatchEnded``'s data (``arcana`` when absent)."""
    game = data.get("game")
    return game if isinstance(game, str) and game else ARCANA


def _players(data: Mapping[str, Any]) -> tuple[str, ...] | None:
    given = data.get("players")
    if not isinstance(given, list) or not all(isinstance(p, str) and p for p in given):
        return None
    players = tuple(given)
    return players if 2 <= len(players) <= MAX_PLAYERS and len(set(players)) == len(players) else None


def allowed_by_mode(published: Verdict, mode: str) -> Verdict:
    """``published`` within what ``mode`` allows in any game: an operator match counts nothing, a
    practice match never pays coins nor moves a rating, only a ranked match moves a rating."""
    if mode == ADMIN:
        return published.refuse(ASPECTS, "mode")
    if mode == "practice":
        return published.refuse(("coins", "rating"), "mode")
    if mode != "ranked":
        return published.refuse(("rating",), "not_ranked")
    return published


def published_verdicts(data: Mapping[str, Any]) -> dict[str, Verdict]:
    """Each player's verdict on a ``MatchEnded`` of a game other than Arcana (2 to 4 players): as
    published, within ``allowed_by_mode``; a player without a well-formed verdict counts nothing.
    Empty for a malformed event."""
    players = _players(data)
    if players is None:
        return {}
    given = data.get("verdict")
    published: Mapping[Any, Any] = given if isinstance(given, Mapping) else {}
    mode = str(data.get("mode"))
    return {p: allowed_by_mode(Verdict.from_data(published.get(p)) or Verdict(), mode) for p in players}


def verdicts_of(data: Mapping[str, Any]) -> dict[str, Verdict]:
    """Each player's verdict on a ``MatchEnded`` of any game: Arcana's by ``verdict.verdicts_of`` (the
    rule of their time for events before verdicts), the others' by ``published_verdicts``."""
    return verdict.verdicts_of(data) if game_of(data) == ARCANA else published_verdicts(data)
