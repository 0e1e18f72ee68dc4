"""The games this process hosts: the built-in ones (``libs.games.registry``) and those of the modules
the setting ``ARCANA_GAMES`` names (comma-separated; each exposes ``GAME``, e.g. a test game)."""

from __future__ import annotations

from libs.games import registry


def load_games() -> None:
    """Host the built-in games and those of the modules ``ARCANA_GAMES`` names (at start-up)."""
    registry.load(registry.configured())
