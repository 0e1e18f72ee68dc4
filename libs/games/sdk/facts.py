"""The base of a game's typed events (its ``Game.events``): one frozen dataclass per event type."""

from __future__ import annotations

from typing import ClassVar


class Fact:
    """Base of a game's typed events: ``TYPE`` and ``VERSION`` as the envelope names them."""

    TYPE: ClassVar[str]
    VERSION: ClassVar[int] = 1
