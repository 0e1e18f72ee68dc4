"""Accounts' stored events of older shapes, read as the current ones (never rewritten on upgrade).

Version 1 of ``PlayerRegistered`` and ``PlayerLoggedIn`` carried the log-in name: they read without
it (``libs.contracts.accounts.without_username``), so ``arcana export`` and ``arcana rebuild`` never
show one. Consumers of the topic read through the contracts' own ``UPCASTERS``. The stored copies of
an erased player's are emptied of it at the deletion (docs/security.md, account deletion).
"""

from __future__ import annotations

from libs.contracts.accounts import PlayerLoggedIn, PlayerRegistered, without_username
from libs.eventstore import Upcasters

UPCASTERS = Upcasters()
UPCASTERS.register(PlayerRegistered.TYPE, 1)(without_username)
UPCASTERS.register(PlayerLoggedIn.TYPE, 1)(without_username)
