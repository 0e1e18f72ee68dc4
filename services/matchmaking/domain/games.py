"""What each game's queue accepts, as its offer says (``libs.games.offer.Queue``, found by the game's
name in ``libs.games.registry``): its modes, its table sizes, whether a ticket names the sizes it
accepts (tables seated by size, ``tables.py``) or two players are paired by rating (``pairing.py``),
and the unlock rule (finished practice matches, training battles, before the ranked queue opens).
"""

from __future__ import annotations

from collections.abc import Sequence

from libs.games import registry
from libs.games.offer import Queue

DEFAULT_GAME = registry.DEFAULT_GAME  # the game of tickets from before games


class MatchmakingError(Exception):
    """Base of the domain's refusals."""


class UnknownGame(MatchmakingError):
    """No such game, or one that offers no queue."""


class InvalidMode(MatchmakingError):
    """The mode is not one the game offers."""


class InvalidSizes(MatchmakingError):
    """Table sizes named for a game whose tables have one size, or sizes the game does not seat."""


class RankedLocked(MatchmakingError):
    """The game's ranked queue opens after its training battles; ``left`` to go."""

    def __init__(self, game: str, left: int, needed: int) -> None:
        super().__init__(f"finish {left} more {game} training battle(s) to unlock ranked")
        self.game, self.left, self.needed = game, left, needed


def queue_of(game: str) -> Queue:
    """The queue ``game`` offers (no modes for an unknown game)."""
    try:
        return registry.offer(game).queue
    except registry.UnknownGame:
        return Queue()


def queued_games() -> list[str]:
    """The games that offer a queue, by name."""
    return [name for name, offer in registry.offers().items() if offer.queue.modes]


def table_sizes_offered() -> list[int]:
    """Every table size a ticket may name (of the games whose tickets name sizes)."""
    queues = [o.queue for o in registry.offers().values() if o.queue.choose_sizes]
    return sorted({size for q in queues for size in q.sizes})


def by_tables(game: str) -> bool:
    """Whether ``game``'s tickets are seated at tables by the sizes they accept (else paired)."""
    return queue_of(game).choose_sizes


def table_sizes(game: str, mode: str, sizes: Sequence[int] | None) -> tuple[int, ...]:
    """The table sizes a ticket accepts (sorted), its request checked: ``UnknownGame``,
    ``InvalidMode`` (a mode the game lacks, e.g. ranked arena) or ``InvalidSizes``."""
    rules = queue_of(game)
    if not rules.modes:
        raise UnknownGame(f"game must be one of {', '.join(queued_games())}")
    if mode not in rules.modes:
        raise InvalidMode(f"mode must be one of {', '.join(rules.modes)} for {game}")
    if sizes is None:
        return rules.sizes
    if not rules.choose_sizes:
        raise InvalidSizes(
            f"{game} seats {rules.sizes[0]} players: sizes is for games of several table sizes"
        )
    chosen = tuple(sorted(set(sizes)))
    if not chosen or len(chosen) != len(sizes) or not set(chosen) <= set(rules.sizes):
        raise InvalidSizes(f"sizes must be different values among {', '.join(map(str, rules.sizes))}")
    return chosen


def check_unlocked(game: str, mode: str, training_battles: int) -> None:
    """Raise ``RankedLocked`` for a ranked queue before the game's training battles are done."""
    needed = queue_of(game).ranked_after
    if mode == "ranked" and training_battles < needed:
        raise RankedLocked(game, needed - training_battles, needed)
