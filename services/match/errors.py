"""What the match service raises to its callers (``api.ERRORS`` maps each to its HTTP answer)."""

from __future__ import annotations


class MatchNotFound(Exception):
    """No such match, or the requester is not one of its players."""


class VersionConflict(Exception):
    """The match is not at the version the command was decided on (``current``: the version it is at)."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the match is at version {current}")
        self.current = current


class MatchExists(Exception):
    """The match id (from a request id) already has a stream."""


class IllegalActiveDeck(Exception):
    """The player's active deck, as economy last published it, is not legal: ``problems`` says why."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


class PracticeInProgress(Exception):
    """The player has an unfinished practice match (``match_id``): resume it or concede it first."""

    def __init__(self, match_id: str) -> None:
        super().__init__(f"practice match {match_id} is not finished")
        self.match_id = match_id


class TooManyRequests(Exception):
    """A per-player rate or concurrency cap; retry after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after


class PracticeSeats(Exception):
    """The game does not seat the player and that many bots (``allowed``: the bot counts it does)."""

    def __init__(self, game: str, allowed: list[int]) -> None:
        super().__init__(f"{game} practice takes {' or '.join(map(str, allowed))} bot(s)")
        self.game = game
        self.allowed = allowed
