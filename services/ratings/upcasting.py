"""Ratings' stored events of older shapes, read as the current ones (never rewritten).

Version 1 of ``RatingChanged`` had one rating, visible and hidden alike: it reads with
``hidden_before``/``hidden_after`` equal to ``before``/``after`` and no reason. Every reader of
ratings' store (the service, ``arcana rebuild``, ``arcana export``) reads through these; consumers of
the topic read through the contract's own ``RatingChanged.UPCASTERS``.
"""

from __future__ import annotations

from libs.contracts.ratings import RatingChanged, hidden_as_visible
from libs.eventstore import Upcasters

UPCASTERS = Upcasters()
UPCASTERS.register(RatingChanged.TYPE, 1)(hidden_as_visible)
