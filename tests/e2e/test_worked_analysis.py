"""The worked analysis of docs/analytics.md, run as written (issue 20, point 6).

Twenty real accounts play a hundred matches (``ANALYSIS_MATCHES`` for more) through the public
API on the whole stack (queued and paired by matchmaking, played over HTTP, paid by economy,
progression and ratings), open packs with their coins; then `arcana export` writes every
service's events and each DuckDB query of the document runs on that file. Each answer is checked
against the same figure computed here from the exported events in Python, and the coins against
the wallets the API shows.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from harness.stack import Stack
from libs.config import PROJECT_ROOT
from libs.devstack.broker import DevBroker
from libs.devstack.ports import free_port

pytestmark = pytest.mark.e2e

PLAYERS = int(os.environ.get("ANALYSIS_PLAYERS", "20"))
MATCHES = int(os.environ.get("ANALYSIS_MATCHES", "100"))  # more with the variable, e.g. 1,000
PASSWORD = "a long enough secret"
DOC = PROJECT_ROOT / "docs" / "analytics.md"


class Account:
    """A registered, logged-in player with a keep-alive session."""

    def __init__(self, url: str, name: str) -> None:
        body = {"username": name, "password": PASSWORD}
        created = requests.post(f"{url}/v1/accounts", json=body, timeout=30)
        assert created.status_code == 201, created.text
        token = requests.post(f"{url}/v1/sessions", json=body, timeout=30).json()["token"]
        self.id: str = created.json()["player_id"]
        self.url = url
        self.http = requests.Session()
        self.http.headers["Authorization"] = f"Bearer {token}"

    def call(self, method: str, path: str, ok: tuple[int, ...] = (200,), **kwargs: Any) -> Any:
        r = self.http.request(method, self.url + path, timeout=40, **kwargs)
        assert r.status_code in ok, f"{method} {path}: {r.status_code} {r.text}"
        return r.json() if r.content else None


def wait_until(probe: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while not (found := probe()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)
    return found


def choose(commands: list[dict[str, Any]], turn: int, stop_turn: int, rng: random.Random) -> dict[str, Any]:
    """Keep the hand; from ``stop_turn`` on, concede now and then; otherwise play a card, hit the
    hero, attack, or end the turn."""
    by_type = defaultdict(list)
    for c in commands:
        by_type[c["type"]].append(c)
    if by_type["mulligan"]:
        return next(c for c in by_type["mulligan"] if not c["cards"])
    if turn >= stop_turn and rng.random() < 0.35:
        return {"type": "concede"}
    for kind in ("play", "attack"):
        if by_type[kind] and rng.random() < 0.8:
            return rng.choice(by_type[kind])
    return by_type["end_turn"][0] if by_type["end_turn"] else commands[0]


def play(me: Account, match_id: str, rng: random.Random) -> None:
    """Play one side of a match to its end: long-poll, and move when the match waits for me. From
    turn 4 or 5 on (a match counts from turn 4: every match of the season is paid and counted) the
    player concedes now and then: short matches, of several lengths still, so that a few hundred
    cost the machine little."""
    stop_turn = rng.randint(4, 5)
    version, turn = 0, 0
    legal: list[dict[str, Any]] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if not legal:
            polled = me.call("GET", f"/v1/matches/{match_id}/events", params={"after": version, "wait": 5})
            version = polled["version"]
            turn = max(
                [turn] + [e["data"].get("turn", 0) for e in polled["events"] if e["type"] == "TurnStarted"]
            )
            if any(e["type"] == "MatchEnded" for e in polled["events"]):
                return
            legal = polled["legal_commands"]
            continue
        body = {**choose(legal, turn, stop_turn, rng), "expected_version": version}
        body.pop("player", None)
        r = me.http.post(f"{me.url}/v1/matches/{match_id}/commands", json=body, timeout=40)
        if r.status_code == 409:  # a timer or the opponent's presence came first: look again
            legal = []
            continue
        assert r.status_code == 200, r.text
        answer = r.json()
        version, legal = answer["version"], answer["legal_commands"]
        if not answer["awaiting"]:
            return
    raise AssertionError(f"{me.id}: match {match_id} did not end")


class Season:
    """Matches until ``target`` have been paired: each player queues again as soon as their match
    ends (the first time ranked, then casual) and plays whoever matchmaking pairs them with; once the
    target is reached, a player still waiting leaves the queue."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.matches: set[str] = set()
        self.lock = threading.Lock()

    def done(self) -> bool:
        with self.lock:
            return len(self.matches) >= self.target

    def career(self, p: Account) -> None:
        n = 0
        while not self.done():
            mode = "ranked" if n == 0 else "casual"
            ticket = self._queue(p, mode)
            match_id = self._paired(p, ticket)
            if match_id is None:
                return
            with self.lock:
                self.matches.add(match_id)
            play(p, match_id, random.Random(f"{p.id}-{n}"))
            n += 1

    @staticmethod
    def _queue(p: Account, mode: str) -> str:
        """A new ticket. Matchmaking learns that the last match ended from its MatchEnded, a moment
        after the end: until then it answers 409 match_in_progress, and a client tries again."""
        deadline = time.monotonic() + 30
        while True:
            r = p.http.post(f"{p.url}/v1/queue", json={"mode": mode}, timeout=40)
            if r.status_code == 202:
                return str(r.json()["ticket_id"])
            assert r.status_code == 409 and r.json()["error"]["code"] == "match_in_progress", r.text
            assert time.monotonic() < deadline, f"{p.id}: still in a match after 30 s: {r.text}"
            time.sleep(0.5)

    def _paired(self, p: Account, ticket: str) -> str | None:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            view = p.call("GET", f"/v1/queue/{ticket}")
            if view["status"] == "matched":
                return str(view["match_id"])
            if self.done() and view["status"] == "waiting":
                left = p.http.delete(f"{p.url}/v1/queue/{ticket}", timeout=10)
                if left.status_code == 200:
                    return None  # 409: paired meanwhile, so play it
            time.sleep(0.2)
        raise AssertionError(f"{p.id} was not paired")


