"""The operator grant ceiling as configured: ``ARCANA_GRANT_MAX_COINS``, ``ARCANA_GRANT_MAX_DUST``,
``ARCANA_GRANT_MAX_PACKS`` (read once per process: the API document states it, the service
enforces it)."""

from __future__ import annotations

from libs import config
from services.economy.domain.bounds import Ceiling

DEFAULT_GRANT_CEILING = Ceiling(
    config.GRANT_MAX_COINS.default, config.GRANT_MAX_DUST.default, config.GRANT_MAX_PACKS.default
)


def grant_ceiling() -> Ceiling:
    return Ceiling(
        coins=config.GRANT_MAX_COINS.get(),
        dust=config.GRANT_MAX_DUST.get(),
        free_packs=config.GRANT_MAX_PACKS.get(),
    )


GRANT_CEILING = grant_ceiling()
