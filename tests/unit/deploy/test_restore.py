"""Issue 32, point 3: a restore the runbook carries through. The point-in-time recovery example
(deploy/k8s/restore) makes a cluster of another name from the `cloudnative-pg` component's
backups, and the component's network policy lets the applications reach it, because it selects
database pods by a label every Arcana cluster gives them, not by the name `arcana-db`."""

from __future__ import annotations

from typing import Any

from tests.unit.deploy.rendering import K8S, PRODUCTION, RESTORE, of_kind, render, render_with

Doc = dict[str, Any]
CNPG = K8S / "components" / "cloudnative-pg"


def _component() -> tuple[Doc, Doc]:
    docs = render_with(PRODUCTION, [CNPG])
    [cluster] = of_kind(docs, "Cluster")
    [policy] = [p for p in of_kind(docs, "NetworkPolicy") if p["metadata"]["name"] == "arcana-db"]
    return cluster, policy


def _restored() -> tuple[Doc, list[Doc]]:
    docs = render(RESTORE)
    [cluster] = of_kind(docs, "Cluster")
    return cluster, docs


def _pod_labels(cluster: Doc) -> dict[str, str]:
    """The labels CloudNativePG puts on a cluster's pods: its own, and what it is told to add."""
    labels = {"cnpg.io/cluster": cluster["metadata"]["name"]}
    labels.update(cluster["spec"].get("inheritedMetadata", {}).get("labels", {}))
    return labels


def _selects(selector: Doc, labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector["matchLabels"].items())


def test_the_restore_recovers_the_components_cluster_to_a_point_in_time_under_another_name() -> None:
    original, _ = _component()
    restored, docs = _restored()
    assert restored["metadata"]["name"] != original["metadata"]["name"]
    [namespace] = of_kind(render(PRODUCTION), "Namespace")
    assert {d["metadata"]["namespace"] for d in docs} == {namespace["metadata"]["name"]}
    recovery = restored["spec"]["bootstrap"]["recovery"]
    assert recovery["recoveryTarget"]["targetTime"]
    [source] = [c for c in restored["spec"]["externalClusters"] if c["name"] == recovery["source"]]
    backups = original["spec"]["backup"]["barmanObjectStore"]
    store = source["barmanObjectStore"]
    assert store["destinationPath"] == backups["destinationPath"]
    assert store.get("serverName", source["name"]) == original["metadata"]["name"]
    assert store["s3Credentials"] == backups["s3Credentials"]
    assert (recovery["database"], recovery["owner"]) == (
        original["spec"]["bootstrap"]["initdb"]["database"],
        original["spec"]["bootstrap"]["initdb"]["owner"],
    )
    own = restored["spec"]["backup"]["barmanObjectStore"]["destinationPath"]
    assert own != backups["destinationPath"]  # a cluster archives where no other one does
    assert restored["spec"]["postgresql"] == original["spec"]["postgresql"]  # the connection budget
    [nightly] = of_kind(docs, "ScheduledBackup")
    assert nightly["spec"]["cluster"]["name"] == restored["metadata"]["name"]


def test_the_database_policy_follows_the_cluster_by_label_not_by_name() -> None:
    original, policy = _component()
    restored, _ = _restored()
    selectors = [policy["spec"]["podSelector"]]
    selectors += [
        p["podSelector"] for r in policy["spec"]["ingress"] for p in r["from"] if "podSelector" in p
    ]
    selectors += [
        p["podSelector"] for r in policy["spec"]["egress"] for p in r.get("to", []) if "podSelector" in p
    ]
    assert not any("cnpg.io/cluster" in s["matchLabels"] for s in selectors)
    for cluster in (original, restored):
        assert _selects(policy["spec"]["podSelector"], _pod_labels(cluster)), cluster["metadata"]["name"]
    unlabelled = {"metadata": restored["metadata"], "spec": {}}
    assert not _selects(policy["spec"]["podSelector"], _pod_labels(unlabelled))
