"""An analyst's round trip (issue 20): `arcana export` of a service with real activity, `arcana import`
into an empty database, `arcana rebuild` — and every read model is what the service itself built."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from psycopg import sql

from libs.db import migrate
from libs.games.arcana import STARTER_DECK
from services.economy.projections import TABLES
from tests.integration.economy.conftest import MIGRATIONS, OPERATOR
from tests.unit.test_arcana_command import arcana


def activity(client: Any, app: Any) -> None:
    """Packs, a disenchant, a craft, decks saved and activated, an operator grant: every kind of event."""
    for n in range(3):
        me = client()
        for seed in range(n + 1):
            assert me.post("/v1/packs", {"client_seed": f"seed-{n}-{seed}"}).status_code == 201
        deck = me.post("/v1/decks", {"name": f"deck {n}", "cards": list(STARTER_DECK)}).get_json()
        assert me.post(f"/v1/decks/{deck['deck_id']}/activate").status_code == 200
        assert me.post("/v1/disenchants", {"card_id": "wolf_pup"}).status_code == 201  # deck now illegal
        grant = {"player_id": me.id, "coins": 100 * (n + 1), "reason": "compensation"}
        auth = {"Authorization": f"Bearer {OPERATOR}"}
        assert app.test_client().post("/v1/admin/grants", json=grant, headers=auth).status_code == 201


def read_models(pool: Any, schema: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every projection table's rows, sorted; ledger positions as their rank (an import gives each
    service's positions anew, in the same order)."""
    models = {}
    with pool.connection() as conn:
        for table in TABLES:
            rows = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.Identifier(schema, table))).fetchall()
            models[table] = sorted(rows, key=repr)
        ranked = conn.execute(
            sql.SQL(
                "SELECT dense_rank() OVER (ORDER BY position), event_id, currency, player_id, amount, "
                "balance_after, reason, source, occurred_at FROM {} ORDER BY 1, 3"
            ).format(sql.Identifier(schema, "ledger"))
        ).fetchall()
    models["ledger"] = ranked
    return models


def test_export_import_rebuild_gives_identical_read_models(
    client: Any, app: Any, pool: Any, postgres_url: str, economy_schema: str, schema_name: str, tmp_path: Path
) -> None:
    activity(client, app)
    before = read_models(pool, economy_schema)
    assert len(before["ledger"]) > 10 and before["decks"]

    env = {**os.environ, "DATABASE_URL": postgres_url, "ARCANA_ECONOMY_SCHEMA": economy_schema}
    export = tmp_path / "economy.jsonl"
    done = arcana("export", "--service", "economy", "--output", str(export), env=env)
    assert done.returncode == 0, done.stderr

    copy = f"{schema_name}_copy"
    migrate(postgres_url, copy, [MIGRATIONS])
    env["ARCANA_ECONOMY_SCHEMA"] = copy
    imported = arcana("import", str(export), env=env)
    assert imported.returncode == 0, imported.stderr
    assert f"economy: {len(export.read_text().splitlines())} events imported" in imported.stdout
    rebuilt = arcana("rebuild", "economy", env=env)
    assert rebuilt.returncode == 0, rebuilt.stderr

    assert read_models(pool, copy) == before

    again = arcana("import", str(export), env=env)  # the copy is no longer empty: refused, nothing written
    assert again.returncode == 2 and "not empty" in again.stderr
    assert read_models(pool, copy) == before
