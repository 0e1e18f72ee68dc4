"""Issue 32, point 4: nothing unwatched. Every kind of process the production manifests run (the
``app.kubernetes.io/component`` of each Deployment running the backend image, enumerated from the
render, not listed here) is scraped, labelled with its kind, reachable by Prometheus through the
network policies, and has an alert for when its metrics stop arriving (``absent()``)."""

from __future__ import annotations

import re
from typing import Any

from tests.unit.deploy.rendering import K8S, PRODUCTION, of_kind, render_with

Doc = dict[str, Any]
MONITORING = K8S / "components" / "monitoring"
KIND_LABEL = "app.kubernetes.io/component"
ABSENT = re.compile(r"absent(?:_over_time)?\(\s*up\{[^}]*\bcomponent=\"([a-z-]+)\"")


def _docs() -> list[Doc]:
    return render_with(PRODUCTION, [MONITORING])


def process_kinds(docs: list[Doc]) -> dict[str, list[Doc]]:
    """Kind of process -> the Deployments of the backend image that run it."""
    kinds: dict[str, list[Doc]] = {}
    for deployment in of_kind(docs, "Deployment"):
        pod = deployment["spec"]["template"]
        if any("arcana/backend" in c["image"] for c in pod["spec"]["containers"]):
            kinds.setdefault(pod["metadata"]["labels"][KIND_LABEL], []).append(deployment)
    return kinds


def _selects(selector: Doc, labels: dict[str, str]) -> bool:
    matched = all(labels.get(k) == v for k, v in selector.get("matchLabels", {}).items())
    return matched and all(labels.get(e["key"]) in e["values"] for e in selector.get("matchExpressions", []))


def alerted_kinds(docs: list[Doc]) -> set[str]:
    """The kinds of process some alert watches for absent metrics."""
    exprs = [
        str(r.get("expr", ""))
        for d in of_kind(docs, "PrometheusRule")
        for g in d["spec"]["groups"]
        for r in g["rules"]
    ]
    return {kind for expr in exprs for kind in ABSENT.findall(expr)}


def test_the_manifests_run_the_kinds_of_process_the_docs_name() -> None:
    assert set(process_kinds(_docs())) >= {"web", "waits", "relay", "consumers", "worker", "beat"}


def test_every_kind_of_process_has_an_alert_when_its_metrics_are_absent() -> None:
    docs = _docs()
    assert set(process_kinds(docs)) <= alerted_kinds(docs)


def test_a_kind_without_its_absent_alert_is_found() -> None:
    docs = _docs()
    for rule in of_kind(docs, "PrometheusRule"):
        for group in rule["spec"]["groups"]:
            group["rules"] = [r for r in group["rules"] if 'component="beat"' not in str(r.get("expr"))]
    assert set(process_kinds(docs)) - alerted_kinds(docs) == {"beat"}


def test_every_kind_of_process_is_scraped_with_its_kind_as_a_label_and_let_through() -> None:
    docs = _docs()
    monitors, policies = of_kind(docs, "PodMonitor"), of_kind(docs, "NetworkPolicy")
    for kind, deployments in process_kinds(docs).items():
        for deployment in deployments:
            pod = deployment["spec"]["template"]
            labels = pod["metadata"]["labels"]
            ports = {
                p["name"]: p["containerPort"] for c in pod["spec"]["containers"] for p in c.get("ports", [])
            }
            [monitor] = [m for m in monitors if _selects(m["spec"]["selector"], labels)]
            for endpoint in monitor["spec"]["podMetricsEndpoints"]:
                assert endpoint["port"] in ports, (kind, deployment["metadata"]["name"])
                relabel = {(tuple(r["sourceLabels"]), r["targetLabel"]) for r in endpoint["relabelings"]}
                assert (("__meta_kubernetes_pod_label_app_kubernetes_io_component",), "component") in relabel
                assert _prometheus_may_reach(policies, labels, ports[endpoint["port"]]), deployment[
                    "metadata"
                ]["name"]


def _prometheus_may_reach(policies: list[Doc], labels: dict[str, str], port: int) -> bool:
    for policy in policies:
        if not _selects(policy["spec"]["podSelector"], labels):
            continue
        for rule in policy["spec"].get("ingress", []):
            sources = [s.get("namespaceSelector", {}).get("matchLabels", {}) for s in rule.get("from", [])]
            from_monitoring = {"kubernetes.io/metadata.name": "monitoring"} in sources
            if from_monitoring and any(p["port"] == port for p in rule.get("ports", [])):
                return True
    return False


def test_the_readme_says_what_readyz_checks() -> None:
    """The database always (a new connection, ``SELECT 1``), Kafka only where it is configured (the
    Kubernetes web pods set it empty), Redis never: as the README's probe line says."""
    from libs.config import PROJECT_ROOT, Settings
    from libs.web.health import CHECK_TIMEOUT_SECONDS, readiness

    def checks(kafka: str) -> set[str]:
        unreachable = "postgresql://nobody@127.0.0.1:1/none"
        return set(readiness(Settings(unreachable, kafka, "redis://127.0.0.1:1/0", "x" * 48, 60, None, 1024)))

    assert checks("") == {"database"} and checks("127.0.0.1:1") == {"database", "kafka"}
    readme = (PROJECT_ROOT / "README.md").read_text()
    probes = readme[readme.index("Probes: `/healthz`") :].split("\n\n")[0]
    assert "`SELECT 1`" in probes and f"within {CHECK_TIMEOUT_SECONDS} s" in probes
    assert "`KAFKA_BOOTSTRAP_SERVERS` is set" in probes and "never Redis" in probes
    web_env = [
        {e["name"]: e.get("value") for e in c.get("env", [])}
        for d in of_kind(_docs(), "Deployment")
        if d["spec"]["template"]["metadata"]["labels"][KIND_LABEL] in ("web", "waits")
        for c in d["spec"]["template"]["spec"]["containers"]
    ]
    assert web_env and all(env["KAFKA_BOOTSTRAP_SERVERS"] == "" for env in web_env)
