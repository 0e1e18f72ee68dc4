"""The accounts domain and password hashing: pure, no I/O."""

from __future__ import annotations

import uuid

import pytest

from services.accounts import domain
from services.accounts.passwords import ScryptParams, hash_password, verify_password

FAST = ScryptParams(n=2**10, r=8, p=1)


@pytest.mark.parametrize("name", ["abc", "a" * 24, "player_1", "ABC_def", "___"])
def test_valid_usernames(name: str) -> None:
    assert domain.username_problem(name) is None


@pytest.mark.parametrize("name", ["ab", "a" * 25, "a-b", "a b", "ålice", "a.b", "", "abc\n"])
def test_invalid_usernames(name: str) -> None:
    assert domain.username_problem(name)


@pytest.mark.parametrize(
    ("password", "ok"), [("1234567", False), ("12345678", True), ("p" * 128, True), ("p" * 129, False)]
)
def test_password_length_rule(password: str, ok: bool) -> None:
    assert (domain.password_problem(password) is None) is ok


def test_register_player_normalises_and_the_event_carries_nothing_of_the_person() -> None:
    command = domain.RegisterPlayer(
        "Alice", "\uff53\uff45\uff43\uff52\uff45\uff54 password"
    )  # full-width: NFKC
    assert command.username == "alice" and command.password == "secret password"
    player = uuid.uuid4()
    event = domain.register(command, player)
    assert domain.player_stream(player) == f"player-{player}"
    assert event.data() == {"player_id": str(player)}  # neither password nor username (issue 34)
    assert (event.TYPE, event.VERSION) == ("PlayerRegistered", 2)


def test_register_player_enforces_the_rules() -> None:
    with pytest.raises(domain.InvalidInput) as exc:
        domain.RegisterPlayer("a!", "long enough")
    assert exc.value.field == "username"
    with pytest.raises(domain.InvalidInput) as exc:
        domain.RegisterPlayer("alice", "short")
    assert exc.value.field == "password"


def test_hashes_are_salted_and_verify_in_constant_time_form() -> None:
    a, b = hash_password("the password", FAST), hash_password("the password", FAST)
    assert a != b and a.startswith("scrypt$1024$8$1$")
    assert verify_password("the password", a) and verify_password("the password", b)
    assert not verify_password("the passwore", a)


@pytest.mark.parametrize(
    "stored", ["", "plain", "bcrypt$x$y$z$a$b", "scrypt$3$8$1$AA$AA", "scrypt$1024$8$1$!!$AA"]
)
def test_unreadable_hashes_never_match(stored: str) -> None:
    assert verify_password("anything", stored) is False


def test_production_parameters_are_strong_and_env_can_lower_them(monkeypatch: pytest.MonkeyPatch) -> None:
    assert ScryptParams() == ScryptParams(n=2**15, r=8, p=3)
    monkeypatch.setenv("ARCANA_SCRYPT_N", "1024")
    assert ScryptParams.from_env().n == 1024
    monkeypatch.setenv("ARCANA_SCRYPT_N", "1000")
    with pytest.raises(ValueError):
        ScryptParams.from_env()


def test_an_address_waits_by_its_own_failures_only() -> None:
    assert domain.failures_over_limit(own=1, total=26, free=10, known_address=False) == 1  # the owner's typo
    assert domain.failures_over_limit(own=16, total=16, free=10, known_address=False) == 6  # a lone guesser
    assert domain.failures_over_limit(own=3, total=9, free=10, known_address=False) == 0  # under the limit
    assert domain.failures_over_limit(own=3, total=40, free=10, known_address=True) == 0  # logged in here
    assert domain.failures_over_limit(own=12, total=40, free=10, known_address=True) == 2
