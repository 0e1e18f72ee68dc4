"""`make run` and the e2e stacks relay every service from one process and run every service's
subscriptions in another (a process each would cost a Python start and its imports each)."""

from __future__ import annotations

import pytest

from libs.devstack import processes
from libs.kit import discover, service_names
from libs.kit.relay import pairs


def test_one_relay_process_relays_every_service_from_its_own_schema() -> None:
    relays = processes.relays()
    assert relays.name == "relays"
    assert relays.argv[1:3] == ["-m", "libs.kit.relay"]
    services = relays.argv[4::2]
    assert relays.argv[3::2] == ["--service"] * len(services)
    assert services == service_names()
    assert pairs(services, None) == [(svc, svc) for svc in services]


def test_one_consumer_process_runs_every_consuming_service() -> None:
    consumers = processes.consumers()
    assert consumers.name == "consumers"
    assert consumers.argv[1:3] == ["-m", "libs.kit.consume"]
    assert consumers.argv[3:] == [svc.name for svc in discover() if svc.subscriptions]
    assert len(consumers.argv[3:]) > 1


def test_each_relay_is_given_its_schema_or_none_is() -> None:
    assert pairs(["match"], ["match_x"]) == [("match", "match_x")]
    assert pairs(["a", "b"], ["sa", "sb"]) == [("a", "sa"), ("b", "sb")]
    with pytest.raises(SystemExit):
        pairs(["a", "b"], ["sa"])
