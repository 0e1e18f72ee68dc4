"""Issue 19 point 7, issue 32 point 4: the connection budget. What every production workload may
hold against PostgreSQL is computed from the render (pods from replicas or the HPA's bounds, plus
the extra pods a rolling update starts at that maximum, from the Deployment's ``strategy``;
processes per pod from the command line, each process's pool cap from ``ARCANA_DB_POOL_MAX`` or
the code's default for that kind of process, libs/db/pool.py), and:

- at the HPAs' maximums, during a rollout, it fits the ``max_connections`` the cloudnative-pg
  component gives PostgreSQL (minus the connections PostgreSQL reserves for superusers);
- the table of docs/operations.md "Connection budget" says exactly that, row by row.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from libs.config import PROJECT_ROOT
from libs.db import CELERY_CHILD_POOL_MAX, CONSUMERS_POOL_MAX, RELAY_POOL_MAX, WEB_WORKER_POOL_MAX
from libs.db.pool import POOL_MAX_ENV
from tests.unit.deploy.rendering import K8S, PRODUCTION, of_kind, render, render_with

Doc = dict[str, Any]
SUPERUSER_RESERVED = 3  # PostgreSQL's superuser_reserved_connections default
READINESS_CHECKS = 1  # /readyz connects once per probe (libs/web/health.py), one probe at a time
LISTENERS_PER_MATCH_WORKER = 1  # services/match/notify.py: one LISTEN connection per process
OPERATIONS = PROJECT_ROOT / "docs" / "operations.md"


@dataclass(frozen=True)
class Budget:
    per_pod: int
    pods: tuple[int, int]  # at the HPA's minimum and maximum (fixed replicas: both the same)
    surge: int  # the pods a rolling update adds at the maximum

    @property
    def connections(self) -> tuple[int, int]:
        """At the minimum, and at the maximum during a rollout."""
        return self.per_pod * self.pods[0], self.per_pod * (self.pods[1] + self.surge)


def surge(deployment: Doc, pods: int) -> int:
    """The pods a rollout of ``deployment`` at ``pods`` replicas may add (Kubernetes' rules:
    ``maxSurge`` a number, or a percentage rounded up; 25 % unless set; none for ``Recreate``)."""
    strategy = deployment["spec"].get("strategy", {})
    if strategy.get("type") == "Recreate":
        return 0
    max_surge = strategy.get("rollingUpdate", {}).get("maxSurge", "25%")
    if isinstance(max_surge, str):
        return math.ceil(pods * int(max_surge.removesuffix("%")) / 100)
    return int(max_surge)


def _arg(command: list[str], flag: str) -> int:
    return int(command[command.index(flag) + 1])


def _env(container: Doc) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in container.get("env", [])}


def group_and_per_pod(name: str, kind: str, container: Doc) -> tuple[str, int]:
    """The budget table's row of a workload and the connections one of its pods may hold."""
    command, env = container.get("command", []), _env(container)

    def cap(default: int) -> int:
        return int(env.get(POOL_MAX_ENV, default))

    if kind == "Job":
        return "jobs", 1
    if command[0] == "gunicorn":
        workers = _arg(command, "--workers")
        if command[1] == "services.match.waits_wsgi:app":  # the match long-polls, gevent
            listeners = workers * LISTENERS_PER_MATCH_WORKER
            return "waits (match)", workers * cap(WEB_WORKER_POOL_MAX) + listeners + READINESS_CHECKS
        if "match" in env["ARCANA_SERVICES"].split(","):
            listeners = workers * LISTENERS_PER_MATCH_WORKER
            return "web (match)", workers * cap(WEB_WORKER_POOL_MAX) + listeners + READINESS_CHECKS
        return "web", workers * cap(WEB_WORKER_POOL_MAX) + READINESS_CHECKS
    if "libs.kit.relay" in command:
        return "relays", cap(RELAY_POOL_MAX)
    if "libs.kit.consume" in command:
        return "consumers", cap(CONSUMERS_POOL_MAX)
    if command[:4] == ["celery", "-A", "services.worker", "worker"]:
        return "celery-worker", _arg(command, "--concurrency") * cap(CELERY_CHILD_POOL_MAX)
    if command[:4] == ["celery", "-A", "services.worker", "beat"]:
        return "celery-beat", 0
    raise AssertionError(f"{name}: which connections does it hold? {command}")


