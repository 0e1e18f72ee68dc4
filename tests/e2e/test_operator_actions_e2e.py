"""Issue 34, point 5, end to end (every process real): an operator suspends two players over HTTP and
with ``arcana admin``. Accounts refuses the token at once and the other services once they hear of
it; through Kafka, matchmaking cancels the waiting ticket of one (``TicketCancelled``, reason
``suspended``) and match forfeits the running match of the other (its opponent wins, reason
``suspended``). The suspended player cannot log in; restored, they log in and queue again. A refund
with ``arcana admin`` shows in the wallet's ledger. ``arcana audit`` prints every action with the
operator the token names and the reason; ``arcana export`` exports them like any event."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests

from harness.stack import NAMED_OPERATOR, NAMED_OPERATOR_TOKEN, Stack
from harness.waiting import wait_until

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "a long enough password"
OPERATOR = {"Authorization": f"Bearer {NAMED_OPERATOR_TOKEN}"}


class Account:
    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.username = "op_" + uuid.uuid4().hex[:12]
        self.credentials = {"username": self.username, "password": PASSWORD}
        r = requests.post(f"{stack.url}/v1/accounts", json=self.credentials, timeout=10)
        assert r.status_code == 201, r.text
        self.id = str(r.json()["player_id"])
        self.http = requests.Session()
        assert self.log_in().status_code == 201

    def log_in(self) -> requests.Response:
        r = requests.post(f"{self.stack.url}/v1/sessions", json=self.credentials, timeout=10)
        if r.status_code == 201:
            self.http.headers["Authorization"] = f"Bearer {r.json()['token']}"
        return r

    def status(self, path: str) -> int:
        return self.http.get(f"{self.stack.url}{path}", timeout=10).status_code

    def queue(self, mode: str) -> requests.Response:
        return self.http.post(f"{self.stack.url}/v1/queue", json={"mode": mode}, timeout=10)


def _arcana(stack: Stack, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not (k.endswith("_FILE") or re.fullmatch(r"ARCANA_\w+_SCHEMA", k))
    }
    env.update(DATABASE_URL=stack.database_url, ARCANA_OPERATOR_TOKEN=NAMED_OPERATOR_TOKEN)
    if argv[0] == "admin":  # the API of this stack, not make run's
        argv = ("admin", "--url", stack.url, *argv[1:])
    command = [sys.executable, "-m", "services.cli", *argv]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, cwd=ROOT)


def _queued(player: Account, mode: str) -> str:
    r = wait_until(lambda: (q := player.queue(mode)).status_code == 202 and q, 60, f"{mode} ticket", 0.5)
    return str(r.json()["ticket_id"])


def _match_of(player: Account, ticket_id: str) -> str:
    def matched() -> str | None:
        view = player.http.get(f"{player.stack.url}/v1/queue/{ticket_id}", timeout=10).json()
        return view.get("match_id") if view["status"] == "matched" else None

    return str(wait_until(matched, 90, "the pairing", 0.5))


def _summary(player: Account, match_id: str) -> dict[str, Any]:
    matches = player.http.get(f"{player.stack.url}/v1/matches", timeout=10).json()["matches"]
    return next(m for m in matches if m["match_id"] == match_id)


def _cancelled(stack: Stack, ticket_id: str) -> str | None:
    with psycopg.connect(stack.database_url) as conn:
        row = conn.execute(
            "SELECT data->>'reason' FROM matchmaking.events WHERE stream = %s AND type = 'TicketCancelled'",
            (f"ticket-{ticket_id}",),
        ).fetchone()
    return str(row[0]) if row else None


def test_suspend_cancels_forfeits_and_refuses_then_restore_lets_the_player_back(
    stack: Stack, tmp_path: Path
) -> None:
    a, b, c = Account(stack), Account(stack), Account(stack)
    ticket = _queued(a, "casual")
    _queued(b, "casual")
    match_id = _match_of(a, ticket)
    waiting = _queued(c, "ranked")
    assert _summary(b, match_id)["status"] != "ended"

    r = requests.post(
        f"{stack.url}/v1/admin/accounts/{a.id}/suspension", json={"reason": "win trading"}, headers=OPERATOR
    )
    assert r.status_code == 204, r.text
    done = _arcana(stack, "admin", "suspend", c.id, "--reason", "abusive chat")
    assert done.returncode == 0, done.stderr

    assert a.status("/v1/me") == 401 and c.status("/v1/me") == 401
    wait_until(lambda: a.status(f"/v1/matches/{match_id}") == 401, 60, "match to refuse the token", 0.5)
    ended = wait_until(
        lambda: (m := _summary(b, match_id))["status"] == "ended" and m, 60, "the forfeit", 0.5
    )
    assert (ended["winner"], ended["reason"]) == (b.id, "suspended")
    assert wait_until(lambda: _cancelled(stack, waiting), 60, "the ticket's cancellation", 0.5) == "suspended"
    refused = a.log_in()
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_suspended"

    done = _arcana(stack, "admin", "restore", a.id, "--reason", "appeal upheld")
    assert done.returncode == 0, done.stderr
    assert a.log_in().status_code == 201 and a.status("/v1/me") == 200
    again = _queued(a, "casual")  # once matchmaking and the sessions consumers heard: play again
    left = a.http.delete(f"{stack.url}/v1/queue/{again}", timeout=10)  # nothing left waiting (shared stack)
    assert left.status_code == 200, left.text

    done = _arcana(stack, "admin", "refund", b.id, "--coins", "25", "--reason", "lost a match to a cheat")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["coins"] == 25
    ledger = b.http.get(f"{stack.url}/v1/wallet/history", timeout=10).json()["entries"]
    assert (ledger[0]["amount"], ledger[0]["reason"]) == (25, "refund")
    refused_cli = _arcana(stack, "admin", "claw-back", b.id, "--coins", "5000", "--reason", "too much")
    assert refused_cli.returncode == 1 and "beyond_balance" in refused_cli.stderr

    audit = _arcana(stack, "audit", "--operator", NAMED_OPERATOR, "--json")
    assert audit.returncode == 0, audit.stderr
    entries = [json.loads(line) for line in audit.stdout.splitlines()]
    mine = [
        (e["service"], e["action"], e["player_id"], e["reason"])
        for e in entries
        if e["player_id"] in (a.id, b.id, c.id)
    ]
    assert mine == [
        ("accounts", "suspend_account", a.id, "win trading"),
        ("accounts", "suspend_account", c.id, "abusive chat"),
        ("accounts", "restore_account", a.id, "appeal upheld"),
        ("economy", "refund", b.id, "lost a match to a cheat"),
    ]
    text = _arcana(stack, "audit", "--player", a.id)
    assert text.returncode == 0 and NAMED_OPERATOR in text.stdout and '"win trading"' in text.stdout

    export = tmp_path / "audit.jsonl"
    done = _arcana(stack, "export", "--quiet", "--type", "OperatorActed", "--output", str(export))
    assert done.returncode == 0, done.stderr
    exported = [json.loads(line) for line in export.read_text().splitlines()]
    assert {(e["service"], e["data"]["action"]) for e in exported if e["data"]["player_id"] == a.id} == {
        ("accounts", "suspend_account"),
        ("accounts", "restore_account"),
    }
