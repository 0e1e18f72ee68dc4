"""The economy's read models (wallets, ledger, collection, decks, active_decks, line_collection,
line_decks): one projection of the wallet, decks and line streams.

The service applies it in the same transaction as every append, so reads never lag; it is still a
pure projection, rebuilt from zero with
``python -m libs.bus.rebuild --schema economy --projection services.economy.projections:projection``.
Each stream's last applied version (``projected_streams``) makes applying an event twice a no-op.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import psycopg
from psycopg import sql

from libs.bus import Projection
from libs.eventstore import RecordedEvent
from libs.games.registry import DEFAULT_GAME
from services.economy.domain.games import WELCOME_GAME

Conn = psycopg.Connection[Any]
NAME = "economy"
READ_MODELS = ("wallets", "ledger", "collection", "decks", "active_decks", "line_collection", "line_decks")
TABLES = ("projected_streams", *READ_MODELS)
WALLET_PREFIX, DECKS_PREFIX = "wallet-", "decks-"


@functools.lru_cache(maxsize=64)
def _q(schema: str, text: str) -> sql.Composed:
    """``text`` with ``{t}`` placeholders naming tables of ``schema`` (e.g. ``{wallets}``)."""
    return sql.SQL(text).format(**{t: sql.Identifier(schema, t) for t in TABLES})


def player_of(stream: str) -> str:
    return stream.split("-", 1)[1]


def _claim(conn: Conn, schema: str, event: RecordedEvent) -> bool:
    """Record the event's version as applied; False when it (or a later one) was already."""
    row = conn.execute(
        _q(
            schema,
            "INSERT INTO {projected_streams} AS s (stream, version) VALUES (%s, %s) "
            "ON CONFLICT (stream) DO UPDATE SET version = excluded.version "
            "WHERE s.version < excluded.version RETURNING 1",
        ),
        (event.stream, event.version),
    ).fetchone()
    return row is not None


def _ledger(conn: Conn, schema: str, e: RecordedEvent, rows: list[tuple[str, int, int, str, str]]) -> None:
    """Ledger rows ``(currency, amount, balance_after, reason, source)``, zero amounts skipped, in one
    statement."""
    moved = [r for r in rows if r[1]]
    if not moved:
        return
    query = _q(
        schema,
        "INSERT INTO {ledger} (position, event_id, currency, player_id, amount, balance_after, reason, "
        "source, occurred_at) SELECT %s, %s, r.currency, %s, r.amount, r.balance_after, r.reason, "
        "r.source, %s FROM unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::text[]) "
        "AS r(currency, amount, balance_after, reason, source) ON CONFLICT DO NOTHING",
    )
    columns = [list(c) for c in zip(*moved, strict=True)]
    conn.execute(query, (e.position, e.event_id, player_of(e.stream), e.occurred_at, *columns))


def _balances(conn: Conn, schema: str, e: RecordedEvent, **changes: Any) -> None:
    sets = sql.SQL(", ").join(sql.SQL("{} = %({})s").format(sql.Identifier(k), sql.SQL(k)) for k in changes)
    query = sql.SQL("UPDATE {} SET {}, updated_at = %(at)s WHERE player_id = %(player)s").format(
        sql.Identifier(schema, "wallets"), sets
    )
    conn.execute(query, {**changes, "at": e.occurred_at, "player": player_of(e.stream)})


def _cards(conn: Conn, schema: str, player: str, changes: dict[str, int]) -> None:
    """Add copies (one statement for every card) or remove them."""
    added = {card: n for card, n in changes.items() if n > 0}
    if added:
        conn.execute(
            _q(
                schema,
                "INSERT INTO {collection} AS c (player_id, card_id, copies) SELECT %s, a.card_id, a.copies "
                "FROM unnest(%s::text[], %s::int[]) AS a(card_id, copies) "
                "ON CONFLICT (player_id, card_id) DO UPDATE SET copies = c.copies + excluded.copies",
            ),
            (player, list(added), list(added.values())),
        )
    for card_id, delta in changes.items():
        if delta < 0:
            # The last copies go as a DELETE: an UPDATE to 0 copies would break CHECK (copies > 0).
            conn.execute(
                _q(schema, "DELETE FROM {collection} WHERE player_id = %s AND card_id = %s AND copies <= %s"),
                (player, card_id, -delta),
            )
            conn.execute(
                _q(
                    schema,
                    "UPDATE {collection} SET copies = copies + %s WHERE player_id = %s AND card_id = %s",
                ),
                (delta, player, card_id),
            )


