"""The practice bot's tie-breaks come from a server secret (issue 12, finding 8): a player knows the
match id and version, and must not be able to compute the bot's generator from them."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from services.match import domain
from services.match.usecases import bot

SECRET = "bot-test-secret-" + "s" * 40


class _System:
    """Runs the bot's chooser once on a fake match (the bot's turn then ends)."""

    def __init__(self, match_id: str, version: int) -> None:
        self.match = SimpleNamespace(match_id=match_id, version=version)
        self.runs = 0

    def run(self, match_id: str, choose: Any, *, bot: bool = True) -> Any:
        self.runs += 1
        return choose(self.match) if self.runs == 1 else None


def _draws(rng: random.Random) -> list[float]:
    return [rng.random() for _ in range(8)]


def _bot_generator(monkeypatch: pytest.MonkeyPatch, key: bytes, match_id: str, version: int) -> list[float]:
    """What the bot's generator draws at (match_id, version) under ``key``."""
    seen: list[random.Random] = []
    monkeypatch.setattr(domain, "bot_command", lambda m, rng: seen.append(rng))
    bot.BotPlayer(_System(match_id, version), key).bot_turn(match_id)  # type: ignore[arg-type]
    (rng,) = seen
    return _draws(rng)


def test_the_bot_generator_is_not_the_one_a_player_can_compute(monkeypatch: pytest.MonkeyPatch) -> None:
    key = bot.bot_key(SECRET)
    drawn = _bot_generator(monkeypatch, key, "m-1", 7)
    assert drawn != _draws(random.Random("m-1:7"))  # what the player knows
    assert drawn == _bot_generator(monkeypatch, key, "m-1", 7)  # a replayed task picks the same
    assert drawn != _bot_generator(monkeypatch, bot.bot_key(SECRET + "x"), "m-1", 7)  # the secret decides
    assert drawn != _bot_generator(monkeypatch, key, "m-1", 8)
    assert key != SECRET.encode()[:32] and len(key) == 32  # derived, never the secret itself