def open_packs(p: Account) -> int:
    opened = 0
    while p.call("GET", "/v1/wallet")["coins"] >= 100:
        p.call("POST", "/v1/packs", ok=(201,), json={"client_seed": f"{p.id}-{opened}"})
        opened += 1
    return opened


def settled(stack: Stack) -> bool:
    """Every consumer has applied all it was sent: the inbox rows of every service stopped growing."""
    import psycopg

    def counts() -> list[int]:
        with psycopg.connect(stack.database_url) as conn:
            schemas = [
                r[0]
                for r in conn.execute(
                    "SELECT table_schema FROM information_schema.tables WHERE table_name = 'inbox'"
                )
            ]
            return [conn.execute(f'SELECT count(*) FROM "{s}".inbox').fetchone()[0] for s in sorted(schemas)]  # type: ignore[index]

    before = counts()
    time.sleep(2.0)
    return counts() == before


@pytest.fixture(scope="module")
def season(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The stack after the matches and the packs, with its export. Its broker is its own: the export
    must hold this season's events only, and stacks sharing topics would hear each other's players."""
    folder = tmp_path_factory.mktemp("analysis")
    broker = DevBroker(free_port(), folder / "broker.log")
    kafka_bootstrap = broker.start()
    # A season compressed into minutes, from one address: every player may register here (the
    # throttle is per address), and queue more often than a person could (10 joins a minute).
    try:
        env = {"ARCANA_REGISTER_MAX_PER_ADDRESS": str(PLAYERS), "ARCANA_QUEUE_ACTIONS_PER_WINDOW": "10000"}
        with Stack(postgres_url, kafka_bootstrap, folder, env=env) as stack:
            stack.wait_ready()
            with ThreadPoolExecutor(8) as pool:
                players = list(pool.map(lambda n: Account(stack.url, f"analyst{n}"), range(PLAYERS)))
            wait_until(
                lambda: all(p.http.get(f"{p.url}/v1/wallet", timeout=10).status_code == 200 for p in players),
                60,
                "wallets",
            )
            season = Season(MATCHES)
            with ThreadPoolExecutor(PLAYERS) as pool:
                list(pool.map(season.career, players))
            matches = sorted(season.matches)
            with ThreadPoolExecutor(8) as pool:
                packs = sum(pool.map(open_packs, players))
            wait_until(lambda: settled(stack), 120, "the consumers to settle")
            export = folder / "events.jsonl"
            env = analyst_env(stack.database_url)
            done = subprocess.run(
                [str(Path(sys.executable).parent / "arcana"), "export", "--output", str(export)],
                env=env, capture_output=True, text=True, timeout=300, cwd=PROJECT_ROOT,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            wallets = {p.id: p.call("GET", "/v1/wallet") for p in players}
            ratings = {p.id: p.http.get(f"{p.url}/v1/ratings/{p.id}", timeout=10) for p in players}
            yield {
                "export": export,
                "matches": matches,
                "packs": packs,
                "wallets": wallets,
                "ratings": {k: r.json() for k, r in ratings.items() if r.status_code == 200},
                "events": [json.loads(line) for line in export.read_text().splitlines()],
            }
    finally:
        broker.stop()


def analyst_env(database_url: str) -> dict[str, str]:
    """An analyst's shell: ``DATABASE_URL`` names the stack's database, and nothing this test process
    may carry (a ``DATABASE_URL_FILE``, a service schema moved by another test) points elsewhere."""
    inherited = {
        k: v
        for k, v in os.environ.items()
        if not (k.endswith("_FILE") or re.fullmatch(r"ARCANA_\w+_SCHEMA", k))
    }
    return {**inherited, "DATABASE_URL": database_url}


def queries() -> dict[str, str]:
    """Each named SQL block of docs/analytics.md."""
    blocks = re.findall(r"```sql\n(.*?)```", DOC.read_text(), re.S)
    named = {re.search(r"-- name: (\w+)", b).group(1): b for b in blocks}  # type: ignore[union-attr]
    assert len(named) == len(blocks), "every query of the document has a name"
    return named


@pytest.fixture(scope="module")
def answers(season: dict[str, Any]) -> dict[str, list[tuple[Any, ...]]]:
    """Every query of the document, run in order on the export, as an analyst would."""
    import duckdb

    db = duckdb.connect()
    db.execute("SET TimeZone = 'UTC'")
    found = {}
    for name, text in queries().items():
        text = text.replace("'events.jsonl'", f"'{season['export']}'")
        result = None
        for statement in (s for s in text.split(";") if s.strip()):
            result = db.execute(statement)
        found[name] = result.fetchall() if result is not None and result.description else []
    return found


def of_type(events: list[dict[str, Any]], service: str, kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["service"] == service and e["type"] == kind]


def test_the_export_holds_this_stack_s_players_only(season: dict[str, Any]) -> None:
    wallets = {e["stream"] for e in of_type(season["events"], "economy", "WalletOpened")}
    assert wallets == {f"wallet-{player}" for player in season["wallets"]}


def test_the_season_is_a_few_hundred_matches_with_packs(season: dict[str, Any]) -> None:
    ended = of_type(season["events"], "match", "MatchEnded")
    assert len(ended) == len(season["matches"]) >= MATCHES
    assert season["packs"] > 0 and len(of_type(season["events"], "economy", "PackOpened")) == season["packs"]


def test_first_player_win_rate(season: dict[str, Any], answers: dict[str, Any]) -> None:
    events = season["events"]
    first = {e["data"]["match_id"]: e["data"]["first"] for e in of_type(events, "match", "MatchStarted")}
    ended = {e["data"]["match_id"]: e["data"] for e in of_type(events, "match", "MatchEnded")}
    wins = sum(ended[m]["winner"] == first[m] for m in ended)
    draws = sum(bool(ended[m]["draw"]) for m in ended)
    [(matches, first_wins, drawn, rate)] = answers["first_player_win_rate"]
    assert (matches, first_wins, drawn) == (len(ended), wins, draws)
    assert rate == pytest.approx(round(wins / len(ended), 3))


def test_card_win_rates_in_deck_and_when_played(season: dict[str, Any], answers: dict[str, Any]) -> None:
    events = season["events"]
    winner = {e["data"]["match_id"]: e["data"]["winner"] for e in of_type(events, "match", "MatchEnded")}
    in_deck: dict[str, list[int]] = defaultdict(list)
    for e in of_type(events, "match", "MatchStarted"):
        if e["data"]["match_id"] not in winner:  # still running or abandoned: not counted
            continue
        for p in e["data"]["players"]:
            for card in set(p["deck"]):
                in_deck[card].append(winner[e["data"]["match_id"]] == p["id"])
    got = {card: (n, rate) for card, n, rate in answers["card_win_rate_in_deck"]}
    assert got.keys() == in_deck.keys()
    for card, results in in_deck.items():
        assert got[card] == (len(results), pytest.approx(round(sum(results) / len(results), 3)))
    played = {
        (e["stream"].removeprefix("match-"), e["data"]["player_id"], e["data"]["card_id"])
        for e in of_type(events, "match", "CardPlayed")
    }
    counted = Counter(card for match, _, card in played if match in winner)
    assert {card: n for card, n, _ in answers["card_win_rate_when_played"]} == dict(counted)


def test_arcana_and_match_length(season: dict[str, Any], answers: dict[str, Any]) -> None:
    events = season["events"]
    ended = {e["data"]["match_id"] for e in of_type(events, "match", "MatchEnded")}
    spreads = Counter(
        a
        for e in of_type(events, "match", "MatchStarted")
        if e["data"]["match_id"] in ended
        for a in e["data"]["arcana"]
    )
    assert {arcana: n for arcana, n, *_ in answers["arcana_effect"]} == dict(spreads)
    turns = defaultdict(list)
    for e in of_type(events, "match", "MatchEnded"):
        turns[e["data"]["mode"]].append(e["data"]["turns"])
    assert {mode: (n, avg) for mode, n, avg, *_ in answers["match_length"]} == {
        mode: (len(t), pytest.approx(round(sum(t) / len(t), 2))) for mode, t in turns.items()
    }


def test_coins_in_and_out_add_up_to_every_wallet(season: dict[str, Any], answers: dict[str, Any]) -> None:
    coins_in = sum(row[1] for row in answers["coins_per_day"])
    coins_out = sum(row[2] for row in answers["coins_per_day"])
    economy = [e for e in season["events"] if e["service"] == "economy"]
    balance: Counter[str] = Counter()
    for e in economy:
        if e["type"] == "WalletCredited":
            balance[e["stream"]] += e["data"]["coins"]
        elif e["type"] == "PackOpened":
            balance[e["stream"]] -= e["data"]["coins_spent"]
    shown = {f"wallet-{player}": w["coins"] for player, w in season["wallets"].items()}
    assert {s: balance[s] for s in shown} == shown  # each wallet is its ledger, as exported
    assert coins_in - coins_out == sum(shown.values()) == sum(balance.values())
    assert coins_out == 100 * sum(
        1 for e in economy if e["type"] == "PackOpened" and e["data"]["coins_spent"]
    )
    reasons = {reason: coins for reason, _, coins in answers["coins_in_by_reason"]}
    assert sum(reasons.values()) == coins_in and reasons.get("match", 0) > 0


def test_pack_odds_count_four_slots_of_every_pack(season: dict[str, Any], answers: dict[str, Any]) -> None:
    rows = answers["pack_odds"]
    assert [r[0] for r in rows] == ["common", "uncommon", "rare", "epic", "legendary"]
    assert {r[3] for r in rows} == {4 * season["packs"]}
    assert sum(r[2] for r in rows) == 4 * season["packs"]
    for _, _expected, seen, n, observed, low, high in rows:
        assert low <= observed <= high and observed == pytest.approx(round(seen / n, 4))


def test_quest_completion(season: dict[str, Any], answers: dict[str, Any]) -> None:
    events = season["events"]
    offered = Counter(q for e in of_type(events, "progression", "QuestsOffered") for q in e["data"]["quests"])
    offered.update(e["data"]["replacement"] for e in of_type(events, "progression", "QuestSwapped"))
    done = {
        (e["data"]["player_id"], e["data"]["day"], e["data"]["quest_id"])
        for e in of_type(events, "progression", "QuestCompleted")
    }
    assert {q: n for q, n, _, _ in answers["quest_completion"]} == dict(offered)
    assert sum(row[2] for row in answers["quest_completion"]) == len(done) > 0


def test_ratings_by_tier_match_the_ratings_service(season: dict[str, Any], answers: dict[str, Any]) -> None:
    latest: dict[str, dict[str, Any]] = {}
    for e in of_type(season["events"], "ratings", "RatingChanged"):  # the export is in time order
        latest[e["data"]["player_id"]] = e["data"]
    assert latest, "the ranked round moved ratings"
    tiers: dict[str, list[int]] = defaultdict(list)
    for change in latest.values():
        tiers[change["tier"]].append(change["after"])
    assert {tier: (n, low, high) for tier, n, low, high, _ in answers["ratings_by_tier"]} == {
        tier: (len(r), min(r), max(r)) for tier, r in tiers.items()
    }
    for player, change in latest.items():  # what the ratings service shows is the last change
        assert season["ratings"][player]["rating"] == change["after"]


def test_the_document_has_no_query_this_test_does_not_run(answers: dict[str, Any]) -> None:
    assert set(answers) == set(queries())
