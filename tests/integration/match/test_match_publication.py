"""No hidden information on the bus (issue 12, finding 2). The relay, following match's declared
publication, publishes to a real broker while a real match runs: ``arcana.match.events`` carries
only what a spectator may see (no card still hidden, no seed, no deck list or order, no state
hash, no DeckShuffled), ``arcana.match.lifecycle`` exactly the live topic's lifecycle events
(what other services consume) and none of the moves, and ``arcana.match.records`` nothing of the
match until it has ended, then every stored event exactly as stored."""

from __future__ import annotations

import json
import random
from typing import Any

from libs.bus import OutboxRelay
from libs.eventstore import EventStore
from libs.kit import definition
from services.match.service import MatchService
from tests.integration.bus.helpers import Message, RawReader, wait_until
from tests.integration.match.play import decks_without_common_cards, next_move
from tests.leaks import SECRET_KEYS, strings_and_keys

LIVE, LIFECYCLE, RECORDS = "arcana.match.events", "arcana.match.lifecycle", "arcana.match.records"
LIFECYCLE_TYPES = {
    "MatchCreated",
    "MatchRequestRejected",
    "PlayerDisconnected",
    "PlayerReconnected",
    "MatchEnded",
}


def _of(reader: RawReader, match_id: str) -> list[dict[str, Any]]:
    """The envelopes of the match's stream on the reader's topic so far (a shared topic)."""
    messages: list[Message] = reader.poll()
    return [m.event for m in messages if m.key == f"match-{match_id}"]


def _through_the_end(reader: RawReader, match_id: str, what: str) -> list[dict[str, Any]]:
    """The match's envelopes on the reader's topic, once its ``MatchEnded`` is among them."""

    def ended() -> list[dict[str, Any]] | None:
        seen = _of(reader, match_id)
        return seen if any(e["type"] == "MatchEnded" for e in seen) else None

    return wait_until(ended, 60, what)


def _hidden(stored: list[Any], version: int) -> set[str]:
    """What a spectator must not know at ``version``: every instance id and card id not played yet."""
    started = next(e.data for e in stored if e.type == "MatchStarted")
    played = {e.data["card"] for e in stored if e.type == "CardPlayed" and e.version <= version}
    hidden: set[str] = set()
    for p in started["players"]:
        cards = dict(zip(p["instances"], p["deck"], strict=True))
        hidden |= {i for i in cards if i not in played}
        hidden |= {c for c in cards.values() if c not in {cards[i] for i in played if i in cards}}
    return hidden


def _check_live(live: list[dict[str, Any]], stored: list[Any]) -> None:
    seed = str(next(e.data for e in stored if e.type == "MatchStarted")["seed"])
    assert live and all(e["type"] != "DeckShuffled" for e in live)
    for envelope in live:
        strings: set[str] = set()
        keys: set[str] = set()
        strings_and_keys(envelope["data"], strings, keys)
        text = json.dumps(envelope["data"])
        leaked = strings & _hidden(stored, envelope["version"])
        assert not leaked, f"{envelope['type']} v{envelope['version']} shows {sorted(leaked)}: {text[:300]}"
        assert not keys & SECRET_KEYS, f"{envelope['type']}: secret keys {keys & SECRET_KEYS}"
        assert seed not in text
    drawn = [e for e in live if e["type"] == "CardDrawn"]
    assert drawn and all(set(e["data"]) <= {"player_id", "type"} for e in drawn)


def test_the_live_topic_carries_only_public_forms_and_the_record_comes_after_the_end(
    make_player: Any, admin: Any, svc: MatchService, match_schema: str, pool: Any, kafka_bootstrap: str
) -> None:
    deck_a, deck_b = decks_without_common_cards()
    alice, bob = make_player(), make_player()
    players = {alice.id: alice, bob.id: bob}
    match_id = admin([alice, bob], [deck_a, deck_b])
    relay = OutboxRelay(
        EventStore(pool, match_schema), "match", kafka_bootstrap, publication=definition("match").publication
    )
    live_reader, records_reader = RawReader(kafka_bootstrap, LIVE), RawReader(kafka_bootstrap, RECORDS)
    lifecycle_reader = RawReader(kafka_bootstrap, LIFECYCLE)
    rng = random.Random(5)
    relay.start()
    try:
        for _ in range(30):  # well into the match
            move = next_move(svc, match_id, rng)
            assert move is not None
            players[move[0]].command(match_id, move[1])
        stored = svc.matches.read_events(match_id)
        wait_until(lambda: relay.progress()[0] >= stored[-1].position, 60, "the running match relayed")
        last_public = max(e.version for e in stored if e.type != "DeckShuffled")
        wait_until(lambda: any(e["version"] == last_public for e in _of(live_reader, match_id)), 60, "live")
        _check_live(_of(live_reader, match_id), stored)
        assert _of(records_reader, match_id) == []  # nothing of a running match

        while (move := next_move(svc, match_id, rng)) is not None:
            players[move[0]].command(match_id, move[1])
        stored = svc.matches.read_events(match_id)
        assert stored[-1].type == "MatchEnded"
        records = wait_until(lambda: _of(records_reader, match_id) or None, 60, "the record")
        wait_until(lambda: len(_of(records_reader, match_id)) >= len(stored), 60, "the whole record")
        records = _of(records_reader, match_id)
        assert records == [e.to_dict() for e in stored]  # every event, exactly as stored
        live = _through_the_end(live_reader, match_id, "the live end")
        _check_live(live, stored)
        (ended,) = [e for e in live if e["type"] == "MatchEnded"]
        assert ended["data"]["stats"] and ended["data"]["winner"] == stored[-1].data["winner"]
        assert {e["event_id"] for e in live} < {e["event_id"] for e in records}
        lifecycle = _through_the_end(lifecycle_reader, match_id, "the lifecycle end")
        assert [e["type"] for e in lifecycle] == ["MatchCreated", "MatchEnded"]
        assert lifecycle == [e for e in live if e["type"] in LIFECYCLE_TYPES]  # as live, no moves
    finally:
        relay.stop()
        live_reader.close()
        records_reader.close()
        lifecycle_reader.close()
