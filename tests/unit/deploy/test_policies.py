"""Issue 19, acceptance: policy checks on what an operator applies (the dev and production
overlays): pinned images, probes and resources on every container, availability (PDBs, spread,
HPAs owning the web replicas, drained long-polls), pods that wait for their schema, one migration
Job per release, Kafka topics kept longer than any consumer may wait, web pods without Kafka."""

from __future__ import annotations

from typing import Any

import pytest

from libs import kit
from libs.db.migrate_all import service_folders
from libs.kit import kafka_topics
from libs.maintenance.policy import PurgePolicy
from libs.web.health import CHECK_TIMEOUT_SECONDS
from tests.unit.deploy.rendering import K8S, OVERLAYS, PRODUCTION, of_kind, render

LONGEST_LONG_POLL_SECONDS = 25  # GET /v1/matches/{id}/events?wait= (docs/architecture.md)
BACKGROUND = ("relay", "consumers", "worker", "beat")

Doc = dict[str, Any]


@pytest.fixture(params=OVERLAYS, ids=lambda p: p.name)
def docs(request: pytest.FixtureRequest) -> list[Doc]:
    return render(request.param)


def _pods(docs: list[Doc]) -> dict[str, Doc]:
    return {d["metadata"]["name"]: d["spec"]["template"] for d in docs if d["kind"] in ("Deployment", "Job")}


def _component(pod: Doc) -> str:
    return str(pod["metadata"]["labels"]["app.kubernetes.io/component"])


def _all_containers(pod: Doc) -> list[Doc]:
    return list(pod["spec"].get("initContainers", [])) + list(pod["spec"]["containers"])


def _deployments(docs: list[Doc], *components: str) -> dict[str, Doc]:
    return {
        d["metadata"]["name"]: d
        for d in of_kind(docs, "Deployment")
        if _component(d["spec"]["template"]) in components
    }


def test_no_image_is_latest_or_untagged(docs: list[Doc]) -> None:
    for name, pod in _pods(docs).items():
        for container in _all_containers(pod):
            image = container["image"]
            last = image.rsplit("/", 1)[-1]
            assert "@sha256:" in image or (":" in last and not last.endswith(":latest")), (name, image)


def test_production_runs_one_release_tag_everywhere() -> None:
    images = {
        c["image"]
        for pod in _pods(render(PRODUCTION)).values()
        for c in _all_containers(pod)
        if "arcana" in c["image"]
    }
    assert len(images) == 1, images
    assert images.pop().startswith("registry.example.invalid/arcana/backend:")


def test_every_container_has_resources_and_every_long_running_one_probes(docs: list[Doc]) -> None:
    for name, pod in _pods(docs).items():
        for container in _all_containers(pod):
            resources = container.get("resources", {})
            assert resources.get("requests", {}).get("memory") and resources.get("limits", {}).get(
                "memory"
            ), (
                name,
                container["name"],
            )
        if any(d["metadata"]["name"] == name and d["kind"] == "Deployment" for d in docs):
            for container in pod["spec"]["containers"]:
                assert "livenessProbe" in container, (name, container["name"])


def test_probes_wait_longer_than_the_checks_they_run(docs: list[Doc]) -> None:
    for name, deployment in _deployments(docs, "web").items():
        [web] = deployment["spec"]["template"]["spec"]["containers"]
        assert web["readinessProbe"]["httpGet"]["path"] == "/readyz"
        assert web["readinessProbe"]["timeoutSeconds"] > CHECK_TIMEOUT_SECONDS, name
        assert web["livenessProbe"]["httpGet"]["path"] == "/healthz"


