"""What the line offers the platform (``libs.games.offer``): ranked and casual queues of two, ranked
after 3 training battles (finished practice matches, won or lost), its own MMR ladder, shards for
rewards, arena XP on a track of its own instead of pass XP, and its card collection (the welcome set
claimed once, lines of five saved of it, each shown with the links it lights)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from libs.games.offer import (
    BUILT_DECK,
    CASUAL,
    MMR,
    RANKED,
    Collection,
    FairPlay,
    Ladder,
    Offer,
    Progress,
    Queue,
    Reward,
    Rewards,
)

from .autofill import autofill
from .catalog import CATALOG, WELCOME_SET, line_problems
from .constants import LINE_SIZE, MAX_SAVED_LINES
from .links import active_links, bake

TRAINING_BATTLES = 3  # finished practice matches before the ranked queue opens
WIN_SHARDS = 1_500  # casual and ranked
RANKED_LOSS_SHARDS = 200
ARENA_XP_WIN = 20  # a counted match's XP on the line's own track
SHARED_FACTS = ("matches", "wins")  # the quest facts a line match reports


class LineCards:
    """The line's cards as the economy needs them."""

    def ids(self) -> Sequence[str]:
        return sorted(CATALOG)

    def card(self, card_id: str) -> dict[str, Any]:
        return CATALOG[card_id].to_dict()

    def rarity(self, card_id: str) -> str | None:
        card = CATALOG.get(card_id)
        return card.rarity if card else None

    def deck_problems(self, cards: Sequence[str], owned: Mapping[str, int]) -> list[str]:
        return line_problems(cards, owned)

    def deck_preview(self, cards: Sequence[str]) -> dict[str, Any]:
        """The links a line lights and each card's stats with them baked in (what the fight uses);
        empty for a list that is not five known cards."""
        if line_problems(cards):
            return {"links": [], "stats": []}
        row = [CATALOG[c] for c in cards]
        lit = active_links(row)
        return {"links": [link.to_dict() for link in lit], "stats": [f.to_dict() for f in bake(row, lit)]}


OFFER = Offer(
    queue=Queue((RANKED, CASUAL), (2,), deck=BUILT_DECK, ranked_after=TRAINING_BATTLES),
    ladder=Ladder(MMR, "line-rating"),
    rewards=Rewards(
        {
            CASUAL: (Reward("shards", WIN_SHARDS), None),
            RANKED: (Reward("shards", WIN_SHARDS), Reward("shards", RANKED_LOSS_SHARDS)),
        }
    ),
    progress=Progress(
        pass_xp=False, facts=SHARED_FACTS, quests_in_practice=False, track="line", track_xp=ARENA_XP_WIN
    ),
    collection=Collection(
        LineCards(), LINE_SIZE, MAX_SAVED_LINES, "shards", welcome=WELCOME_SET, autofill=autofill
    ),
    fair_play=FairPlay("winner_paid"),
)
