"""What economy's stored events become on the bus (``SERVICE.publication``; the outbox relay follows
it). Issue 34, finding 2: no deck list on a topic the analysts read before the match that plays the
deck has ended.

- ``arcana.economy.events`` (every consumer, the analysts): each event in its current shape
  (``upcasting.py``), the deck events without their cards (``events.PUBLISHED_FORMS``:
  ``DeckSaved`` 3, ``LineDeckSaved`` 2, ``ActiveDeckChanged`` 2), also when the relay publishes
  everything again from the start;
- ``arcana.economy.decks`` (the match service alone, by the Kafka ACLs): each ``ActiveDeckChanged``
  as stored, with the cards of the deck a match must play, and each ``TournamentEntryMade`` as
  stored, with the entry's cards (the bracket's decks are chosen from them).
"""

from __future__ import annotations

from collections.abc import Sequence

from libs.contracts import DECKS_TOPIC
from libs.eventstore import EventStore, RecordedEvent
from libs.kit import Publication, without
from services.economy.events import PUBLISHED_FORMS, TOPIC, ActiveDeckChanged, TournamentEntryMade
from services.economy.upcasting import UPCASTERS

LISTS = frozenset({"cards"})


def route(event: RecordedEvent, _store: EventStore) -> Sequence[tuple[str, RecordedEvent]]:
    """``event`` on the events topic without a deck list; an active deck with it on the decks topic."""
    current = UPCASTERS.upcast(event)
    published = PUBLISHED_FORMS.get(current.type)
    public = current if published is None else without(current, LISTS, published.VERSION)
    if current.type in (ActiveDeckChanged.TYPE, TournamentEntryMade.TYPE):
        return [(TOPIC, public), (DECKS_TOPIC, current)]
    return [(TOPIC, public)]


PUBLICATION = Publication(topics=(TOPIC, DECKS_TOPIC), route=route)
