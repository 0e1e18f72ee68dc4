"""Every discovered service but accounts gets the kit's revocation subscription (issue 12,
finding 8): a new service honours log-outs without declaring anything."""

from __future__ import annotations

import dataclasses

from libs import kit
from libs.bus import topic_for
from libs.kit.sessions import (
    ACCOUNTS_TOPIC,
    ALL_SESSIONS_REVOKED,
    SESSION_REVOKED,
    consumer_name,
    with_kit_subscriptions,
)
from services.accounts.events import CATALOG as ACCOUNTS


def test_every_service_but_accounts_subscribes_to_revocations() -> None:
    services = kit.discover()
    assert len(services) >= 6
    for svc in services:
        revocations = [s for s in svc.subscriptions if SESSION_REVOKED in s.handlers]
        if svc.name == "accounts":
            assert svc.own_sessions and revocations == []
            continue
        assert not svc.own_sessions
        [sub] = revocations
        assert sub.name == consumer_name(svc.name) == f"{svc.name}-sessions"
        assert sub.topics == (topic_for("accounts"),)
        assert set(sub.handlers) == {SESSION_REVOKED, ALL_SESSIONS_REVOKED}
        assert sub.receiver is not None


def test_the_subscription_follows_accounts_declarations() -> None:
    assert ACCOUNTS_TOPIC == topic_for("accounts") == ACCOUNTS.topic
    assert {SESSION_REVOKED, ALL_SESSIONS_REVOKED} <= set(ACCOUNTS.types())


def test_a_new_service_gets_it_once() -> None:
    defn = kit.definition("ratings")
    bare = dataclasses.replace(defn, name="newcomer", subscriptions=())
    added = with_kit_subscriptions(bare)
    assert [s.name for s in added.subscriptions] == ["newcomer-sessions"]
    assert with_kit_subscriptions(added) == added
    assert with_kit_subscriptions(dataclasses.replace(bare, own_sessions=True)).subscriptions == ()
