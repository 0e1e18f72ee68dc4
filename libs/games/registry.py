"""Which games the match service hosts: name -> ``Game``.

The built-in games are named by module (``BUILT_IN``); more can be named at start-up (the match
service passes the modules of its setting ``ARCANA_GAMES``, e.g. a test game). A game module
exposes its instance as ``GAME``. Loading imports the modules once per process; ``get`` loads the
built-in games on first use.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterable

from libs.games import Game

BUILT_IN = ("libs.games.arcana.game", "libs.games.line.game", "libs.games.arena.game")
DEFAULT_GAME = "arcana"

_games: dict[str, Game] = {}
_lock = threading.Lock()


class UnknownGame(LookupError):
    """No game of that name is hosted here."""

    def __init__(self, name: object) -> None:
        super().__init__(f"no game {name!r}")
        self.name = name


def register(game: Game) -> Game:
    """Host ``game`` under its name (the same instance again changes nothing; another game of a
    taken name is a ValueError)."""
    with _lock:
        known = _games.get(game.name)
        if known is not None and known is not game:
            raise ValueError(f"two games named {game.name!r}")
        _games[game.name] = game
    return game


def load(modules: Iterable[str] = ()) -> None:
    """Import the built-in game modules and ``modules``, registering each one's ``GAME``."""
    for name in (*BUILT_IN, *modules):
        register(importlib.import_module(name).GAME)


def get(name: str) -> Game:
    """The game called ``name``; raises ``UnknownGame``."""
    if not _games:
        load()
    found = _games.get(name)
    if found is None:
        raise UnknownGame(name)
    return found


def names() -> list[str]:
    """Every hosted game's name, sorted."""
    if not _games:
        load()
    return sorted(_games)


def games() -> list[Game]:
    """Every hosted game, by name."""
    return [get(n) for n in names()]
