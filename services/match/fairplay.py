"""Fair play at the match service's two hooks (docs/rules.md, "Fair play"; the rule itself is
``libs.fairplay``):

- as a match ends (``judged``, in the append's transaction): each player's verdict by its game's rule,
  decided from what the UTC day counted before it in every game (table ``fairplay_tally``: each pair
  of the match's players, each player's paying matches), is written into the ``MatchEnded``
  (``verdict``: per player ``coins``, ``xp``, ``rating``, the reason codes and the words), and the
  day's tally counts it. One match at a time per player makes each player's matches end in order.
- before a match starts (``unfinished_matches``): the ranked or casual matches of the players that
  have not ended, which a new request may not join (reason ``match_in_progress``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

import psycopg
from psycopg import sql

from libs import fairplay
from libs.games import registry
from libs.games.offer import FairPlay
from services.match.domain import Event

Conn = psycopg.Connection[Any]
MATCH_ENDED = "MatchEnded"


def _pair_key(pair: str) -> str:
    return f"pair:{pair}"


def _coins_key(player: str) -> str:
    return f"coins:{player}"


def _tally(conn: Conn, schema: str, day: date, end: fairplay.MatchEnd) -> fairplay.DayTally:
    pairs = [key for _, _, key in end.pairs]
    keys = [*(_pair_key(pair) for pair in pairs), *(_coins_key(p) for p in end.players)]
    rows = conn.execute(
        sql.SQL("SELECT key, matches FROM {} WHERE day = %s AND key = ANY(%s)").format(
            sql.Identifier(schema, "fairplay_tally")
        ),
        (day, keys),
    ).fetchall()
    counted = dict(rows)
    return fairplay.DayTally(
        {pair: counted.get(_pair_key(pair), 0) for pair in pairs},
        {p: counted.get(_coins_key(p), 0) for p in end.players},
    )


def _count(conn: Conn, schema: str, day: date, keys: Sequence[str]) -> None:
    for key in keys:
        conn.execute(
            sql.SQL(
                "INSERT INTO {t} AS t (day, key, matches) VALUES (%s, %s, 1) "
                "ON CONFLICT (day, key) DO UPDATE SET matches = t.matches + 1"
            ).format(t=sql.Identifier(schema, "fairplay_tally")),
            (day, key),
        )


def _judging(data: dict[str, Any]) -> FairPlay:
    """How the fair-play rules judge the match ``data`` (a ``MatchEnded``'s) ended: as its game's
    offer says."""
    return registry.fair_play(str(data.get("game") or registry.DEFAULT_GAME))


def judged(conn: Conn, schema: str, events: Sequence[Event], day: date) -> list[Event]:
    """``events`` with their ``MatchEnded`` (if any) carrying each player's verdict, the day's tally
    counting it. A MatchEnded the rule cannot read (malformed) is left as it is."""
    out = list(events)
    for i, (kind, data) in enumerate(out):
        end = fairplay.MatchEnd.from_data(data, _judging(data)) if kind == MATCH_ENDED else None
        if end is None:
            continue
        before = _tally(conn, schema, day, end)
        verdicts = fairplay.decide(end, before)
        after = fairplay.record(before, end.players, verdicts)
        keys = [_pair_key(k) for _, _, k in end.pairs if after.pair_matches(k) > before.pair_matches(k)]
        keys += [_coins_key(p) for p in end.players if after.coin_matches(p) > before.coin_matches(p)]
        _count(conn, schema, day, keys)
        out[i] = (kind, {**data, "verdict": {p: v.to_data() for p, v in verdicts.items()}})
    return out


def unfinished_matches(conn: Conn, schema: str, players: Sequence[str]) -> dict[str, str]:
    """Player id -> the id of an unfinished ranked or casual match of theirs, for ``players``."""
    rows = conn.execute(
        sql.SQL(
            "SELECT match_id, players FROM {} WHERE players && %s::text[] AND mode = ANY(%s) "
            "AND status NOT IN ('ended', 'rejected')"
        ).format(sql.Identifier(schema, "match_index")),
        (list(players), list(fairplay.COUNTING_MODES)),
    ).fetchall()
    return {p: str(match_id) for match_id, ids in rows for p in ids if p in players}
