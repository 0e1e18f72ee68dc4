"""Deterministic random streams: one independent stream per purpose, derived from the match seed.

A stream is `random.Random` seeded with the SHA-256 of ``"<seed>:<purpose>"``, so adding a new purpose never
shifts the draws of another, and the result is the same on every platform and Python version.
"""

from __future__ import annotations

import hashlib
import random


def stream(seed: int, purpose: str) -> random.Random:
    """The random stream of `purpose` for the match `seed`."""
    digest = hashlib.sha256(f"{seed}:{purpose}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def pick(seed: int, purpose: str, n: int) -> int:
    """One number in 0..n-1 for `purpose`, straight from the SHA-256 of ``"<seed>:<purpose>"`` (a single
    draw needs no `random.Random`, whose seeding costs more than the draw)."""
    digest = hashlib.sha256(f"{seed}:{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % n