def production_budget() -> dict[str, Budget]:
    """Row of the table -> its connections per pod and its pods, summed over its workloads."""
    docs = render(PRODUCTION)
    scaled = {
        h["spec"]["scaleTargetRef"]["name"]: (h["spec"]["minReplicas"], h["spec"]["maxReplicas"])
        for h in of_kind(docs, "HorizontalPodAutoscaler")
    }
    per_pod: dict[str, set[int]] = defaultdict(set)
    pods: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for d in docs:
        if d["kind"] not in ("Deployment", "Job"):
            continue
        name = d["metadata"]["name"]
        containers = [
            c for c in d["spec"]["template"]["spec"]["containers"] if "arcana/backend" in c["image"]
        ]
        if not containers:
            continue  # not ours (Redis)
        [container] = containers
        group, count = group_and_per_pod(name, d["kind"], container)
        per_pod[group].add(count)
        replicas = d["spec"].get("replicas", 1)
        low, high = scaled.get(name, (replicas, replicas))
        pods[group][0] += low
        pods[group][1] += high
        pods[group][2] += surge(d, high) if d["kind"] == "Deployment" else 0
    assert all(len(counts) == 1 for counts in per_pod.values()), dict(per_pod)
    return {
        group: Budget(counts.pop(), (pods[group][0], pods[group][1]), pods[group][2])
        for group, counts in per_pod.items()
    }


def documented_budget() -> dict[str, tuple[str, ...]]:
    """The rows of the table in docs/operations.md "Connection budget": first cell -> the others."""
    text = OPERATIONS.read_text()
    section = text[text.index("### Connection budget") :]
    section = section[: section.index("\n### ", 5)]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| `"):
            rows[cells[0].strip("`")] = tuple(cells[1:])
    return rows


def _span(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}\N{EN DASH}{high}"


def test_a_rollout_adds_the_pods_kubernetes_would() -> None:
    def deployment(strategy: Doc) -> Doc:
        return {"spec": {"strategy": strategy}}

    assert surge({"spec": {}}, 6) == 2  # 25 % of 6, rounded up
    assert surge(deployment({"type": "Recreate"}), 6) == 0
    assert surge(deployment({"rollingUpdate": {"maxSurge": 1}}), 28) == 1
    assert surge(deployment({"rollingUpdate": {"maxSurge": "10%"}}), 12) == 2


def test_at_the_hpa_maximums_during_a_rollout_the_budget_fits_postgresql_max_connections() -> None:
    budget = production_budget()
    cluster = of_kind(render_with(PRODUCTION, [K8S / "components" / "cloudnative-pg"]), "Cluster")
    [max_connections] = [int(c["spec"]["postgresql"]["parameters"]["max_connections"]) for c in cluster]
    at_most = sum(b.connections[1] for b in budget.values())
    assert at_most <= max_connections - SUPERUSER_RESERVED, {g: b.connections for g, b in budget.items()}


def test_the_documented_table_is_the_budget_the_manifests_and_code_give() -> None:
    budget, documented = production_budget(), documented_budget()
    expected = {
        group: (str(b.per_pod), _span(*b.pods), str(b.surge), _span(*b.connections))
        for group, b in budget.items()
    }
    low = sum(b.connections[0] for b in budget.values())
    high = sum(b.connections[1] for b in budget.values())
    expected["total"] = ("", "", "", _span(low, high))
    found = {group: (row[-4], row[-3], row[-2], row[-1]) for group, row in documented.items()}
    assert found == expected


def test_the_documented_defaults_are_the_code_defaults() -> None:
    text = OPERATIONS.read_text()
    for kind, default in (
        ("gunicorn worker", WEB_WORKER_POOL_MAX),
        ("relay", RELAY_POOL_MAX),
        ("consumers", CONSUMERS_POOL_MAX),
        ("Celery child", CELERY_CHILD_POOL_MAX),
    ):
        assert re.search(rf"\| {kind} \| {default} \|", text), f"{kind}: {default}"
