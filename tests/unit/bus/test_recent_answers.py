"""The consumers of one process share their periodic cluster-id question (``libs.bus.cluster``):
one asks per interval, the others take its answer; an answer never outlives the interval, and
each address keeps its own."""

from __future__ import annotations

import threading
import time
from typing import Any, cast

import pytest

from libs.bus.cluster import ClusterProbe, RecentAnswers


class _Probe:
    """A probe that counts its questions (a unit test: no broker)."""

    def __init__(self, bootstrap: str, answer: str) -> None:
        self.bootstrap = bootstrap
        self.answer = answer
        self.asked = 0

    def cluster_id(self) -> str:
        self.asked += 1
        return self.answer


def _as_probe(probe: _Probe) -> ClusterProbe:
    return cast(ClusterProbe, probe)


def test_twenty_runners_checking_at_once_ask_once() -> None:
    recent = RecentAnswers()
    probes = [_Probe("broker:9092", "c1") for _ in range(20)]
    answers = [recent.cluster_id(_as_probe(p), max_age=5.0) for p in probes]
    assert answers == ["c1"] * 20
    assert sum(p.asked for p in probes) == 1


def test_an_answer_older_than_the_interval_is_asked_again_and_a_new_cluster_is_seen() -> None:
    recent = RecentAnswers()
    first, second = _Probe("broker:9092", "old"), _Probe("broker:9092", "new")
    assert recent.cluster_id(_as_probe(first), max_age=0.05) == "old"
    time.sleep(0.06)
    assert recent.cluster_id(_as_probe(second), max_age=0.05) == "new"
    assert (first.asked, second.asked) == (1, 1)


def test_each_address_has_its_own_answer() -> None:
    recent = RecentAnswers()
    a, b = _Probe("a:9092", "ca"), _Probe("b:9092", "cb")
    assert recent.cluster_id(_as_probe(a), 5.0) == "ca"
    assert recent.cluster_id(_as_probe(b), 5.0) == "cb"
    assert (a.asked, b.asked) == (1, 1)


def test_a_failed_question_is_not_remembered() -> None:
    class Down(_Probe):
        def cluster_id(self) -> str:
            self.asked += 1
            raise ConnectionError("no broker")

    recent = RecentAnswers()
    down, up = Down("broker:9092", ""), _Probe("broker:9092", "c2")
    with pytest.raises(ConnectionError):
        recent.cluster_id(_as_probe(down), 5.0)
    assert recent.cluster_id(_as_probe(up), 5.0) == "c2"
    assert up.asked == 1


def test_threads_asking_together_all_get_the_answer() -> None:
    recent = RecentAnswers()
    probes = [_Probe("broker:9092", "c3") for _ in range(16)]
    got: list[Any] = []
    threads = [
        threading.Thread(target=lambda p=p: got.append(recent.cluster_id(_as_probe(p), 5.0))) for p in probes
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == ["c3"] * 16
    assert recent.cluster_id(_as_probe(_Probe("broker:9092", "other")), 5.0) == "c3"