def test_background_processes_prove_they_are_alive_with_a_heartbeat(docs: list[Doc]) -> None:
    for name, deployment in _deployments(docs, *BACKGROUND).items():
        [container] = deployment["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e.get("value") for e in container.get("env", [])}
        probe = container["livenessProbe"]["exec"]["command"]
        assert probe[:3] == ["python", "-m", "libs.bus.heartbeat"], name
        assert probe[3] == env["ARCANA_HEARTBEAT_PATH"], name  # the file the process writes
        max_age = float(probe[probe.index("--max-age") + 1])
        assert max_age > 60, name  # longer than libs.bus.heartbeat.STALE: a slow pass is no hang


def test_web_pods_drain_long_polls_and_stay_ready_without_kafka(docs: list[Doc]) -> None:
    for name, deployment in _deployments(docs, "web", "waits").items():
        pod = deployment["spec"]["template"]
        [web] = pod["spec"]["containers"]
        pause = web["lifecycle"]["preStop"]["sleep"]["seconds"]
        command = web["command"]
        graceful = int(command[command.index("--graceful-timeout") + 1])
        assert graceful > LONGEST_LONG_POLL_SECONDS, name
        assert pod["spec"]["terminationGracePeriodSeconds"] > pause + graceful, name
        env = {e["name"]: e.get("value") for e in web.get("env", [])}
        assert env["KAFKA_BOOTSTRAP_SERVERS"] == "", name  # /readyz checks the database only
        assert "arcana.io/kafka" not in pod["metadata"]["labels"], name  # no Kafka egress


def _selects(selector: Doc, labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector["matchLabels"].items())


def test_web_consumers_and_worker_have_a_disruption_budget_and_spread(docs: list[Doc]) -> None:
    budgets = of_kind(docs, "PodDisruptionBudget")
    for name, deployment in _deployments(docs, "web", "waits", "consumers", "worker").items():
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        assert [b for b in budgets if _selects(b["spec"]["selector"], labels)], name
        spread = deployment["spec"]["template"]["spec"]["topologySpreadConstraints"]
        assert {s["topologyKey"] for s in spread} >= {"topology.kubernetes.io/zone", "kubernetes.io/hostname"}
        assert all(_selects(s["labelSelector"], labels) for s in spread), name


def test_production_autoscales_every_web_service_and_fixes_no_web_replicas() -> None:
    docs = render(PRODUCTION)
    scaled = {
        h["spec"]["scaleTargetRef"]["name"]: h["spec"] for h in of_kind(docs, "HorizontalPodAutoscaler")
    }
    webs = _deployments(docs, "web")
    assert set(scaled) == set(webs) == {s.name for s in kit.discover()}
    for name, deployment in webs.items():
        assert "replicas" not in deployment["spec"], name  # the HPA owns the count
        assert scaled[name]["minReplicas"] >= 2, name


def test_each_namespace_enforces_the_restricted_pod_security_level(docs: list[Doc]) -> None:
    [namespace] = of_kind(docs, "Namespace")
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    assert {d["metadata"].get("namespace") for d in docs if d["kind"] != "Namespace"} == {
        namespace["metadata"]["name"]
    }


def test_every_pod_using_the_database_waits_for_its_schema(docs: list[Doc]) -> None:
    every = sorted(service_folders())
    for name, deployment in _deployments(docs, "web", "waits", "relay", "consumers", "worker").items():
        pod = deployment["spec"]["template"]
        [init] = pod["spec"]["initContainers"]
        command = init["command"]
        assert command[:4] == ["python", "-m", "libs.db.migrate_all", "--check"], name
        schemas = [a for a in command[4:] if not a.startswith("--") and not a.isdigit()]
        expected = every if _component(pod) == "worker" else [name.split("-")[0]]
        assert sorted(schemas) == expected, name


def test_production_runs_a_migration_job_of_its_own_release() -> None:
    docs = render(PRODUCTION)
    [job] = of_kind(docs, "Job") and [j for j in of_kind(docs, "Job") if "migrate" in j["metadata"]["name"]]
    [container] = job["spec"]["template"]["spec"]["containers"]
    tag = container["image"].split("@", 1)[0].rsplit(":", 1)[1]  # name:tag@sha256:digest
    assert job["metadata"]["name"] == "arcana-migrate-" + tag.replace(".", "-")
    for j in of_kind(docs, "Job"):
        assert j["spec"]["ttlSecondsAfterFinished"] > 0, j["metadata"]["name"]


def test_topics_outlive_the_inbox_horizon_and_records_are_kept() -> None:
    topics = {t["spec"]["topicName"]: t["spec"] for t in of_kind(render(PRODUCTION), "KafkaTopic")}
    written = {t for svc in kit.discover() for t in kafka_topics.writes(svc)}
    assert set(topics) == written
    horizon_ms = PurgePolicy().inbox_horizon.total_seconds() * 1000
    for name, spec in topics.items():
        retention = spec["config"]["retention.ms"]
        assert retention == -1 or retention > horizon_ms, name
        assert spec["replicas"] == 3 and spec["config"]["min.insync.replicas"] == 2, name
    assert topics["arcana.match.records"]["config"]["retention.ms"] == -1
    assert any(t.endswith(".dead-letters") for t in topics)


def test_the_monitoring_component_scrapes_and_alerts() -> None:
    from tests.unit.deploy.rendering import render_with

    docs = render_with(PRODUCTION, [K8S / "components" / "monitoring"])
    alerts = {
        r["alert"]
        for rule in of_kind(docs, "PrometheusRule")
        for g in rule["spec"]["groups"]
        for r in g["rules"]
    }
    assert {"ArcanaRelayLagging", "ArcanaConsumerLagging", "ArcanaDeadLetters", "ArcanaErrorRate"} <= alerts
    assert {"ArcanaLatencyP99"} <= alerts
    monitored = of_kind(docs, "PodMonitor")
    for name, deployment in _deployments(
        docs, "web", "waits", "relay", "consumers", "worker", "beat"
    ).items():
        labels = deployment["spec"]["template"]["metadata"]["labels"]
        ports = {
            p["name"]
            for c in deployment["spec"]["template"]["spec"]["containers"]
            for p in c.get("ports", [])
        }
        scraping = [m for m in monitored if _matches(m["spec"]["selector"], labels)]
        assert scraping and all(
            e["port"] in ports for m in scraping for e in m["spec"]["podMetricsEndpoints"]
        ), name


def _matches(selector: Doc, labels: dict[str, str]) -> bool:
    if not _selects({"matchLabels": selector.get("matchLabels", {})}, labels):
        return False
    return all(labels.get(e["key"]) in e["values"] for e in selector.get("matchExpressions", []))


def test_the_dashboard_charts_every_metric_the_alerts_use() -> None:
    import json
    import re

    from tests.unit.deploy.rendering import render_with

    dashboard = json.loads((K8S.parent / "grafana" / "arcana.json").read_text())
    charted = " ".join(t["expr"] for p in dashboard["panels"] for t in p["targets"])
    docs = render_with(PRODUCTION, [K8S / "components" / "monitoring"])
    exprs = " ".join(
        str(r["expr"])
        for d in of_kind(docs, "PrometheusRule")
        for g in d["spec"]["groups"]
        for r in g["rules"]
    )
    used = {m.removesuffix("_bucket") for m in re.findall(r"\barcana_[a-z_]+", exprs)}
    assert used and all(metric in charted for metric in used), used
    sources = " ".join(
        (K8S.parents[1] / f).read_text()
        for f in ("libs/bus/metrics.py", "libs/web/observability.py", "libs/celery_metrics.py")
    )
    assert all(f'"{metric.removesuffix("_total")}' in sources for metric in used), used  # defined in code
