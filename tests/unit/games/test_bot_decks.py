"""Every built-in game gives its practice bots a legal deck (``Game.bot_deck``), the same for the same
generator: Arcana its starter deck, the arena none, the line a line of the welcome set."""

from __future__ import annotations

import random

from libs.games import registry
from libs.games.line.catalog import WELCOME_SET


def test_every_game_gives_its_bots_a_legal_deck_drawn_from_the_generator_only() -> None:
    for game in registry.games():
        deck = game.bot_deck(random.Random(4))
        assert game.deck_problems(list(deck)) == [], game.name
        assert deck == game.bot_deck(random.Random(4))
    assert registry.get("arcana").bot_deck(random.Random(1)) == registry.get("arcana").starter_deck
    line = registry.get("line")
    lines = {line.bot_deck(random.Random(n)) for n in range(6)}
    assert all(set(x) <= set(WELCOME_SET) and len(x) == 5 for x in lines)
