"""The economy service on real PostgreSQL: accounts, credits once per source, packs, concurrency,
crafting, decks and the rebuild of every read model."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from psycopg import sql

from libs.bus.projector import Projector
from libs.games.arcana import STARTER_COLLECTION, STARTER_DECK
from services.economy import projections, store
from services.economy.domain import AlreadyCredited, AlreadyOpened, InsufficientCoins, WalletNotFound
from services.economy.domain.credits import PlayerCredit
from services.economy.domain.packs import commitment, open_pack
from services.economy.domain.values import CARDS_BY_RARITY
from services.economy.domain.wallet import Credit
from services.economy.service import EconomyService
from tests.integration.conftest import run_tool

PROJECTION = "services.economy.projections:projection"


def test_a_new_account_has_400_coins_the_starter_collection_and_an_active_legal_deck(svc, new_player) -> None:
    player = new_player()
    w = svc.read(store.wallet, player)
    assert (w["coins"], w["dust"], w["free_packs"], w["pity_counter"]) == (400, 0, 0, 0)
    assert svc.read(store.collection, player) == dict(sorted(STARTER_COLLECTION.items()))
    (deck,) = svc.read(store.decks, player)
    assert deck["active"] and deck["legal"] and deck["problems"] == [] and deck["cards"] == list(STARTER_DECK)
    with pytest.raises(AlreadyOpened):
        svc.open_account(player)
    assert svc.read(store.wallet, player)["coins"] == 400


def test_a_wallet_credited_before_its_opening_answers_not_found_until_it_opens(svc) -> None:
    """The read agrees with the commands: a reward heard before the registration (a log-in's) writes
    a wallet row, but the wallet is not there for the player until it is opened, with the reward."""
    player = str(uuid.uuid4())
    svc.credit(PlayerCredit(player, Credit(f"streak:{player}:d1", "streak", coins=20)))
    assert svc.read(store.wallet, player)["coins"] == 20  # the row the projection keeps
    with pytest.raises(WalletNotFound):
        svc.wallet(player)
    with pytest.raises(WalletNotFound):
        svc.line.enter_tournament(player, ["x"] * 10)
    svc.open_account(player)
    shown = svc.wallet(player)
    assert shown["coins"] == 420 and shown["next_pack"]["commitment"]


def test_a_source_is_paid_once(svc, new_player) -> None:
    player = new_player()
    paid = PlayerCredit(player, Credit("match:m1:" + player, "match", coins=60))
    svc.credit(paid)
    for _ in range(3):
        with pytest.raises(AlreadyCredited):
            svc.credit(paid)
    assert svc.read(store.wallet, player)["coins"] == 460


def test_fifty_concurrent_openings_on_100_coins_open_exactly_one_pack(svc, new_player, pool) -> None:
    player = new_player()
    for _ in range(3):  # 400 -> 100 coins
        svc.open_pack(player)
    assert svc.read(store.wallet, player)["coins"] == 100
    outcomes: list[Any] = []
    barrier = threading.Barrier(50)

    def open_one() -> None:
        barrier.wait()
        try:
            outcomes.append(svc.open_pack(player))
        except Exception as exc:
            outcomes.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    opened = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(opened) == 1
    assert all(isinstance(o, InsufficientCoins) for o in outcomes if isinstance(o, Exception))
    w = svc.read(store.wallet, player)
    assert w["coins"] == 0 and w["packs_opened"] == 4
    totals = svc.read(store.ledger_totals, player)
    assert totals["coins"] == w["coins"] and totals.get("dust", 0) == w["dust"]


def test_an_opening_reveals_the_committed_seed_and_can_be_rederived(svc, new_player) -> None:
    player = new_player()
    shown = svc.read(store.wallet, player)["next_pack"]["commitment"]
    opened = svc.open_pack(player, "my-lucky-seed")
    assert commitment(opened.server_seed) == shown == opened.commitment
    cards = open_pack(opened.server_seed, "my-lucky-seed", opened.pack_number, opened.pity_before)
    assert [c["card_id"] for c in opened.cards] == cards
    assert svc.read(store.wallet, player)["next_pack"]["commitment"] == opened.next_commitment


def _snapshot(svc: EconomyService, players: list[str]) -> dict[str, Any]:
    return {
        p: (
            svc.read(store.wallet, p),
            svc.read(store.ledger, p, 1000, None),
            svc.read(store.collection, p),
            svc.read(store.decks, p),
        )
        for p in players
    }


def test_dropping_and_rebuilding_the_read_models_gives_the_same_state(
    svc, new_player, pool, postgres_url
) -> None:
    players = [new_player() for _ in range(3)]
    svc.credit(PlayerCredit(players[0], Credit("grant:g1", "grant", coins=500, dust=2000)))
    for p in players:
        svc.open_pack(p, "x")
    svc.craft(players[0], CARDS_BY_RARITY["epic"][0])
    svc.disenchant(players[0], "wolf_pup")  # breaks the starter deck: published as illegal
    deck_id = svc.save_deck(players[1], None, "second", ["wolf_pup"] * 2)["deck_id"]
    svc.delete_deck(players[1], deck_id)
    before = _snapshot(svc, players)
    assert before[players[0]][3][0]["legal"] is False
    with pool.connection() as conn:
        for table in projections.TABLES:
            conn.execute(sql.SQL("TRUNCATE {}").format(sql.Identifier(svc.schema, table)))
    assert svc.read(store.wallet, players[0]) is None
    done = run_tool(postgres_url, "libs.bus.rebuild", "--schema", svc.schema, "--projection", PROJECTION)
    assert done.returncode == 0, done.stderr
    assert _snapshot(svc, players) == before
    Projector(svc.events, projections.projection(svc.schema)).rebuild()  # again, over a full read model
    assert _snapshot(svc, players) == before


def test_a_rolled_back_transaction_leaves_no_trace_in_the_state_cache(svc, new_player, pool) -> None:
    """A consumer transaction pays twice to one wallet (the second read sees the first, uncommitted,
    append and is cached), then rolls back: later commands still decide on the stored events."""
    player = new_player()

    class Abort(Exception):
        pass

    with pytest.raises(Abort), pool.connection() as conn, conn.transaction():
        svc.credit(PlayerCredit(player, Credit("reward:a", "quest", coins=20)), conn=conn)
        svc.credit(PlayerCredit(player, Credit("reward:b", "quest", coins=30)), conn=conn)
        raise Abort()
    svc.credit(PlayerCredit(player, Credit("reward:c", "quest", coins=45)))
    fresh = EconomyService(pool, svc.schema)  # no cache: folds the stream from the start
    assert svc.wallet(player)["coins"] == 445
    with pool.connection() as conn:
        assert fresh._wallet(conn, player) == svc._wallet(conn, player)