def _ensure_wallet(conn: Conn, schema: str, e: RecordedEvent) -> None:
    """The wallet's row, empty, if it has none yet (a credit may come before the opening)."""
    conn.execute(
        _q(
            schema,
            "INSERT INTO {wallets} (player_id, coins, dust, free_packs, pity, packs_opened, commitment, "
            "updated_at) VALUES (%s, 0, 0, 0, 0, 0, '', %s) ON CONFLICT (player_id) DO NOTHING",
        ),
        (player_of(e.stream), e.occurred_at),
    )


def _wallet_opened(conn: Conn, schema: str, e: RecordedEvent) -> None:
    _ensure_wallet(conn, schema, e)
    _balances(conn, schema, e, commitment=e.data["commitment"])
    _cards(conn, schema, player_of(e.stream), dict(e.data["cards"]))


def _credited(conn: Conn, schema: str, e: RecordedEvent) -> None:
    d = e.data
    _ensure_wallet(conn, schema, e)
    _balances(conn, schema, e, coins=d["coins_after"], dust=d["dust_after"], free_packs=d["free_packs_after"])
    reason, source = d["reason"], d["source"]
    _ledger(
        conn,
        schema,
        e,
        [
            ("coins", d["coins"], d["coins_after"], reason, source),
            ("dust", d["dust"], d["dust_after"], reason, source),
            ("free_packs", d["free_packs"], d["free_packs_after"], reason, source),
        ],
    )


def _debited(conn: Conn, schema: str, e: RecordedEvent) -> None:
    """An operator's claw-back: negative ledger rows."""
    d = e.data
    _balances(conn, schema, e, coins=d["coins_after"], dust=d["dust_after"], free_packs=d["free_packs_after"])
    reason, source = d["reason"], d["source"]
    _ledger(
        conn,
        schema,
        e,
        [
            ("coins", -d["coins"], d["coins_after"], reason, source),
            ("dust", -d["dust"], d["dust_after"], reason, source),
            ("free_packs", -d["free_packs"], d["free_packs_after"], reason, source),
        ],
    )


def _shards(conn: Conn, schema: str, e: RecordedEvent) -> None:
    d = e.data
    _ensure_wallet(conn, schema, e)
    _balances(conn, schema, e, shards=d["shards_after"])
    _ledger(conn, schema, e, [("shards", d["shards"], d["shards_after"], d["reason"], d["source"])])


def _pack(conn: Conn, schema: str, e: RecordedEvent) -> None:
    d = e.data
    _balances(
        conn,
        schema,
        e,
        coins=d["coins_after"],
        dust=d["dust_after"],
        free_packs=d["free_packs_after"],
        pity=d["pity_after"],
        packs_opened=d["pack_number"],
        commitment=d["next_commitment"],
    )
    source, dust = f"pack:{d['pack_number']}", sum(c["dust"] for c in d["cards"])
    free = 1 if d["paid_with"] == "free_pack" else 0
    _ledger(
        conn,
        schema,
        e,
        [
            ("coins", -d["coins_spent"], d["coins_after"], "pack", source),
            ("free_packs", -free, d["free_packs_after"], "pack", source),
            ("dust", dust, d["dust_after"], "pack_duplicate", source),
        ],
    )
    pulled: dict[str, int] = {}
    for c in d["cards"]:
        if not c["dust"]:
            pulled[c["card_id"]] = pulled.get(c["card_id"], 0) + 1
    _cards(conn, schema, player_of(e.stream), pulled)


def _crafted(conn: Conn, schema: str, e: RecordedEvent) -> None:
    d = e.data
    _balances(conn, schema, e, dust=d["dust_after"])
    _ledger(conn, schema, e, [("dust", -d["dust_spent"], d["dust_after"], "craft", f"craft:{d['card_id']}")])
    _cards(conn, schema, player_of(e.stream), {d["card_id"]: 1})


