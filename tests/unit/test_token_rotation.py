"""Issue 19: rotating the token key logs nobody out. With the new key as ARCANA_TOKEN_SECRET and
the old one as ARCANA_TOKEN_SECRET_PREVIOUS, tokens of both keys verify; once the previous key
is removed, its tokens are refused (docs/operations.md, "Rotating secrets")."""

from __future__ import annotations

import uuid

import pytest

from libs.web.auth import issue_token, verify_rotating
from libs.web.errors import ApiError

OLD = "o" * 48
NEW = "n" * 48


def test_tokens_of_the_previous_key_stay_valid_during_a_rotation() -> None:
    player = uuid.uuid4()
    before = issue_token(OLD, player, 3600).token
    after = issue_token(NEW, player, 3600).token
    assert verify_rotating(NEW, OLD, before).player_id == player
    assert verify_rotating(NEW, OLD, after).player_id == player


def test_after_the_rotation_the_previous_keys_tokens_are_refused() -> None:
    before = issue_token(OLD, uuid.uuid4(), 3600).token
    with pytest.raises(ApiError) as refused:
        verify_rotating(NEW, None, before)
    assert refused.value.status == 401
    with pytest.raises(ApiError):
        verify_rotating(NEW, "x" * 48, before)  # a key that never signed it
