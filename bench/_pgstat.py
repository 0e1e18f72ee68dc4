"""What PostgreSQL wrote during a benchmark phase, from its statistics views: rows inserted,
updated and deleted per table (``pg_stat_user_tables`` of the stack's database) and how much each
table grew on disk (``pg_total_relation_size``: its indexes and TOAST included), transactions
committed (``pg_stat_database``) and WAL bytes (``pg_current_wal_lsn``, the whole server: on a
benchmark's own server, the stack's).

The table counters are flushed by each backend at most once a second after its transactions (and
when it goes idle), so a phase's figures may miss or gain up to about a second of writes at each
end: over a phase of a minute, a few per cent. The WAL position is exact.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import psycopg


@dataclass(frozen=True)
class Writes:
    wal_bytes: int
    commits: int
    # table → (rows inserted, updated, deleted, bytes on disk)
    rows: dict[str, tuple[int, int, int, int]] = field(default_factory=dict)

    def minus(self, before: Writes) -> Writes:
        rows = {}
        for table, now in self.rows.items():
            was = before.rows.get(table, (0, 0, 0, 0))
            changed = (now[0] - was[0], now[1] - was[1], now[2] - was[2], now[3] - was[3])
            if any(changed[:3]):
                rows[table] = changed
        return Writes(self.wal_bytes - before.wal_bytes, self.commits - before.commits, rows)


def sample(database_url: str) -> Writes:
    with psycopg.connect(database_url, autocommit=True, connect_timeout=5) as conn:
        wal = conn.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint").fetchone()
        commits = conn.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
        rows = {
            f"{schema}.{table}": (int(ins), int(upd), int(dele), int(size))
            for schema, table, ins, upd, dele, size in conn.execute(
                "SELECT schemaname, relname, n_tup_ins, n_tup_upd, n_tup_del, pg_total_relation_size(relid)"
                " FROM pg_stat_user_tables"
            )
        }
    return Writes(int(wal[0]) if wal else 0, int(commits[0]) if commits else 0, rows)


def per_command(writes: Writes, commands: int, top: int = 12) -> list[str]:
    """Lines to print: WAL bytes and commits per command, then the busiest tables' rows and growth
    per command (a table grows by whole pages: over a short phase a small table's growth is noise)."""
    n = max(1, commands)
    lines = [
        f"WAL {writes.wal_bytes / n:,.0f} bytes per command, {writes.commits / n:.2f} commits per "
        f"command ({commands} commands)"
    ]
    busiest = sorted(writes.rows.items(), key=lambda kv: -sum(kv[1][:3]))[:top]
    for table, (ins, upd, dele, size) in busiest:
        lines.append(
            f"  {table:<40} ins {ins / n:6.2f}  upd {upd / n:6.2f}  del {dele / n:6.2f}"
            f"  grew {size / n:8,.0f} bytes"
        )
    return lines