def _disenchanted(conn: Conn, schema: str, e: RecordedEvent) -> None:
    d = e.data
    _balances(conn, schema, e, dust=d["dust_after"])
    source = f"disenchant:{d['card_id']}"
    _ledger(conn, schema, e, [("dust", d["dust_gained"], d["dust_after"], "disenchant", source)])
    _cards(conn, schema, player_of(e.stream), {d["card_id"]: -1})


def _saved_into(table: str) -> Callable[[Conn, str, RecordedEvent], None]:
    """The handler of a deck (``decks``) or line (``line_decks``) saved."""

    def saved(conn: Conn, schema: str, e: RecordedEvent) -> None:
        d = e.data
        conn.execute(
            _q(
                schema,
                f"INSERT INTO {{{table}}} AS k (player_id, deck_id, name, cards, created_at, updated_at) "
                "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (player_id, deck_id) DO UPDATE SET "
                "name = excluded.name, cards = excluded.cards, updated_at = excluded.updated_at",
            ),
            (
                player_of(e.stream),
                d["deck_id"],
                d["name"],
                json.dumps(d["cards"]),
                e.occurred_at,
                e.occurred_at,
            ),
        )

    return saved


def _deleted_from(table: str) -> Callable[[Conn, str, RecordedEvent], None]:
    """The handler of a deck (``decks``) or line (``line_decks``) deleted."""

    def deleted(conn: Conn, schema: str, e: RecordedEvent) -> None:
        conn.execute(
            _q(schema, f"DELETE FROM {{{table}}} WHERE player_id = %s AND deck_id = %s"),
            (player_of(e.stream), e.data["deck_id"]),
        )

    return deleted


def _deck_activated(conn: Conn, schema: str, e: RecordedEvent, table: str = "decks") -> None:
    conn.execute(
        _q(schema, f"UPDATE {{{table}}} SET active = (deck_id = %s) WHERE player_id = %s"),
        (e.data["deck_id"], player_of(e.stream)),
    )


def _active_changed(conn: Conn, schema: str, e: RecordedEvent) -> None:
    d = e.data
    if (
        d.get("game") or DEFAULT_GAME
    ) == WELCOME_GAME:  # the line's own active deck (one per player and game)
        _deck_activated(conn, schema, e, "line_decks")
        return
    conn.execute(
        _q(
            schema,
            "INSERT INTO {active_decks} (player_id, deck_id, legal, problems) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (player_id) DO UPDATE SET deck_id = excluded.deck_id, legal = excluded.legal, "
            "problems = excluded.problems",
        ),
        (player_of(e.stream), d["deck_id"], d["legal"], json.dumps(d["problems"])),
    )


def _welcome(conn: Conn, schema: str, e: RecordedEvent) -> None:
    conn.execute(
        _q(
            schema,
            "INSERT INTO {line_collection} AS c (player_id, card_id, copies) SELECT %s, card_id, 1 "
            "FROM unnest(%s::text[]) AS card_id "
            "ON CONFLICT (player_id, card_id) DO UPDATE SET copies = c.copies + 1",
        ),
        (player_of(e.stream), e.data["cards"]),
    )


_HANDLERS: dict[str, Callable[[Conn, str, RecordedEvent], None]] = {
    "WalletOpened": _wallet_opened,
    "WalletCredited": _credited,
    "WalletDebited": _debited,
    "PackOpened": _pack,
    "CardCrafted": _crafted,
    "CardDisenchanted": _disenchanted,
    "DeckSaved": _saved_into("decks"),
    "DeckDeleted": _deleted_from("decks"),
    "DeckActivated": _deck_activated,
    "ActiveDeckChanged": _active_changed,
    "ShardsCredited": _shards,
    "LineWelcomeClaimed": _welcome,
    "LineDeckSaved": _saved_into("line_decks"),
    "LineDeckDeleted": _deleted_from("line_decks"),
}


def apply(event: RecordedEvent, conn: Conn, schema: str) -> None:
    """Apply one stored event to the read models (a no-op when already applied)."""
    handler = _HANDLERS.get(event.type)
    if handler is not None and _claim(conn, schema, event):
        handler(conn, schema, event)


def projection(schema: str) -> Projection:
    """The read models of ``schema`` as a ``libs.bus`` projection (for rebuild)."""
    return Projection(NAME, TABLES, lambda event, conn: apply(event, conn, schema))
