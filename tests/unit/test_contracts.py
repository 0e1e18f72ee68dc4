"""The integration events both sides import (libs.contracts): one strict decode per type, older
shapes still read, bad data refused with MalformedEvent (which the consumer dead-letters)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

import libs.contracts as contracts
from libs.contracts import (
    AccountSuspended,
    DisplayNameChanged,
    IntegrationEvent,
    MalformedEvent,
    MatchEnded,
    OperatorActed,
    RatingChanged,
    RewardGranted,
    integration_event,
)

ENDED: dict[str, Any] = {
    "winner": "a",
    "reason": "hero_killed",
    "match_id": "m1",
    "mode": "ranked",
    "players": ["a", "b"],
    "loser": "b",
    "draw": False,
    "turns": 9,
    "round": 5,
    "bot": None,
    "stats": {"a": {"went_first": True}},
}


def envelope(kind: str, data: Any, version: int = 1) -> SimpleNamespace:
    return SimpleNamespace(type=kind, schema_version=version, data=data)


def test_a_stored_match_ended_decodes_and_its_game_is_arcana_when_absent() -> None:
    stored = {**ENDED, "type": "MatchEnded", "state_hash": "ab12"}  # the rules' keys ride along
    ended = MatchEnded.decode(envelope("MatchEnded", stored))
    assert ended.game == "arcana" and ended.players == ["a", "b"] and ended.turns == 9
    assert MatchEnded.decode_data({**ENDED, "game": "duel"}).game == "duel"
    older = {k: v for k, v in ENDED.items() if k not in ("bot", "stats")}
    assert MatchEnded.decode_data(older).stats == {} and MatchEnded.decode_data(older).bot is None


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({k: v for k, v in ENDED.items() if k != "turns"}, "no 'turns'"),
        ({**ENDED, "turns": None}, "'turns' is not int"),
        ({**ENDED, "turns": "9"}, "'turns' is not int"),
        ({**ENDED, "turns": True}, "'turns' is not int"),
        ({**ENDED, "draw": 0}, "'draw' is not bool"),
        ({**ENDED, "players": ["a", 7]}, "'players' is not list[str]"),
        ({**ENDED, "loser": 3}, "'loser' is not str or null"),
        ({**ENDED, "stats": []}, "'stats' is not dict[str, any]"),
        (["not", "an", "object"], "data is not an object"),
    ],
)
def test_bad_data_does_not_decode(data: Any, says: str) -> None:
    with pytest.raises(MalformedEvent, match=re.escape(says)):
        MatchEnded.decode_data(data)


def test_an_envelope_of_another_type_does_not_decode() -> None:
    with pytest.raises(MalformedEvent, match="RatingChanged is not a MatchEnded"):
        MatchEnded.decode(envelope("RatingChanged", ENDED))


def test_every_contract_reads_back_what_its_producer_writes() -> None:
    made = {
        RatingChanged: RatingChanged("p", "m", 900, 920, "bronze", "bronze", 20, "win", 900, 920),
        RewardGranted: RewardGranted("r", "p", 20, 0, "quest", {"quest_id": "q", "day": "2026-12-01"}),
        MatchEnded: MatchEnded(**ENDED),
        DisplayNameChanged: DisplayNameChanged("p", "Night Owl"),
        OperatorActed: OperatorActed("refund", "alice", "a bug", "p", "wallet-p", {"coins": 5}),
        AccountSuspended: AccountSuspended("p"),
    }
    for cls, event in made.items():
        assert cls.decode(envelope(cls.TYPE, event.data())) == event
    declared = [getattr(contracts, n) for n in contracts.__all__]
    events = [c for c in declared if isinstance(c, type) and issubclass(c, IntegrationEvent)]
    assert len({c.TYPE for c in events if c is not IntegrationEvent}) == 21  # one class per type


@integration_event("Renamed", version=3)
@dataclass(frozen=True)
class Renamed(IntegrationEvent):
    name: str = field(metadata={"doc": "was `title` in version 1"})
    size: int = field(metadata={"doc": "added in version 3"})

    UPCASTERS = {
        1: lambda d: {**{k: v for k, v in d.items() if k != "title"}, "name": d["title"]},
        2: lambda d: {**d, "size": 0},
    }


def test_older_versions_are_upcast_in_turn_before_the_check() -> None:
    assert Renamed.decode(envelope("Renamed", {"title": "x"}, version=1)) == Renamed("x", 0)
    assert Renamed.decode(envelope("Renamed", {"name": "y"}, version=2)) == Renamed("y", 0)
    assert Renamed.decode(envelope("Renamed", {"name": "z", "size": 4}, version=3)) == Renamed("z", 4)
