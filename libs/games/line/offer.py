"""What the line offers the platform (``libs.games.offer``): ranked and casual queues of two, ranked
after 3 training battles (finished practice matches, won or lost), its own MMR ladder, shards for
rewards, arena XP on a track of its own instead of pass XP, and its card collection (the welcome set
claimed once, lines of five saved of it, each shown with the links it lights), and its tournament (an
entry of ten, 8-seat brackets, place prizes in shards: docs/line.md, "Tournament")."""

from __future__ import annotations

import random
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
    Prize,
    Progress,
    Queue,
    Reward,
    Rewards,
    Tournament,
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
TOURNAMENT_ENTRY = 10  # seed 001: "a separate 10-card entry"
TOURNAMENT_SEATS = 8
TOURNAMENT_FILL_AFTER = 60  # seconds after the first entry; then bots take the empty seats
TOURNAMENT_CHOOSE_SECONDS = 30  # to choose a round's five, else the default five fights
TOURNAMENT_ENTRIES_PER_DAY = 3  # bots fill brackets: without a limit, a farm of shards
TOURNAMENT_PRIZES = (  # shards by place: 1st, 2nd, 3rd-4th, 5th-8th
    Prize(1, 1, Reward("shards", 6_000)),
    Prize(2, 2, Reward("shards", 3_000)),
    Prize(3, 4, Reward("shards", 1_500)),
    Prize(5, 8, Reward("shards", 500)),
)


def default_lineup(entry: Sequence[str]) -> tuple[str, ...]:
    """The five a player who did not choose fights with: autofill of the entry alone."""
    return autofill(entry)


def bot_entry(rng: random.Random) -> list[str]:
    """A bot's ten: ten cards of the welcome set (what a new player owns)."""
    return rng.sample(sorted(WELCOME_SET), TOURNAMENT_ENTRY)


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
    tournament=Tournament(
        TOURNAMENT_ENTRY,
        TOURNAMENT_SEATS,
        TOURNAMENT_FILL_AFTER,
        TOURNAMENT_CHOOSE_SECONDS,
        TOURNAMENT_PRIZES,
        default_lineup,
        bot_entry,
        TOURNAMENT_ENTRIES_PER_DAY,
    ),
)
