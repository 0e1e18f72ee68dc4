"""Named operator tokens (``ARCANA_OPERATOR_TOKENS``): whose token a request carries is what the
audit log records as the operator."""

from __future__ import annotations

import pytest

from libs.web.operators import SHARED, BadOperatorTokens, named_tokens, operator_named

ALICE, BOB = "a" * 20, "b" * 24


def test_each_token_names_its_operator_and_the_shared_one_is_operator() -> None:
    tokens = named_tokens("s" * 32, f"alice={ALICE}, bob={BOB}")
    assert tokens == {SHARED: "s" * 32, "alice": ALICE, "bob": BOB}
    assert operator_named(tokens, BOB) == "bob"
    assert operator_named(tokens, "s" * 32) == SHARED
    assert operator_named(tokens, ALICE[:-1]) is None
    assert named_tokens(None, None) == {}


@pytest.mark.parametrize(
    "named",
    [f"alice{ALICE}", f"Alice={ALICE}", f"alice={ALICE},alice={BOB}", "alice=short", f"operator={ALICE}"],
)
def test_a_malformed_list_is_refused(named: str) -> None:
    with pytest.raises(BadOperatorTokens):
        named_tokens("s" * 32, named)


def test_an_app_does_not_start_with_a_malformed_list() -> None:
    from libs.config import Settings
    from libs.web.app import base_app

    settings = Settings(
        "postgresql://nowhere/none", "", "", "s" * 40, 60, None, 1024, operator_tokens="alice"
    )
    with pytest.raises(BadOperatorTokens):
        base_app("accounts", schema="accounts", settings=settings)
