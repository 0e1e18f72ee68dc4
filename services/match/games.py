"""The games this process hosts: the built-in ones (``libs.games.registry``) and those of the modules
the setting ``ARCANA_GAMES`` names (comma-separated; each exposes ``GAME``, e.g. a test game)."""

from __future__ import annotations

import os

from libs.games import registry

GAMES_SETTING = "ARCANA_GAMES"


def load_games() -> None:
    """Host the built-in games and those of the modules ``ARCANA_GAMES`` names (at start-up)."""
    extra = [m.strip() for m in os.environ.get(GAMES_SETTING, "").split(",") if m.strip()]
    registry.load(extra)
