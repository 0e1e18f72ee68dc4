"""What each game's queue accepts: its modes, its table sizes, and the line's ranked unlock.

Arcana and the line seat two players; the arena seats 2 to 4, and its tickets name the table sizes
they accept. The line's ranked queue opens after ``TRAINING_BATTLES`` finished line practice matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ARCANA, LINE, ARENA = "arcana", "line", "arena"
TRAINING_BATTLES = 3  # finished line practice matches before the line's ranked queue opens


@dataclass(frozen=True)
class QueueRules:
    modes: tuple[str, ...]
    sizes: tuple[int, ...]  # the table sizes the game seats
    choose_sizes: bool = False  # whether a ticket may name the sizes it accepts


GAMES: dict[str, QueueRules] = {
    ARCANA: QueueRules(("ranked", "casual"), (2,)),
    LINE: QueueRules(("ranked", "casual"), (2,)),
    ARENA: QueueRules(("casual",), (2, 3, 4), choose_sizes=True),
}
TABLE_SIZES = GAMES[ARENA].sizes


class MatchmakingError(Exception):
    """Base of the domain's refusals."""


class UnknownGame(MatchmakingError):
    """No such game."""


class InvalidMode(MatchmakingError):
    """The mode is not one the game offers."""


class InvalidSizes(MatchmakingError):
    """Table sizes named for a game whose tables have one size, or sizes the game does not seat."""


class RankedLocked(MatchmakingError):
    """The line's ranked queue opens after ``TRAINING_BATTLES`` training battles; ``left`` to go."""

    def __init__(self, left: int) -> None:
        super().__init__(f"finish {left} more line training battle(s) to unlock ranked")
        self.left = left


def table_sizes(game: str, mode: str, sizes: Sequence[int] | None) -> tuple[int, ...]:
    """The table sizes a ticket accepts (sorted), its request checked: ``UnknownGame``,
    ``InvalidMode`` (a mode the game lacks, e.g. ranked arena) or ``InvalidSizes``."""
    rules = GAMES.get(game)
    if rules is None:
        raise UnknownGame(f"game must be one of {', '.join(GAMES)}")
    if mode not in rules.modes:
        raise InvalidMode(f"mode must be one of {', '.join(rules.modes)} for {game}")
    if sizes is None:
        return rules.sizes
    if not rules.choose_sizes:
        raise InvalidSizes(f"{game} seats {rules.sizes[0]} players: sizes is for the arena only")
    chosen = tuple(sorted(set(sizes)))
    if not chosen or len(chosen) != len(sizes) or not set(chosen) <= set(rules.sizes):
        raise InvalidSizes(f"sizes must be different values among {', '.join(map(str, rules.sizes))}")
    return chosen


def check_unlocked(game: str, mode: str, training_battles: int) -> None:
    """Raise ``RankedLocked`` for the line's ranked queue before enough training battles."""
    if game == LINE and mode == "ranked" and training_battles < TRAINING_BATTLES:
        raise RankedLocked(TRAINING_BATTLES - training_battles)
