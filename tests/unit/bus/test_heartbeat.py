"""Issue 19, point 5: the heartbeat behind the background processes' liveness probes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from libs.bus import heartbeat


@pytest.fixture
def beating(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    path = tmp_path / "heartbeat"
    monkeypatch.setenv(heartbeat.ENV, str(path))
    monkeypatch.setattr(heartbeat, "_last", {})
    monkeypatch.setattr(heartbeat, "_written", 0.0)
    return path


def _probe(path: Path, max_age: float) -> int:
    return heartbeat.main([str(path), "--max-age", str(max_age)])


def test_a_live_loop_keeps_the_probe_passing(beating: Path) -> None:
    assert _probe(beating, 60) == 1  # nothing written yet: not alive
    heartbeat.beat("relay", now=1000.0)
    assert _probe(beating, 60) == 0


def test_one_stuck_loop_stops_the_heartbeat_though_others_beat(beating: Path) -> None:
    heartbeat.beat("consumer a", now=1000.0)
    heartbeat.beat("consumer b", now=1000.0)
    first = beating.read_text()
    later = 1000.0 + heartbeat.STALE + 1
    heartbeat.beat("consumer a", now=later)  # b has not beaten since: it hangs
    assert beating.read_text() == first
    os.utime(beating, (time.time() - 120, time.time() - 120))
    assert _probe(beating, 60) == 1
    heartbeat.beat("consumer b", now=later + 1)
    heartbeat.beat("consumer a", now=later + heartbeat.WRITE_EVERY + 1)
    assert _probe(beating, 60) == 0


def test_without_the_setting_nothing_is_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(heartbeat.ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    heartbeat.beat("relay")
    assert list(tmp_path.iterdir()) == []
