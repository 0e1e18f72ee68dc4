"""Issue 12, finding 4: guesses are throttled without locking the owner out, and registrations are
throttled per client address. Time moves with ``libs.clock``; nothing sleeps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from libs import clock
from tests.integration.accounts.conftest import PASSWORD
from tests.integration.web.shape import assert_error

Login = Callable[..., Any]


def test_a_stranger_guessing_cannot_lock_the_owner_out(register: Callable[..., Any], login: Login) -> None:
    register("olivia")
    for i in range(40):  # far over the username's limit (5), from addresses under theirs (20)
        resp = login("olivia", f"guess {i}", address=f"198.51.100.{i % 4}")
        assert resp.status_code in (401, 429)
    resp = login("olivia", PASSWORD, address="203.0.113.9")
    assert resp.status_code == 201, resp.get_json()


def test_failures_over_the_username_limit_make_the_guesser_wait_longer_each_time(
    register: Callable[..., Any], login: Login
) -> None:
    register("peggy")
    for i in range(5):
        assert_error(login("peggy", f"free {i}", address="198.51.100.1"), 401, "invalid_credentials")
    waits = []
    for i in range(4):
        assert_error(login("peggy", f"over {i}", address="198.51.100.1"), 401, "invalid_credentials")
        refused = assert_error_with_wait(login("peggy", f"early {i}", address="198.51.100.1"))
        waits.append(refused)
        clock.advance(refused)
    assert waits == [2, 4, 8, 16]
    # the delay grows with the failing address's own failures (issue 17, finding 6): a new address
    # failing now waits the first step, not the guesser's next one
    assert_error(login("peggy", "elsewhere", address="198.51.100.2"), 401, "invalid_credentials")
    assert assert_error_with_wait(login("peggy", PASSWORD, address="198.51.100.2")) == 2
    # a refused attempt is not verified and does not lengthen the delay
    assert assert_error_with_wait(login("peggy", "again", address="198.51.100.2")) == 2


def assert_error_with_wait(resp: Any) -> int:
    assert_error(resp, 429, "too_many_attempts")
    return int(resp.headers["Retry-After"])


def test_the_per_address_limit_holds_even_for_a_correct_password(
    register: Callable[..., Any], login: Login
) -> None:
    register("quinn")
    for i in range(20):
        assert_error(login(f"someone_{i}", "whatever1", address="198.51.100.7"), 401, "invalid_credentials")
    assert_error(login("quinn", PASSWORD, address="198.51.100.7"), 429, "too_many_attempts")
    assert login("quinn", PASSWORD, address="198.51.100.8").status_code == 201


def test_registrations_are_throttled_per_address(
    client: FlaskClient, counts: Callable[[], dict[str, int]]
) -> None:
    def register_from(username: str, address: str) -> Any:
        return client.post(
            "/v1/accounts",
            json={"username": username, "password": PASSWORD},
            environ_base={"REMOTE_ADDR": address},
        )

    for i in range(30):  # register_per_address of the tests' policy
        assert register_from(f"reg_{i}", "198.51.100.20").status_code == 201
    before = counts()
    refused = register_from("reg_x", "198.51.100.20")
    assert_error(refused, 429, "too_many_attempts")
    assert 3500 <= int(refused.headers["Retry-After"]) <= 3600
    assert counts() == before  # no account, no event, no idempotency record
    assert register_from("reg_y", "198.51.100.21").status_code == 201
    clock.advance(3600)
    assert register_from("reg_x", "198.51.100.20").status_code == 201


def test_retries_of_one_keyed_registration_count_once_and_a_refused_key_stays_refused(
    client: FlaskClient,
) -> None:
    def register_from(username: str, key: str) -> Any:
        return client.post(
            "/v1/accounts",
            json={"username": username, "password": PASSWORD},
            headers={"Idempotency-Key": key},
            environ_base={"REMOTE_ADDR": "198.51.100.30"},
        )

    for i in range(29):  # one short of register_per_address of the tests' policy (30)
        assert register_from(f"keyed_{i}", f"k{i}").status_code == 201
    for _ in range(5):  # a retried registration is one registration: it replays, uncounted
        assert register_from("keyed_0", "k0").status_code == 201
    assert register_from("keyed_last", "k-last").status_code == 201  # the 30th
    assert_error(register_from("keyed_over", "k-over"), 429, "too_many_attempts")
    assert_error(register_from("keyed_over", "k-over"), 429, "too_many_attempts")  # no way around
