"""Provably fair pack opening: one pure function from the seeds to the five cards.

The algorithm (anyone can re-run it with the revealed seeds):

1. ``draw(purpose, slot, n)``: HMAC-SHA256 keyed with the server seed (the UTF-8 bytes of the revealed
   string) over the message ``"<client_seed>:<pack_number>:<slot>:<purpose>"``; the first 8 bytes of
   the digest, read as a big-endian unsigned integer, modulo ``n``. Every draw has its own message, so
   the draws are a deterministic stream of independent uniform integers.
2. Rarity of slots 0..4: ``r = draw("rarity", slot, 100)``; common if r < 50, uncommon < 78, rare < 92,
   epic < 98, legendary otherwise (the odds 50/28/14/6/2 %).
3. Guarantee: when no slot is rare or better, slot 4 is drawn again among rare/epic/legendary with
   the same relative odds: ``g = draw("guarantee", 4, 22)``; rare if g < 14, epic < 20, else legendary.
4. Pity: ``pity_counter`` is the number of packs opened since the last legendary. When it is 19 or
   more (this is the 20th pack) and no slot is legendary, slot 4 becomes legendary.
5. Card of each slot: the catalog's card ids of its rarity in ascending order, indexed by
   ``draw("card", slot, count of those ids)``.

The commitment shown before an opening is ``sha256(server_seed)`` (hex of the UTF-8 bytes); the
opening reveals the seed, so anyone can check both the commitment and the cards.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence

from .values import CARDS_BY_RARITY, ODDS_PERCENT, PACK_SIZE, PITY_PACKS, RARE_OR_BETTER, RARITIES

GUARANTEE_SLOT = PACK_SIZE - 1


def new_server_seed() -> str:
    """A fresh secret server seed: 32 random bytes as 64 hex characters."""
    return secrets.token_hex(32)


def commitment(server_seed: str) -> str:
    """What the player sees before the opening: SHA-256 of the seed, hex."""
    return hashlib.sha256(server_seed.encode()).hexdigest()


def draw(server_seed: str, client_seed: str, pack_number: int, slot: int, purpose: str, n: int) -> int:
    """A uniform integer in ``[0, n)`` for one purpose of one slot of one pack."""
    message = f"{client_seed}:{pack_number}:{slot}:{purpose}".encode()
    digest = hmac.new(server_seed.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") % n


def _pick(roll: int, weights: Mapping[str, int], order: Sequence[str]) -> str:
    """The entry of ``order`` whose cumulative weight band holds ``roll``."""
    bound = 0
    for rarity in order:
        bound += weights[rarity]
        if roll < bound:
            return rarity
    raise ValueError(f"roll {roll} beyond the weights {dict(weights)}")


def pack_rarities(server_seed: str, client_seed: str, pack_number: int, pity_counter: int) -> list[str]:
    """The rarities of the five slots (steps 2 to 4 of the algorithm)."""
    rarities = [
        _pick(draw(server_seed, client_seed, pack_number, slot, "rarity", 100), ODDS_PERCENT, RARITIES)
        for slot in range(PACK_SIZE)
    ]
    if not any(r in RARE_OR_BETTER for r in rarities):
        total = sum(ODDS_PERCENT[r] for r in RARE_OR_BETTER)
        roll = draw(server_seed, client_seed, pack_number, GUARANTEE_SLOT, "guarantee", total)
        rarities[GUARANTEE_SLOT] = _pick(roll, ODDS_PERCENT, RARE_OR_BETTER)
    if pity_counter >= PITY_PACKS - 1 and "legendary" not in rarities:
        rarities[GUARANTEE_SLOT] = "legendary"
    return rarities


def open_pack(server_seed: str, client_seed: str, pack_number: int, pity_counter: int) -> list[str]:
    """The five card ids of pack ``pack_number`` (1-based), in slot order. Pure and deterministic."""
    cards = []
    for slot, rarity in enumerate(pack_rarities(server_seed, client_seed, pack_number, pity_counter)):
        ids = CARDS_BY_RARITY[rarity]
        cards.append(ids[draw(server_seed, client_seed, pack_number, slot, "card", len(ids))])
    return cards
