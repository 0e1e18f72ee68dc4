"""Players' active decks as economy publishes them (``ActiveDeckChanged``), for practice matches.

Table ``active_decks`` (migrations/002_active_decks.sql): the last event per player, by the
economy stream's version, so redeliveries and replays from an empty broker change nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import sql

Conn = psycopg.Connection[Any]


@dataclass(frozen=True)
class ActiveDeck:
    deck_id: str
    cards: list[str]
    legal: bool
    problems: list[str]


def keep(conn: Conn, schema: str, data: dict[str, Any], version: int) -> None:
    """Record one ``ActiveDeckChanged`` unless a newer one of the player is recorded."""
    conn.execute(
        sql.SQL(
            "INSERT INTO {t} AS d (player_id, deck_id, cards, legal, problems, version) "
            "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (player_id) DO UPDATE SET "
            "deck_id = excluded.deck_id, cards = excluded.cards, legal = excluded.legal, "
            "problems = excluded.problems, version = excluded.version, updated_at = now() "
            "WHERE d.version < excluded.version"
        ).format(t=sql.Identifier(schema, "active_decks")),
        (
            str(data["player_id"]),
            str(data["deck_id"]),
            json.dumps(list(data["cards"])),
            bool(data["legal"]),
            json.dumps(list(data.get("problems") or [])),
            version,
        ),
    )


def active_deck(conn: Conn, schema: str, player_id: str) -> ActiveDeck | None:
    row = conn.execute(
        sql.SQL("SELECT deck_id, cards, legal, problems FROM {} WHERE player_id = %s").format(
            sql.Identifier(schema, "active_decks")
        ),
        (player_id,),
    ).fetchone()
    return ActiveDeck(str(row[0]), list(row[1]), bool(row[2]), list(row[3])) if row else None
