"""A wallet is a long stream: a new process starts from its snapshot and the tail after it, and the
wallet it gets is the one folded from every event (real PostgreSQL)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from psycopg_pool import ConnectionPool

from services.economy import service as economy_service
from services.economy.domain.credits import PlayerCredit
from services.economy.domain.wallet import Credit
from services.economy.service import EconomyService, wallet_stream


def test_a_fresh_process_folds_a_wallet_from_its_snapshot_and_tail_to_the_full_fold(
    pool: ConnectionPool, svc: EconomyService, new_player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    policy = dataclasses.replace(economy_service.WALLET_SNAPSHOTS, every=3)
    monkeypatch.setattr(economy_service, "WALLET_SNAPSHOTS", policy)
    player = new_player()
    writer = EconomyService(pool, svc.schema)  # built after the patch: its wallets snapshot every 3
    for i in range(7):
        writer.credit(PlayerCredit(player, Credit(f"grant:g{i}", "grant", coins=10 + i, dust=i)))
        writer.cache.drop(wallet_stream(player))  # as a new process would: no folded state in memory
    version, kept = svc.events.load_snapshot(wallet_stream(player)) or (0, {})
    assert version >= 3 and kept["shape"] == policy.version
    fresh = EconomyService(pool, svc.schema)
    full = dataclasses.replace(fresh._wallets, snapshots=None, cache=None)
    with pool.connection() as conn:
        from_snapshot = fresh.repository.get(conn, wallet_stream(player), fresh._wallets)
        from_events = fresh.repository.get(conn, wallet_stream(player), full)
    assert from_snapshot == from_events and from_events.version == len(svc.events.read(wallet_stream(player)))
    assert from_events.state is not None and from_events.state.coins == 400 + sum(10 + i for i in range(7))
    assert svc.wallet(player)["coins"] == from_events.state.coins
