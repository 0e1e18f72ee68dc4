"""The line's tournament in the match service (docs/line.md, "Tournament"), on a real PostgreSQL: entries
(economy's ``TournamentEntryMade``, applied as the consumer applies it) seat in one bracket; 60 s after
the first, bots fill the empty seats; each round a player may choose five of their ten within the
window, else the default five fights; every fight is a real line match of mode ``tournament`` playing
exactly the five recorded for it; the bracket runs to its end with each place given once and each
human's prize awarded once; a bracket is its entrants' alone to see."""

from __future__ import annotations

import uuid
from typing import Any

from flask import Flask
from psycopg_pool import ConnectionPool

from libs import clock
from libs.games.line.catalog import WELCOME_SET
from libs.games.line.offer import TOURNAMENT_PRIZES
from services.match.root import assemble
from services.match.service import MatchService
from services.match.usecases.tournaments import stream_of
from tests.integration.match.conftest import Player, deliver

TEN = sorted(WELCOME_SET)[:10]
OUTSIDE = sorted(WELCOME_SET)[10]  # owned, but not entered
PRIZE = {p: prize.reward.amount for prize in TOURNAMENT_PRIZES for p in range(prize.first, prize.last + 1)}


def enter(svc: MatchService, player: Player, cards: list[str] = TEN) -> str:
    entry_id = str(uuid.uuid4())
    data = {"player_id": player.id, "entry_id": entry_id, "game": "line", "cards": cards, "entered_at": "x"}
    deliver(svc, "TournamentEntryMade", data, f"line-{player.id}")
    return entry_id


def bracket_of(p: Player) -> dict[str, Any]:
    listed = p.get("/v1/tournaments").get_json()["tournaments"]
    assert len(listed) == 1, listed
    r = p.get(f"/v1/tournaments/{listed[0]['tournament_id']}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def sweep_after(svc: MatchService, seconds: float) -> int:
    clock.set_offset(clock.offset_seconds() + seconds)
    return svc.tournaments.sweep(transaction=svc.tournaments.own_transaction)


def test_a_bracket_with_bots_runs_to_its_end_with_real_line_matches_and_each_place_awarded_once(
    app: Flask, svc: MatchService, pool: ConnectionPool, match_schema: str
) -> None:
    humans = [Player(app) for _ in range(3)]
    entries = {p.id: enter(svc, p) for p in humans}
    first = bracket_of(humans[0])
    tid = first["tournament_id"]
    assert first["status"] == "filling" and len(first["entrants"]) == 3
    assert first["you"]["entry"] == TEN and first["you"]["entry_id"] == entries[humans[0].id]
    assert Player(app).get(f"/v1/tournaments/{tid}").get_json()["error"]["code"] == "tournament_not_found"
    early = humans[0].client.put(
        f"/v1/tournaments/{tid}/lineup", json={"cards": TEN[:5]}, headers=humans[0].headers()
    )
    assert (early.status_code, early.get_json()["error"]["code"]) == (409, "no_round_open")

    assert sweep_after(svc, 59) == 0  # not yet
    assert sweep_after(svc, 2) > 0  # bots fill the empty seats, round 1 opens
    running = bracket_of(humans[0])
    assert running["status"] == "running" and running["round"] == 1
    assert sum(e["bot"] for e in running["entrants"]) == 5 and len(running["order"]) == 8
    assert [e["player_id"] for e in running["entrants"] if not e["bot"]] == [p.id for p in humans]

    chooser = humans[0]
    put = lambda cards: chooser.client.put(  # noqa: E731
        f"/v1/tournaments/{tid}/lineup", json={"cards": cards}, headers=chooser.headers()
    )
    bad = put([*TEN[:4], OUTSIDE])
    assert bad.status_code == 422 and bad.get_json()["error"]["code"] == "invalid_lineup"
    assert bad.get_json()["error"]["details"]["problems"] == [f"{OUTSIDE} is not in your entry"]
    assert put(TEN[:4]).status_code == 422  # four cards
    chosen = list(reversed(TEN[5:]))
    ok = put(chosen)
    assert ok.status_code == 200 and ok.get_json()["you"]["lineup"] == chosen

    for _ in range(3):  # each round's window closes, its fights are played
        sweep_after(svc, 31)
    final = bracket_of(humans[0])
    assert final["status"] == "ended", final
    places = sorted(e["place"] for e in final["entrants"])
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
    fights = [f for r in final["rounds"] for f in r["fights"]]
    assert len(fights) == 7 and all(f["winner"] in f["players"] for f in fights)

    # every fight is a real line match of mode tournament, playing the five recorded for it
    for f in fights:
        match = svc.matches.load(f["match_id"])
        assert match is not None and match.ended and (match.game, match.mode) == ("line", "tournament")
        assert set(match.players) == set(f["players"])
        for pid, line in zip(match.rules.pids, match.rules.lines, strict=True):  # each five as it fought
            assert list(line) == f["lineups"][pid]
    round1 = next(f for f in final["rounds"][0]["fights"] if chooser.id in f["players"])
    assert round1["lineups"][chooser.id] == chosen  # the five chosen, not the default

    recorded = svc.matches.events.read(stream_of(tid))
    awarded = [r.data for r in recorded if r.type == "TournamentPlaceAwarded"]
    assert sorted(a["player_id"] for a in awarded) == sorted(p.id for p in humans)
    place = {e["player_id"]: e["place"] for e in final["entrants"]}
    for a in awarded:
        assert (a["place"], a["amount"], a["entry_id"]) == (
            place[a["player_id"]],
            PRIZE[a["place"]],
            entries[a["player_id"]],
        )

    # a fresh process (empty caches) sees the same bracket, and a later sweep adds nothing
    again = assemble(pool, match_schema)
    assert again.tournaments.bracket(humans[1].id, tid) == bracket_of(humans[1])
    assert again.tournaments.sweep(transaction=again.tournaments.own_transaction) == 0


def test_the_eighth_entry_fills_a_bracket_at_once_and_the_ninth_opens_the_next(
    app: Flask, svc: MatchService
) -> None:
    players = [Player(app) for _ in range(9)]
    for p in players:
        enter(svc, p)
    full = bracket_of(players[0])
    assert full["status"] == "running" and not any(e["bot"] for e in full["entrants"])
    assert bracket_of(players[8])["status"] == "filling"
    # everyone chooses: the fights start at the next sweep, before the window closes
    for p in players[:8]:
        r = p.client.put(
            f"/v1/tournaments/{full['tournament_id']}/lineup", json={"cards": TEN[:5]}, headers=p.headers()
        )
        assert r.status_code == 200, r.get_json()
    assert sweep_after(svc, 1) > 0
    assert all(f["match_id"] for f in bracket_of(players[0])["rounds"][0]["fights"])
