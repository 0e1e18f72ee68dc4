"""``arcana ops stop|start|status``: the restore runbook's "stop everything" and "start everything"
(docs/operations.md, "Restoring"), with kubectl.

- ``stop`` notes each Deployment's replicas in its annotation ``arcana.io/replicas-before-stop``,
  scales every Deployment of ``EVERYTHING`` (each process that reads or writes the database or the
  bus: web, match-waits, relays, consumers, Celery worker and beat; not Redis) to 0, and waits until
  their pods are gone. An autoscaler does nothing while its Deployment has 0 replicas, so the HPAs
  stay. Run twice, it keeps the replicas noted the first time.
- ``start`` scales each Deployment back to the replicas it noted, and removes the note; the HPAs
  take over from there.
- ``status`` prints each Deployment's replicas, ready pods and note.

kubectl runs as the operator's (``--kubectl``, else ``kubectl`` on ``PATH``), in ``--namespace``.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

EVERYTHING = "app.kubernetes.io/part-of=arcana,app.kubernetes.io/component!=broker"
NOTE = "arcana.io/replicas-before-stop"
FINISHED = ("Succeeded", "Failed")  # a finished Job's pod stays a while, and runs nothing


class OpsError(Exception):
    """kubectl failed, or the cluster did not get where it was told (the message says what)."""


@dataclass(frozen=True)
class Deployment:
    name: str
    component: str
    replicas: int
    ready: int
    noted: int | None  # the replicas before ``stop``, while stopped

    @classmethod
    def of(cls, item: dict[str, Any]) -> Deployment:
        meta, spec, status = item["metadata"], item.get("spec", {}), item.get("status", {})
        noted = meta.get("annotations", {}).get(NOTE)
        return cls(
            meta["name"],
            meta.get("labels", {}).get("app.kubernetes.io/component", ""),
            int(spec.get("replicas", 1)),
            int(status.get("readyReplicas", 0)),
            int(noted) if noted is not None else None,
        )


class Kubectl:
    def __init__(self, binary: str, namespace: str) -> None:
        self.binary, self.namespace = binary, namespace

    def __call__(self, *args: str) -> str:
        try:
            done = subprocess.run(
                [self.binary, "--namespace", self.namespace, *args],
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise OpsError(f"{self.binary}: {exc}") from None
        if done.returncode != 0:
            raise OpsError(f"kubectl {' '.join(args)}: {done.stderr.strip() or done.returncode}")
        return done.stdout

    def items(self, kind: str) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = json.loads(self("get", kind, "-l", EVERYTHING, "-o", "json"))["items"]
        return found

    def deployments(self) -> list[Deployment]:
        return sorted((Deployment.of(item) for item in self.items("deployments")), key=lambda d: d.name)

    def running_pods(self) -> list[str]:
        pods = self.items("pods")
        return [p["metadata"]["name"] for p in pods if p.get("status", {}).get("phase") not in FINISHED]


def _by_count(deployments: dict[str, int]) -> dict[int, list[str]]:
    """Replicas -> ``deployment/NAME`` of each Deployment with that many: one kubectl call each."""
    grouped: dict[int, list[str]] = {}
    for name, count in sorted(deployments.items()):
        grouped.setdefault(count, []).append(f"deployment/{name}")
    return grouped


def stop(kubectl: Kubectl, timeout: float, out: Callable[[str], None]) -> None:
    # A Deployment stopped before keeps the note of what it ran then.
    running = {d.name: d.replicas for d in kubectl.deployments() if d.noted is None or d.replicas > 0}
    for count, names in _by_count(running).items():
        kubectl("annotate", *names, f"{NOTE}={count}", "--overwrite")
    kubectl("scale", "deployment", "-l", EVERYTHING, "--replicas=0")
    deadline = time.monotonic() + timeout
    while left := kubectl.running_pods():
        if time.monotonic() > deadline:
            raise OpsError(f"still running after {timeout:.0f} s: {', '.join(left)}")
        time.sleep(2)
    out(f"stopped: every Deployment of {EVERYTHING} at 0 replicas, no pod of them left")


def start(kubectl: Kubectl, out: Callable[[str], None]) -> None:
    stopped = {d.name: d.noted for d in kubectl.deployments() if d.noted is not None}
    if not stopped:
        out("nothing was stopped by `arcana ops stop`")
        return
    for count, names in _by_count(stopped).items():
        kubectl("scale", *names, f"--replicas={count}")
    kubectl("annotate", *(f"deployment/{name}" for name in sorted(stopped)), f"{NOTE}-")
    for name, count in sorted(stopped.items()):
        out(f"{name}: {count} replicas")


def status(kubectl: Kubectl, out: Callable[[str], None]) -> None:
    deployments = kubectl.deployments()
    width = max((len(d.name) for d in deployments), default=10)
    out(f"{'DEPLOYMENT':<{width}}  {'KIND':<9}  READY  STOPPED")
    for d in deployments:
        note = f"yes (was {d.noted})" if d.noted is not None else "no"
        out(f"{d.name:<{width}}  {d.component:<9}  {d.ready}/{d.replicas:<3}  {note}")
    out(f"{sum(d.noted is not None for d in deployments)} of {len(deployments)} stopped")
