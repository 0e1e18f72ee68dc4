"""Backup and restore of the event store on the embedded stack, as docs/operations.md "Backup and
restore" tells an operator, every process real (``make run``'s command lines, real PostgreSQL and
Kafka-protocol brokers):

1. two accounts register and log in, open a pack each, queue ranked and play a match; once every
   relay and consumer is done, the read models of every service and what the API answers each
   player (wallet, ledger, collection, pass, quests, streak, rating) are noted, and the database
   is backed up (``pg_dump``) with the stack running;
2. play goes on: a third account registers, a pack is opened, the two are paired in a casual
   match and one concedes;
3. restore: the stack is stopped (SIGKILL, as after an incident), Celery's queue is purged, the
   backup is restored on a NEW PostgreSQL server into a database of another name (the roles made
   first, as on a new cluster), and the stack starts on it and on a NEW, empty broker.
   The relays see a new cluster and publish every event again from the start; every consumer
   group reads all of it.

Then every read-model table of every service (inboxes, ledgers, wallets, ratings, quests, tickets,
the event store itself) and every API answer equals its state at the backup, and the third account
does not exist. What makes it fail: an inbox that lets a republished event through (applied
again, its inbox row is written anew even where the effect itself is idempotent, and a match's
coins or rating may be paid twice: deleting economy's MatchEnded inbox rows from the restored
database before the start makes this test fail), a relay that does not notice the new broker
(nothing republished: the wait for the groups never ends), a backup missing a schema or table, a
runbook step that does not work.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from harness.stack import Stack
from libs.devstack.ports import free_port
from libs.devstack.postgres import EmbeddedPostgres
from tests.e2e.backup import BusWatch, Settled, pg_dump, read_models, relay_positions, restore_on_a_new_server
from tests.e2e.test_match_e2e import play_both
from tests.e2e.test_ranked_e2e import matched, queue
from tests.e2e.test_whole_loop import PASSWORD, Player, _welcomed

pytestmark = pytest.mark.e2e

SETTLE_SECONDS = 90  # a limit for the waits below, not an asserted time
PLAYER_VIEWS = (
    "/v1/me",
    "/v1/matches",
    "/v1/wallet",
    "/v1/wallet/history",
    "/v1/collection",
    "/v1/decks",
    "/v1/pass",
    "/v1/quests",
    "/v1/streak",
    "/v1/ratings/me",
    "/v1/ratings/me/history",
    "/v1/leaderboard",
)


@pytest.fixture
def new_server(tmp_path: Path) -> Iterator[str]:
    """A second PostgreSQL server, empty: where the backup is restored. Asked for before ``stack``,
    so it stops after the stack's processes (pytest tears fixtures down in reverse)."""
    server = EmbeddedPostgres(tmp_path / "new-server", free_port(), durable=False)
    try:
        yield server.start()
    finally:
        server.stop(mode="immediate")


@pytest.fixture
def stack(postgres_url: str, tmp_path: Path) -> Iterator[Stack]:
    s = Stack(postgres_url, None, tmp_path / "stack")
    try:
        s.start()
        s.wait_ready()
        yield s
        web_log = s.log("web")
    finally:
        s.kill(*s.components)  # nothing to keep: no graceful stop (a Celery worker's takes seconds)
        s.close()
    assert '"status": 500' not in web_log, web_log[-3000:]


def wait_until(probe: Callable[[], Any], what: Callable[[], str], timeout: float = SETTLE_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while not probe():
        assert time.monotonic() < deadline, f"not settled after {timeout}s: {what()}"
        time.sleep(0.2)


def settle(stack: Stack) -> None:
    """Until every relay published everything and every consumer group applied it, on the broker the
    stack runs on now (its own, or the new one after ``use``)."""
    watch = BusWatch(stack.kafka, stack.env["ARCANA_KAFKA_GROUP_PREFIX"])
    try:
        settled = Settled(stack.database_url, watch)
        wait_until(settled, settled.describe)
    finally:
        watch.close()


def views(players: list[Player]) -> dict[tuple[str, str], Any]:
    """What the API answers each player on each of ``PLAYER_VIEWS``."""
    return {(p.id, path): p.get(path) for p in players for path in PLAYER_VIEWS}


def open_pack(p: Player) -> None:
    r = p.http.post(f"{p.url}/v1/packs", json={}, timeout=30)
    assert r.status_code == 201, r.text


def pair(a: Player, b: Player, mode: str) -> str:
    """Both queue in ``mode`` and are paired by matchmaking; the match's id."""
    ta, tb = queue(a, mode), queue(b, mode)
    match_id = matched(a, ta["ticket_id"])
    assert matched(b, tb["ticket_id"]) == match_id
    return match_id


def concede(p: Player, match_id: str) -> None:
    r = p.http.post(f"{p.url}/v1/matches/{match_id}/commands", json={"type": "concede"}, timeout=30)
    assert r.status_code == 200, r.text
    assert p.view(match_id)["phase"] == "ended"


def celery_purge(stack: Stack) -> subprocess.Popen[bytes]:
    """The runbook's ``celery -A services.worker purge -f`` (started; the caller waits): tasks
    queued after the backup must not run against the restored database."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "services.worker", "purge", "-f"],
        env=stack.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def test_restore_to_a_backup_and_republish_to_a_new_broker_gives_back_every_read_model_and_wallet(
    new_server: str, stack: Stack, make_broker: Any, tmp_path: Path
) -> None:
    a, b = Player(stack, "restore_a"), Player(stack, "restore_b")
    for p in (a, b):
        _welcomed(p)
        open_pack(p)
    play_both(a, b, pair(a, b, "ranked"))
    settle(stack)
    at_backup, seen_at_backup = read_models(stack.database_url), views([a, b])
    assert seen_at_backup[(a.id, "/v1/ratings/me")]["games"] == 1
    backup = tmp_path / "arcana.dump"
    pg_dump(stack.database_url, backup)

    c = Player(stack, "restore_c")
    open_pack(a)
    concede(b, pair(a, b, "casual"))
    settle(stack)
    assert views([a, b]) != seen_at_backup and read_models(stack.database_url) != at_backup

    stack.kill(*stack.components)
    purging = celery_purge(stack)
    restored = restore_on_a_new_server(backup, new_server, stack.database_url)
    broker = make_broker.start()
    assert purging.wait(60) == 0, purging.communicate()[0]
    stack.use(restored, broker.bootstrap)
    stack.start()
    stack.wait_ready()
    settle(stack)

    republished = relay_positions(restored)
    on_new_broker = [cluster == broker.cluster_id and head > 0 for head, _, cluster in republished.values()]
    assert all(on_new_broker), republished
    watch = BusWatch(broker.bootstrap, stack.env["ARCANA_KAFKA_GROUP_PREFIX"])
    try:
        groups = watch.progress()
    finally:
        watch.close()
    read = {g.group: 0 for g in groups}
    for g in groups:
        read[g.group] += g.committed
    assert read and all(read.values()), f"a consumer group read nothing from the new broker: {read}"

    after = read_models(restored)
    changed = sorted(t for t in at_backup.keys() | after.keys() if at_backup.get(t) != after.get(t))
    assert changed == [], {t: (at_backup.get(t), after.get(t)) for t in changed}
    assert views([a, b]) == seen_at_backup
    login = requests.post(
        f"{stack.url}/v1/sessions", json={"username": "restore_c", "password": PASSWORD}, timeout=30
    )
    assert login.status_code == 401, (c.id, login.text)
