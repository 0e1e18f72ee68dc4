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
