"""What a ``MatchRequested`` must agree with before it starts a match (issue 12, finding 3): anyone
who can write to the matchmaking topic could otherwise start ranked matches between any players,
with any decks.

- both players exist: accounts published their ``PlayerRegistered`` (kept in ``players`` by the
  subscription ``match-players``), else reason ``unknown_player``;
- each deck is the player's active deck as economy last published it (``active_decks``, as for
  practice), or the starter deck when economy published none (every new account gets it), the
  same cards in any order, else reason ``deck_mismatch``.

A request that reaches match before its players' events does is rejected: matchmaking marks its
tickets failed and the players queue again (the read models lag by milliseconds, queueing needs a
log-in).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import psycopg
from psycopg import sql

from libs.rules import STARTER_DECK
from services.match import decks

Conn = psycopg.Connection[Any]
Problem = tuple[str, str, Any]  # (reason, message, details per player id)


def keep_player(conn: Conn, schema: str, player_id: str) -> None:
    """Record that the player exists (a redelivery changes nothing)."""
    conn.execute(
        sql.SQL("INSERT INTO {} (player_id) VALUES (%s) ON CONFLICT DO NOTHING").format(
            sql.Identifier(schema, "players")
        ),
        (player_id,),
    )


def known_players(conn: Conn, schema: str, player_ids: Sequence[str]) -> set[str]:
    """Which of ``player_ids`` accounts published as registered."""
    rows = conn.execute(
        sql.SQL("SELECT player_id FROM {} WHERE player_id = ANY(%s)").format(
            sql.Identifier(schema, "players")
        ),
        (list(player_ids),),
    ).fetchall()
    return {r[0] for r in rows}


def expected_deck(conn: Conn, schema: str, player_id: str) -> list[str]:
    """The deck a player's ranked or casual match must use: their active deck, or the starter deck."""
    found = decks.active_deck(conn, schema, player_id)
    return list(found.cards) if found is not None else list(STARTER_DECK)


def with_active_decks(conn: Conn, schema: str, players: Any) -> Any:
    """``players`` of a MatchRequested, each without a ``deck`` given its expected deck (requests
    carry ids only; older ones carried decks, which are kept and vetted). Anything malformed is
    returned as it is, for ``request_problem`` to name."""
    if not isinstance(players, list):
        return players
    return [
        {**p, "deck": expected_deck(conn, schema, p["id"])}
        if isinstance(p, Mapping) and "deck" not in p and isinstance(p.get("id"), str)
        else p
        for p in players
    ]


def request_mismatch(conn: Conn, schema: str, players: Sequence[Mapping[str, Any]]) -> Problem | None:
    """Why well-formed ``players`` (two ``{id, deck}``) disagree with what match knows, or None."""
    ids = [str(p["id"]) for p in players]
    unknown = [i for i in ids if i not in known_players(conn, schema, ids)]
    if unknown:
        details = {i: ["no such player"] for i in unknown}
        return "unknown_player", f"unknown player(s): {', '.join(unknown)}", details
    wrong = [
        str(p["id"]) for p in players if sorted(p["deck"]) != sorted(expected_deck(conn, schema, p["id"]))
    ]
    if wrong:
        details = {i: ["the deck is not the player's active deck"] for i in wrong}
        return "deck_mismatch", f"not the active deck of {', '.join(wrong)}", details
    return None
