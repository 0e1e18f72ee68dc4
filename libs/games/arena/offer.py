"""What the arena offers the platform (``libs.games.offer``): a casual queue only, for tables of 2 to
4 seated by the sizes each ticket accepts, no deck, no ladder; 60 coins to the first placement group
and 20 to every other place; pass XP like a casual Arcana match, the quests every game reports."""

from __future__ import annotations

from libs.games.offer import CASUAL, FairPlay, Offer, Progress, Queue, Reward, Rewards

from .constants import SEATS

WIN_COINS = 60  # the first placement group
PLACE_COINS = 20  # every other place
SHARED_FACTS = ("matches", "wins")  # the quest facts an arena match reports

OFFER = Offer(
    queue=Queue((CASUAL,), tuple(sorted(SEATS)), choose_sizes=True),
    rewards=Rewards.every_mode(Reward("coins", WIN_COINS), Reward("coins", PLACE_COINS)),
    progress=Progress(facts=SHARED_FACTS),
    fair_play=FairPlay("casual_only", tuple(sorted(SEATS))),
)
