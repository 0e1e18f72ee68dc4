"""The operator grant ceiling as configured: ``ARCANA_GRANT_MAX_COINS``, ``ARCANA_GRANT_MAX_DUST``,
``ARCANA_GRANT_MAX_PACKS`` (read once per process: the API document states it, the service
enforces it)."""

from __future__ import annotations

from libs.config import env_int
from services.economy.domain.bounds import Ceiling

DEFAULT_GRANT_CEILING = Ceiling(coins=10_000, dust=10_000, free_packs=20)


def grant_ceiling() -> Ceiling:
    d = DEFAULT_GRANT_CEILING
    return Ceiling(
        coins=env_int("ARCANA_GRANT_MAX_COINS", d.coins),
        dust=env_int("ARCANA_GRANT_MAX_DUST", d.dust),
        free_packs=env_int("ARCANA_GRANT_MAX_PACKS", d.free_packs),
    )


GRANT_CEILING = grant_ceiling()
