"""The services' snapshots go through the one codec (``libs.codec``) in the form their hand-written
save/load pairs stored: a snapshot stored by an older version, as PostgreSQL's JSONB gives it back,
loads to the state it was taken of, and a state saves to that form again (so the shape numbers did
not change, and no stored snapshot is ignored for it)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

from libs import codec
from libs.eventstore import Snapshots
from libs.games import registry
from services.economy.domain.wallet import Wallet
from services.economy.service import WALLET_SNAPSHOTS
from services.match import domain
from services.progression.domain.season_pass import SeasonPass
from services.progression.domain.track import LineProgress
from services.progression.service import LINE_SNAPSHOTS, PASS_SNAPSHOTS

# as the hand-written ``_save_wallet`` stored them (shape 2)
STORED_WALLET = {
    "commitment": "c0ffee",
    "opened": True,
    "coins": 120,
    "dust": 30,
    "free_packs": 1,
    "pity": 4,
    "packs_opened": 9,
    "shards": 7,
    "collection": {"emberling": 2, "tidecaller": 1},
}
WALLET = Wallet("c0ffee", True, 120, 30, 1, 4, 9, 7, MappingProxyType({"emberling": 2, "tidecaller": 1}))

# as ``_save_pass`` stored it (shape 1): no ``version``, the stream's, which the repository sets
STORED_PASS = {"player_id": "p1", "season_id": "2026-12", "xp": 450, "sources": ["match:m1", "quest:q2"]}
PASS = SeasonPass("p1", "2026-12", 450, {"quest:q2", "match:m1"})

STORED_LINE = {"player_id": "p1", "arena_xp": 80, "training_battles": 3, "matches": ["m1", "m2"]}
LINE = LineProgress("p1", 80, 3, frozenset({"m2", "m1"}))


def _stored(data: Any) -> Any:
    return json.loads(json.dumps(data))  # as the JSONB column gives it back


def _round(policy: Snapshots[Any], state: Any) -> Any:
    return policy.load(_stored(policy.save(state)))


def test_a_wallet_snapshot_of_the_older_version_loads_and_is_saved_alike() -> None:
    loaded = WALLET_SNAPSHOTS.load(_stored(STORED_WALLET))
    assert loaded == WALLET and isinstance(loaded.collection, MappingProxyType)  # read-only, as folded
    assert WALLET_SNAPSHOTS.save(WALLET) == STORED_WALLET and WALLET_SNAPSHOTS.version == 2
    assert WALLET_SNAPSHOTS.save(None) is None  # no wallet yet: nothing kept


def test_pass_and_line_snapshots_of_the_older_version_load_and_are_saved_alike() -> None:
    assert PASS_SNAPSHOTS.load(_stored(STORED_PASS)) == PASS
    assert PASS_SNAPSHOTS.save(PASS) == {**STORED_PASS, "version": 0}
    assert _round(PASS_SNAPSHOTS, PASS) == PASS and isinstance(_round(PASS_SNAPSHOTS, PASS).sources, set)
    assert LINE_SNAPSHOTS.load(_stored(STORED_LINE)) == LINE
    assert LINE_SNAPSHOTS.save(LINE) == STORED_LINE
    assert (PASS_SNAPSHOTS.version, LINE_SNAPSHOTS.version) == (1, 1)


T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def test_a_match_snapshot_of_the_older_version_loads_and_is_saved_alike() -> None:
    registry.load()
    stored = {
        "shape": domain.snapshots.shape_of("line"),
        "match": {
            "match_id": "m1",
            "mode": "casual",
            "players": ["p1", "p2"],
            "bot": None,
            "created_at": T0.isoformat(),
            "version": 2,
            "rules": None,
            "clocks": {"p1": "2026-12-01T12:00:30+00:00"},
            "disconnected": {"p2": "2026-12-01T12:00:10+00:00"},
            "rejected": False,
            "game": "line",
            "bots": [],
        },
    }
    match = domain.Match(
        "m1",
        "casual",
        ("p1", "p2"),
        None,
        T0,
        version=2,
        clocks={"p1": datetime(2026, 12, 1, 12, 0, 30, tzinfo=UTC)},
        disconnected={"p2": datetime(2026, 12, 1, 12, 0, 10, tzinfo=UTC)},
        game="line",
    )
    assert domain.restore_match(_stored(stored)) == match
    assert domain.snapshot_match(match) == stored


def test_every_service_snapshot_goes_through_the_one_codec() -> None:
    for policy in (WALLET_SNAPSHOTS, PASS_SNAPSHOTS, LINE_SNAPSHOTS):
        assert policy.save is codec.encode
