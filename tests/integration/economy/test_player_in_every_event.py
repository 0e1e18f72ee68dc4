"""Every economy event names its player in its data (``player_id``) and every credit says when it was
earned (``earned_at``) as well as when it was recorded; events stored in the first shape, which named
the player only in the stream, read the same way everywhere (the service, ``arcana export``,
``arcana rebuild``), while what is stored stays as it was."""

from __future__ import annotations

import json
import os
import uuid
from datetime import UTC, datetime
from typing import Any

from psycopg_pool import ConnectionPool

from libs.contracts import MatchEnded, PlayerLoggedIn
from libs.eventstore import EventStore, Expect, NewEvent, RecordedEvent
from libs.games.arcana import CATALOG as CARDS
from libs.games.sdk.constants import Rarity
from services.economy import consumers
from services.economy import store as economy_store
from services.economy.domain import wallet
from services.economy.domain.credits import PlayerCredit
from services.economy.domain.values import copy_limit
from services.economy.domain.wallet import Credit
from services.economy.service import EconomyService, decks_stream, wallet_stream
from services.economy.upcasting import STORED
from tests.unit.test_arcana_command import arcana

CARD = "marsh_lynx"  # uncommon: 80 dust
LOGGED_IN_AT = datetime(2026, 11, 30, 8, 15, tzinfo=UTC)


def _played(svc: EconomyService) -> str:
    """A player with a wallet, a grant, a craft, a disenchant, a pack and a saved deck."""
    player = str(uuid.uuid4())
    svc.open_account(player)
    svc.credit(PlayerCredit(player, Credit(f"grant:{player}", "grant", coins=100, dust=100)))
    svc.craft(player, CARD)
    svc.disenchant(player, CARD)
    svc.open_pack(player)
    deck = svc.save_deck(player, None, "second", [])
    svc.delete_deck(player, deck["deck_id"])
    return player


def _uncommon_below_the_limit(svc: EconomyService, player: str) -> str:
    """An uncommon card (80 dust) ``player`` may craft: the pack may have brought two of ``CARD``."""
    held = wallet.fold(STORED.event_from(r.type, r.data) for r in svc.events.read(wallet_stream(player)))
    assert held is not None
    uncommons = [c.id for c in CARDS.values() if c.rarity == Rarity.UNCOMMON]
    return next(c for c in uncommons if held.owned(c) < copy_limit(Rarity.UNCOMMON))


def _events(store: EventStore, player: str) -> list[RecordedEvent]:
    return store.read(wallet_stream(player)) + store.read(decks_stream(player))


def test_every_event_decided_names_its_player(svc: EconomyService) -> None:
    player = _played(svc)
    found = _events(svc.events, player)
    assert {e.type for e in found} >= {
        *("WalletOpened", "WalletCredited", "CardCrafted", "CardDisenchanted", "PackOpened"),
        *("DeckSaved", "DeckDeleted", "DeckActivated", "ActiveDeckChanged"),
    }
    for event in found:
        assert event.data["player_id"] == player, event
    [grant] = [e for e in found if e.data.get("reason") == "grant"]
    assert grant.data["earned_at"] == grant.occurred_at.isoformat()  # earned as it was recorded


def test_a_credit_carries_when_it_was_earned_besides_when_it_was_recorded(
    svc: EconomyService, pool: ConnectionPool, source: EventStore
) -> None:
    player, other = str(uuid.uuid4()), str(uuid.uuid4())
    svc.open_account(player)
    login = source.append(
        "session-x",
        Expect.ANY,
        [NewEvent(PlayerLoggedIn.TYPE, {"player_id": player, "username": "ada"}, occurred_at=LOGGED_IN_AT)],
    )[0]
    ended_at = datetime(2026, 11, 30, 9, 40, tzinfo=UTC)
    ended = {
        **{"match_id": "m1", "players": [player, other], "winner": player, "loser": other, "draw": False},
        **{"turns": 7, "reason": "hero_killed", "round": 4, "bot": None, "stats": {}, "mode": "casual"},
    }
    match = source.append("match-m1", Expect.ANY, [NewEvent(MatchEnded.TYPE, ended, occurred_at=ended_at)])[0]
    with pool.connection() as conn, conn.transaction():
        consumers.logged_in(svc, login, conn)
        consumers.match_ended(svc, match, conn)
    credits = {
        e.data["reason"]: e for e in svc.events.read(wallet_stream(player)) if e.type == "WalletCredited"
    }
    assert credits["daily_login"].data["earned_at"] == LOGGED_IN_AT.isoformat()
    assert credits["match"].data["earned_at"] == ended_at.isoformat()
    for credit in credits.values():
        assert credit.occurred_at > ended_at  # recorded now, after the facts that earned them


def _as_first_shape(events: list[RecordedEvent], was: str, now: str) -> list[tuple[str, NewEvent]]:
    """``events`` as the first shape stored them, for the player ``now``: no ``player_id`` in the
    wallet and deck events (nor ``earned_at`` in credits), schema version 1."""
    kept = []
    for e in events:
        data = json.loads(json.dumps(e.data).replace(was, now))
        if e.type not in ("WalletOpened", "ActiveDeckChanged"):
            data.pop("player_id")
            data.pop("earned_at", None)
        kept.append(
            (e.stream.replace(was, now), NewEvent(e.type, data, schema_version=1, occurred_at=e.occurred_at))
        )
    return kept


def test_events_stored_in_the_first_shape_read_with_their_player_everywhere(
    svc: EconomyService, pool: ConnectionPool, postgres_url: str
) -> None:
    old = str(uuid.uuid4())
    template = _played(svc)
    for stream, event in _as_first_shape(_events(svc.events, template), template, old):
        svc.events.append(stream, Expect.ANY, [event])

    as_stored = _events(EventStore(pool, svc.schema), old)
    assert all(
        e.schema_version == 1 for e in as_stored if e.type not in ("WalletOpened", "ActiveDeckChanged")
    )
    assert not any("player_id" in e.data for e in as_stored if e.type.startswith(("Deck", "Card", "Pack")))
    for event in _events(svc.events, old):
        assert event.data["player_id"] == old, event
        if event.type == "WalletCredited":
            assert event.data["earned_at"] == event.occurred_at.isoformat()
    card = _uncommon_below_the_limit(svc, template)  # both hold the same cards
    for player in (template, old):  # the service folds the old shape as it folds the new one
        svc.credit(PlayerCredit(player, Credit(f"grant:{player}-2", "grant", dust=80)))
        svc.craft(player, card)

    env = {**os.environ, "DATABASE_URL": postgres_url, "ARCANA_ECONOMY_SCHEMA": svc.schema}
    done = arcana("export", "--service", "economy", "--quiet", env=env)
    assert done.returncode == 0, done.stderr
    exported = [json.loads(line) for line in done.stdout.splitlines()]
    mine = [e for e in exported if e["stream"].endswith(old)]
    assert mine and all(e["data"]["player_id"] == old for e in mine)

    rebuilt = arcana("rebuild", "economy", env=env)
    assert rebuilt.returncode == 0, rebuilt.stderr
    expected = json.loads(json.dumps(_read_models(svc, template), default=str).replace(template, old))
    assert json.loads(json.dumps(_read_models(svc, old), default=str)) == expected
    places = {(e.stream, e.version) for e in as_stored}
    still = [e for e in _events(EventStore(pool, svc.schema), old) if (e.stream, e.version) in places]
    assert still == as_stored  # never rewritten


def _read_models(svc: EconomyService, player: str) -> list[Any]:
    return [
        svc.read(q, player) for q in (economy_store.wallet, economy_store.collection, economy_store.decks)
    ]
