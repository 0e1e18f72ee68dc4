"""SQL of the economy service: the secret pack seeds (write model) and reads of the read models
(tables in ``migrations/001_economy.sql``). Every function takes a connection and the schema."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from services.economy.domain.sources import RewardSource
from services.economy.projections import READ_MODELS

Conn = psycopg.Connection[Any]
_TABLES = ("pack_seeds", "reward_sources", *READ_MODELS)


@functools.lru_cache(maxsize=64)
def _q(schema: str, text: str) -> sql.Composed:
    return sql.SQL(text).format(**{t: sql.Identifier(schema, t) for t in _TABLES})


# -- pack seeds (secret) -------------------------------------------------------------------------


def save_seed(conn: Conn, schema: str, player_id: str, seed: str) -> None:
    """Set the seed of the player's next pack (insert or replace)."""
    conn.execute(
        _q(
            schema,
            "INSERT INTO {pack_seeds} (player_id, seed) VALUES (%s, %s) ON CONFLICT (player_id) "
            "DO UPDATE SET seed = excluded.seed, updated_at = now()",
        ),
        (player_id, seed),
    )


def lock_seed(conn: Conn, schema: str, player_id: str) -> str | None:
    """The seed of the player's next pack, its row locked until the transaction ends (one opening
    at a time per player), or None when the player has no wallet."""
    row = conn.execute(
        _q(schema, "SELECT seed FROM {pack_seeds} WHERE player_id = %s FOR UPDATE"), (player_id,)
    ).fetchone()
    return str(row[0]) if row else None


# -- reads -----------------------------------------------------------------------------------------


def wallet(conn: Conn, schema: str, player_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        _q(
            schema,
            "SELECT coins, dust, free_packs, pity, packs_opened, commitment, shards FROM {wallets} "
            "WHERE player_id = %s",
        ),
        (player_id,),
    ).fetchone()
    if row is None:
        return None
    coins, dust, free_packs, pity, opened, commitment, shards = row
    return {
        "coins": coins,
        "shards": shards,
        "dust": dust,
        "free_packs": free_packs,
        "pity_counter": pity,
        "packs_opened": opened,
        "next_pack": {"pack_number": opened + 1, "commitment": commitment or None},
    }


def ledger(
    conn: Conn, schema: str, player_id: str, limit: int, before: int | None
) -> tuple[list[dict[str, Any]], int | None]:
    """The ledger entries of the player's ``limit`` newest events with ``position < before`` (when
    given), newest first, and the ``before`` of the next page (None: no more). An event moving
    several currencies has one entry each, never split between pages."""
    rows = conn.execute(
        _q(
            schema,
            "WITH page AS (SELECT DISTINCT position FROM {ledger} WHERE player_id = %(p)s "
            "AND position < %(before)s ORDER BY position DESC LIMIT %(limit)s) "
            "SELECT position, currency, amount, balance_after, reason, source, occurred_at FROM {ledger} "
            "WHERE player_id = %(p)s AND position IN (SELECT position FROM page) "
            "ORDER BY position DESC, currency",
        ),
        {"p": player_id, "before": before if before is not None else 2**62, "limit": limit + 1},
    ).fetchall()
    keys = ("position", "currency", "amount", "balance_after", "reason", "source", "occurred_at")
    entries = [dict(zip(keys, r, strict=True)) for r in rows]
    positions = sorted({e["position"] for e in entries}, reverse=True)
    if len(positions) <= limit:
        return entries, None
    return [e for e in entries if e["position"] > positions[limit]], positions[limit - 1]


def coin_matches_since(
    conn: Conn, schema: str, player_id: str, since: datetime, besides: str | None = None
) -> int:
    """How many matches paid the player from ``since`` on: coins or the line's shards (the daily
    limit of paying matches is shared by every game), the credit of source ``besides`` left out."""
    row = conn.execute(
        _q(
            schema,
            "SELECT count(*) FROM {ledger} WHERE player_id = %s AND reason = 'match' "
            "AND currency IN ('coins', 'shards') "
            "AND amount > 0 AND occurred_at >= %s AND source IS DISTINCT FROM %s",
        ),
        (player_id, since, besides),
    ).fetchone()
    return int(row[0]) if row else 0


