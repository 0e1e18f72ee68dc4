"""Kafka users and ACLs (issue 12, finding 3; issue 17, finding 5): the component
deploy/k8s/components/kafka-acls, enabled by the production overlay, has one Strimzi KafkaUser per
service that may write only its own topics and read only those it subscribes to, as each service
declares them; its relay and consumers log in as that user; the dev overlay keeps the open broker."""

from __future__ import annotations

import yaml

from libs import kit
from libs.bus.topics import dead_letter_topic
from libs.config import PROJECT_ROOT
from libs.kit import acls, kafka_topics
from tests.unit.deploy.rendering import K8S, PRODUCTION, render

COMPONENT = PROJECT_ROOT / "deploy" / "k8s" / "components" / "kafka-acls"
USERS = COMPONENT / "kafka-users.yaml"
PATCHES = COMPONENT / "client-patches.yaml"


def _users() -> dict[str, dict]:
    docs = [d for d in yaml.safe_load_all(USERS.read_text()) if d]
    assert all(d["kind"] == "KafkaUser" for d in docs)
    return {d["metadata"]["name"]: d for d in docs}


def _granted(user: dict, kind: str, operation: str) -> set[str]:
    return {
        a["resource"]["name"]
        for a in user["spec"]["authorization"]["acls"]
        if a["resource"]["type"] == kind and operation in a["operations"]
    }


def test_the_checked_in_users_are_those_the_services_declare() -> None:
    assert USERS.read_text() == acls.render(kit.discover()), "stale: run `make kafka-acls`"
    assert PATCHES.read_text() == acls.render_patches(kit.discover()), "stale: run `make kafka-acls`"
    topics = COMPONENT / "kafka-topics.yaml"
    assert topics.read_text() == kafka_topics.render(kit.discover()), "stale: run `make kafka-acls`"


def test_each_service_writes_only_its_own_topics_and_reads_only_its_subscriptions() -> None:
    users = _users()
    services = kit.discover()
    assert set(users) == {f"arcana-{s.name}" for s in services} | {acls.ANALYST}
    for svc in services:
        user = users[f"arcana-{svc.name}"]
        assert user["spec"]["authentication"]["type"] == "scram-sha-512"
        assert user["spec"]["authorization"]["type"] == "simple"
        own = {c.topic for c in svc.events} | {dead_letter_topic(svc.name)}
        assert _granted(user, "topic", "Write") == own
        assert _granted(user, "topic", "Create") == own
        assert _granted(user, "topic", "Read") == {t for sub in svc.subscriptions for t in sub.topics}
        assert _granted(user, "group", "Read") == {sub.name for sub in svc.subscriptions}
        assert all(t.startswith(f"arcana.{svc.name}.") for t in own)
        for acl in user["spec"]["authorization"]["acls"]:
            assert acl["resource"]["patternType"] == "literal"  # no prefixes, no wildcards
            assert set(acl["operations"]) <= {"Create", "Describe", "Write", "Read"}


def test_every_topic_has_one_writer_and_every_read_topic_a_writer() -> None:
    users = _users().values()
    written = [t for u in users for t in _granted(u, "topic", "Write")]
    assert len(written) == len(set(written))
    assert {t for u in users for t in _granted(u, "topic", "Read")} <= set(written)


def test_the_users_are_for_the_strimzi_api_current_strimzi_serves() -> None:
    assert {u["apiVersion"] for u in _users().values()} == {"kafka.strimzi.io/v1"}


def test_the_dev_overlay_keeps_the_open_broker() -> None:
    docs = render(K8S / "overlays" / "dev")
    assert not [d for d in docs if d["kind"] in ("KafkaUser", "KafkaTopic")]
    for d in docs:
        if d["kind"] == "Deployment":
            for container in d["spec"]["template"]["spec"]["containers"]:
                assert "KAFKA_SASL_USERNAME" not in {e["name"] for e in container.get("env", [])}


def test_production_logs_each_relay_and_consumer_in_as_its_services_user() -> None:
    docs = render(PRODUCTION)
    users = [d for d in docs if d["kind"] == "KafkaUser"]
    assert len(users) == len(kit.discover()) + 1  # and the analysts'
    assert {u["metadata"]["labels"]["strimzi.io/cluster"] for u in users} == {acls.STRIMZI_CLUSTER}
    [config] = [d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "arcana-config"]
    assert config["data"]["KAFKA_BOOTSTRAP_SERVERS"] == acls.TLS_BOOTSTRAP
    deployments = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Deployment"}
    logged_in = set()
    for name, deployment in deployments.items():
        pod = deployment["spec"]["template"]["spec"]
        for container in pod["containers"]:
            env = {e["name"]: e.get("value") for e in container.get("env", [])}
            if "KAFKA_SASL_USERNAME" not in env:
                continue
            logged_in.add(name)
            service = name.rsplit("-", 1)[0]
            assert (
                env["KAFKA_SASL_USERNAME"] == f"arcana-{service}"
                and env["KAFKA_SECURITY_PROTOCOL"] == "SASL_SSL"
            )
            secrets = {v["name"]: v["secret"]["secretName"] for v in pod["volumes"] if "secret" in v}
            assert secrets["kafka-user"] == f"arcana-{service}"
            mounts = {m["name"] for m in container["volumeMounts"]}
            assert {"kafka-user", "kafka-ca", "tmp", "secrets"} <= mounts  # the base's mounts kept
    expected = {f"{s.name}-relay" for s in kit.discover()}
    expected |= {f"{s.name}-consumers" for s in kit.discover() if s.subscriptions}
    assert logged_in == expected  # the Kafka clients, and nothing else


def test_the_analysts_user_reads_the_public_and_records_topics_and_writes_nothing() -> None:
    analyst = _users()[acls.ANALYST]
    catalogs = {c.topic for s in kit.discover() for c in s.events if not c.private}
    assert _granted(analyst, "topic", "Read") == catalogs
    assert "arcana.match.records" in catalogs and "arcana.match.events" in catalogs
    assert not _granted(analyst, "topic", "Write") and not _granted(analyst, "topic", "Create")
    assert not any(t.endswith(".dead-letters") for t in _granted(analyst, "topic", "Read"))
    (group,) = [
        a["resource"] for a in analyst["spec"]["authorization"]["acls"] if a["resource"]["type"] == "group"
    ]
    assert group == {"type": "group", "name": "arcana-analyst-", "patternType": "prefix"}


def test_only_the_match_service_reads_the_deck_lists() -> None:
    """Issue 34, finding 2: economy's active decks with their cards go to a topic of their own that
    the match service's user alone may read (never the analysts', while a match plays the deck);
    economy's public topic, which the analysts read, carries no deck list (tests/integration/economy/
    test_published_decks.py)."""
    readers = {
        name for name, user in _users().items() if "arcana.economy.decks" in _granted(user, "topic", "Read")
    }
    assert readers == {"arcana-match"}
    assert "arcana.economy.events" in _granted(_users()[acls.ANALYST], "topic", "Read")
