"""Which games the platform hosts: name -> ``Game``, and each one's ``Offer``.

The built-in games are named by module (``BUILT_IN``); more are named by the setting ``ARCANA_GAMES``
(comma-separated modules, e.g. a test game), read when a name is not found yet. A game module exposes
its instance as ``GAME``. Loading imports the modules once per process; ``get`` loads on first use.

Every service reads a game here, by name: the match service its ``Game``, the others its ``Offer``
(``offer``, ``offers``). Modules are imported by name, so no service imports a game package (the
import contracts forbid it).
"""

from __future__ import annotations

import importlib
import os
import threading
from collections.abc import Iterable

from libs.contracts.base import FIRST_GAME
from libs.games import Game, Offer
from libs.games.offer import FairPlay

BUILT_IN = ("libs.games.arcana.game", "libs.games.line.game", "libs.games.arena.game")
DEFAULT_GAME = FIRST_GAME  # a request or an event that names no game: the first game's, as before games
GAMES_SETTING = "ARCANA_GAMES"

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


def configured() -> list[str]:
    """The modules the setting ``ARCANA_GAMES`` names, besides the built-in ones."""
    return [m.strip() for m in os.environ.get(GAMES_SETTING, "").split(",") if m.strip()]


def get(name: str) -> Game:
    """The game called ``name``; raises ``UnknownGame``."""
    found = _games.get(name)
    if found is None:
        load(configured())
        found = _games.get(name)
    if found is None:
        raise UnknownGame(name)
    return found


def names() -> list[str]:
    """Every hosted game's name, sorted."""
    load(configured())
    return sorted(_games)


def games() -> list[Game]:
    """Every hosted game, by name."""
    return [get(n) for n in names()]


def offer(name: str) -> Offer:
    """What the game called ``name`` offers the other services; raises ``UnknownGame``."""
    return get(name).offer


def offers() -> dict[str, Offer]:
    """Every hosted game's offer, by name."""
    return {g.name: g.offer for g in games()}


def fair_play(name: str) -> FairPlay:
    """How the fair-play rules judge an ended match of the game called ``name`` (its offer's; the
    default row for a game not hosted here, as for one that names none)."""
    try:
        return offer(name).fair_play
    except UnknownGame:
        return FairPlay()


def is_game(name: object) -> bool:
    """Whether ``name`` is a hosted game's name (a validator of requests)."""
    if not isinstance(name, str):
        return False
    try:
        get(name)
    except UnknownGame:
        return False
    return True