def ledger_totals(conn: Conn, schema: str, player_id: str) -> dict[str, int]:
    rows = conn.execute(
        _q(schema, "SELECT currency, sum(amount) FROM {ledger} WHERE player_id = %s GROUP BY currency"),
        (player_id,),
    ).fetchall()
    return {str(c): int(s) for c, s in rows}


def collection(conn: Conn, schema: str, player_id: str, table: str = "collection") -> dict[str, int]:
    """The player's copies per card: Arcana's ``collection``, or the line's ``line_collection``."""
    rows = conn.execute(
        _q(schema, f"SELECT card_id, copies FROM {{{table}}} WHERE player_id = %s ORDER BY card_id"),
        (player_id,),
    ).fetchall()
    return {str(card): int(n) for card, n in rows}


_DECK_COLUMNS = (
    "SELECT d.deck_id, d.name, d.cards, d.active, d.created_at, d.updated_at, a.legal, a.problems "
    "FROM {decks} d LEFT JOIN {active_decks} a ON a.player_id = d.player_id AND a.deck_id = d.deck_id "
)


def _deck(row: tuple[Any, ...]) -> dict[str, Any]:
    deck_id, name, cards, active, created, updated, legal, problems = row
    out = {"deck_id": deck_id, "name": name, "cards": cards, "active": active}
    out |= {"created_at": created, "updated_at": updated}
    if active and legal is not None:
        out |= {"legal": legal, "problems": problems}
    return out


def decks(conn: Conn, schema: str, player_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        _q(schema, _DECK_COLUMNS + "WHERE d.player_id = %s ORDER BY d.created_at, d.deck_id"), (player_id,)
    ).fetchall()
    return [_deck(r) for r in rows]


def deck(conn: Conn, schema: str, player_id: str, deck_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        _q(schema, _DECK_COLUMNS + "WHERE d.player_id = %s AND d.deck_id = %s"), (player_id, deck_id)
    ).fetchone()
    return _deck(row) if row else None


def line_decks(conn: Conn, schema: str, player_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        _q(
            schema,
            "SELECT deck_id, name, cards, active, created_at, updated_at FROM {line_decks} "
            "WHERE player_id = %s ORDER BY created_at, deck_id",
        ),
        (player_id,),
    ).fetchall()
    keys = ("deck_id", "name", "cards", "active", "created_at", "updated_at")
    return [dict(zip(keys, r, strict=True)) for r in rows]


def save_reward_source(conn: Conn, schema: str, source: RewardSource, seen_at: datetime) -> None:
    """Keep the fact that earns ``source.reward_id`` (the first one seen; a redelivery changes nothing)."""
    conn.execute(
        _q(
            schema,
            "INSERT INTO {reward_sources} (reward_id, player_id, coins, packs, seen_at) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (reward_id) DO NOTHING",
        ),
        (source.reward_id, source.player_id, source.coins, source.packs, seen_at),
    )


def reward_source(conn: Conn, schema: str, reward_id: str) -> RewardSource | None:
    """The fact economy kept for ``reward_id``, or None when it saw none."""
    row = conn.execute(
        _q(schema, "SELECT reward_id, player_id, coins, packs FROM {reward_sources} WHERE reward_id = %s"),
        (reward_id,),
    ).fetchone()
    return RewardSource(*row) if row else None


def credited(conn: Conn, schema: str, player_id: str, source: str) -> bool:
    """Whether the credit of ``source`` was paid to the player (its ledger entry exists)."""
    row = conn.execute(
        _q(schema, "SELECT 1 FROM {ledger} WHERE player_id = %s AND source = %s LIMIT 1"), (player_id, source)
    ).fetchone()
    return row is not None
