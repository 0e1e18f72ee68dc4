"""Issue 32, point 3: ``arcana ops stop|start|status``, the restore runbook's first and last steps,
against a kubectl on PATH that records its command lines and keeps the production overlay's
Deployments as an API server would (tests/unit/deploy/fake_kubectl.py).

Stopping takes every process that reads or writes the database or the bus to 0 replicas, the
match long-polls (``match-waits``) included and Redis left up for the queue purge; starting gives
each Deployment back what it ran, however the autoscalers had sized it."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

from libs.ops.cluster import EVERYTHING, NOTE
from services import cli
from tests.unit.deploy.rendering import PRODUCTION, of_kind, render

FAKE = Path(__file__).with_name("fake_kubectl.py")


class Cluster:
    def __init__(self, folder: Path) -> None:
        self.state, self.log = folder / "state.json", folder / "kubectl.log"

    def deployments(self) -> dict[str, dict[str, Any]]:
        return {d["metadata"]["name"]: d for d in json.loads(self.state.read_text())}

    def replicas(self) -> dict[str, int]:
        return {name: d["spec"]["replicas"] for name, d in self.deployments().items()}

    def commands(self) -> list[list[str]]:
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def _as_running(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The production Deployments as the API server holds them: the HPAs have sized the web ones
    (here: two above their minimum)."""
    sized = {
        h["spec"]["scaleTargetRef"]["name"]: h["spec"]["minReplicas"] + 2
        for h in of_kind(docs, "HorizontalPodAutoscaler")
    }
    running = []
    for d in of_kind(docs, "Deployment"):
        replicas = d["spec"].get("replicas", sized.get(d["metadata"]["name"]))
        assert replicas, d["metadata"]["name"]
        d["spec"]["replicas"] = replicas
        d["status"] = {"replicas": replicas, "readyReplicas": replicas}
        running.append(d)
    return running


@pytest.fixture
def cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cluster:
    made = Cluster(tmp_path)
    made.state.write_text(json.dumps(_as_running(render(PRODUCTION))))
    made.log.write_text("")
    kubectl = tmp_path / "bin" / "kubectl"
    kubectl.parent.mkdir()
    kubectl.write_text(f'#!/bin/sh\nexec "{sys.executable}" -I -S "{FAKE}" "$@"\n')
    kubectl.chmod(kubectl.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{kubectl.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_KUBECTL_STATE", str(made.state))
    monkeypatch.setenv("FAKE_KUBECTL_LOG", str(made.log))
    return made


def test_stop_takes_every_process_but_redis_to_zero_and_notes_what_each_ran(cluster: Cluster) -> None:
    before = cluster.replicas()
    assert cli.main(["ops", "stop"]) == 0
    after = cluster.deployments()
    assert {name for name, d in after.items() if d["spec"]["replicas"] > 0} == {"arcana-redis"}
    assert after["match-waits"]["spec"]["replicas"] == 0 and before["match-waits"] == 2
    noted = {
        name: int(d["metadata"]["annotations"][NOTE]) for name, d in after.items() if name != "arcana-redis"
    }
    assert noted == {name: n for name, n in before.items() if name != "arcana-redis"}
    assert [
        "--namespace",
        "arcana",
        "scale",
        "deployment",
        "-l",
        EVERYTHING,
        "--replicas=0",
    ] in cluster.commands()


def test_start_gives_each_deployment_back_what_it_ran(
    cluster: Cluster, capsys: pytest.CaptureFixture[str]
) -> None:
    before = cluster.replicas()
    assert cli.main(["ops", "stop"]) == 0
    assert cli.main(["ops", "stop"]) == 0  # twice: what they ran is not forgotten
    assert cli.main(["ops", "start"]) == 0
    assert cluster.replicas() == before
    assert not any(NOTE in d["metadata"].get("annotations", {}) for d in cluster.deployments().values())
    assert "match-waits: 2 replicas" in capsys.readouterr().out


def test_status_says_what_is_stopped(cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ops", "stop", "--namespace", "arcana"]) == 0
    capsys.readouterr()
    assert cli.main(["ops", "status"]) == 0
    lines = capsys.readouterr().out.splitlines()
    [waits] = [line for line in lines if line.startswith("match-waits ")]
    assert "0/0" in waits and "yes (was 2)" in waits
    stopped = len(cluster.deployments()) - 1
    assert lines[-1] == f"{stopped} of {stopped} stopped"  # Redis is not among them


def test_a_refused_command_fails_the_step_with_kubectls_message(
    cluster: Cluster, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FAKE_KUBECTL_REFUSE", "scale")
    assert cli.main(["ops", "stop"]) == 1
    assert "Forbidden" in capsys.readouterr().err
