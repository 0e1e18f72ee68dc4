"""Issue 17, finding 6: the growing delay after failed log-ins follows the failing address's own
history. A stranger's 25 guesses for a username made the owner's one typo cost 900 s; now the
owner waits the first step at most, and an address that has logged in as the username keeps a
normal pace. Time moves with ``libs.clock``; nothing sleeps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from libs import clock
from services.accounts.service import LoginPolicy
from tests.integration.accounts.conftest import PASSWORD
from tests.integration.accounts.test_lockout import assert_error_with_wait
from tests.integration.web.shape import assert_error

Login = Callable[..., Any]
OWNER = "203.0.113.9"


@pytest.fixture
def policy() -> LoginPolicy:
    """The production policy (10 free failures per username, a 900 s window, at most 900 s)."""
    return LoginPolicy()


def _stranger_guesses(login: Login, username: str, n: int = 25) -> None:
    for i in range(n):  # one guess from each of n addresses: none over its own limits
        assert_error(login(username, f"guess {i}", address=f"198.51.100.{i}"), 401, "invalid_credentials")


def test_a_strangers_guesses_do_not_make_the_owners_typo_cost_more_than_the_first_step(
    register: Callable[..., Any], login: Login
) -> None:
    register("rosa")
    _stranger_guesses(login, "rosa")
    assert_error(login("rosa", "typo typo", address=OWNER), 401, "invalid_credentials")
    assert assert_error_with_wait(login("rosa", PASSWORD, address=OWNER)) == 2  # was 900
    clock.advance(2)
    assert login("rosa", PASSWORD, address=OWNER).status_code == 201


def test_an_address_that_logged_in_keeps_a_normal_pace(register: Callable[..., Any], login: Login) -> None:
    register("sven")
    assert login("sven", PASSWORD, address=OWNER).status_code == 201
    clock.advance(3600)
    _stranger_guesses(login, "sven")
    for i in range(3):  # typos from the owner's known address: answered at once, never delayed
        assert_error(login("sven", f"typo {i}", address=OWNER), 401, "invalid_credentials")
    assert login("sven", PASSWORD, address=OWNER).status_code == 201


def test_a_guesser_at_one_address_still_waits_longer_each_time(
    register: Callable[..., Any], login: Login
) -> None:
    register("tove")
    _stranger_guesses(login, "tove", 10)  # the username's free failures, spent elsewhere
    waits = []
    for i in range(6):
        assert_error(login("tove", f"again {i}", address="192.0.2.1"), 401, "invalid_credentials")
        waits.append(assert_error_with_wait(login("tove", "early", address="192.0.2.1")))
        clock.advance(waits[-1])
    assert waits == [2, 4, 8, 16, 32, 64]
