"""Issue 32, point 4: Celery beat is watched. Beat, started with its Deployment's own command line
(deploy/k8s/base/workers.yaml) on a filesystem broker of its own, serves on ``ARCANA_METRICS_PORT``
when it last ticked and the entries it sent (``libs/celery_metrics.py``): the monitoring
component's ``ArcanaBeatStalled`` and ``ArcanaMetricsAbsentBeat`` alert on them."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from harness.waiting import wait_until
from libs.config import PROJECT_ROOT
from libs.devstack.ports import free_port
from tests.unit.deploy.rendering import base_documents


def _beat_command(schedule: Path) -> list[str]:
    [beat] = [
        d for d in base_documents() if d["kind"] == "Deployment" and d["metadata"]["name"] == "celery-beat"
    ]
    [container] = beat["spec"]["template"]["spec"]["containers"]
    command = list(container["command"])
    command[command.index("--schedule") + 1] = str(schedule)
    assert command[0] == "celery"
    return [sys.executable, "-m", *command]


def _samples(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    try:
        text = requests.get(url, timeout=5).text
    except requests.ConnectionError:
        return {}
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


@pytest.fixture
def beat(tmp_path: Path) -> Iterator[tuple[str, Path, float]]:
    port, log = free_port(), tmp_path / "beat.log"
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "PROMETHEUS_MULTIPROC_DIR")}
    env.update(
        ARCANA_DATA_DIR=str(tmp_path / "data"),
        ARCANA_METRICS_PORT=str(port),
        ARCANA_HEARTBEAT_PATH=str(tmp_path / "heartbeat"),
        LOG_FORMAT="text",
    )
    started = time.time()
    argv = _beat_command(tmp_path / "beat-schedule")
    with log.open("ab") as out:  # its own session: the kill below reaches every process it starts
        proc = subprocess.Popen(
            argv, env=env, cwd=PROJECT_ROOT, stdout=out, stderr=out, start_new_session=True
        )
    try:
        yield f"http://127.0.0.1:{port}/metrics", log, started
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_beat_serves_its_last_tick_and_the_entries_it_sent(beat: tuple[str, Path, float]) -> None:
    url, log, started = beat

    def sent_sweeps() -> float:
        return _samples(url).get(
            ("arcana_celery_beat_sent_total", (("entry", "match-sweep"), ("outcome", "sent"))), 0
        )

    wait_until(
        sent_sweeps, 60, lambda: "beat's first match-sweep sent: " + log.read_text(errors="replace")[-2000:]
    )
    samples = _samples(url)
    tick = samples[("arcana_celery_beat_last_tick_timestamp_seconds", ())]
    assert started <= tick <= time.time()
    assert not [
        k for k in samples if k[0] == "arcana_celery_beat_sent_total" and ("outcome", "failed") in k[1]
    ]
