"""The practice bot: it plays its moves (the game's bot: ``Game.bot``) as system commands while the
match waits for it.

Its tie-breaks are drawn from a generator seeded by an HMAC of the match id and version under a
server key (``bot_key``: derived from the token secret), so a replayed task picks the same move,
while a player, who knows the match id and version, cannot compute the bot's choices ahead."""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets

from services.match import domain
from services.match.usecases.system import SystemCommands

MAX_BOT_MOVES = 100
_BOT_CONTEXT = b"arcana match bot tie-break v1"


def bot_key(token_secret: str) -> bytes:
    """The bot's key: derived from the server's token secret (never the secret itself)."""
    return hmac.new(token_secret.encode(), _BOT_CONTEXT, hashlib.sha256).digest()


def bot_rng(key: bytes, match_id: str, version: int) -> random.Random:
    """The bot's tie-break generator at ``version`` of the match: the same for the same key."""
    digest = hmac.new(key, f"{match_id}:{version}".encode(), hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big"))


class BotPlayer:
    def __init__(self, system: SystemCommands, key: bytes | None = None) -> None:
        """``key``: the server key of ``bot_key`` (without one: a random key of this process, so
        another process may break a tie of a replayed task differently)."""
        self.system = system
        self.key = key if key is not None else secrets.token_bytes(32)

    def bot_turn(self, match_id: str) -> int:
        """Play the bot's moves while the match waits for it; returns how many."""
        moves = 0
        for _ in range(MAX_BOT_MOVES):
            outcome = self.system.run(
                match_id,
                lambda m: domain.bot_command(m, bot_rng(self.key, m.match_id, m.version)),
                bot=False,
            )
            if outcome is None:
                break
            moves += 1
        return moves
