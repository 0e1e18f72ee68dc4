"""The embedded cluster's owner is created once even when several processes start clusters at once
(the test workers on a new machine: two unlocked ``useradd`` runs raced there)."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="only root creates the cluster's owner")

CREATE = "import sys; from libs.devstack import postgres; postgres._ensure_owner_exists(sys.argv[1])"


@pytest.fixture
def new_user() -> Iterator[str]:
    name = f"arcana_t{uuid.uuid4().hex[:8]}"
    yield name
    subprocess.run(["userdel", name], capture_output=True)


def test_processes_creating_the_owner_at_once_all_succeed_with_one_user(new_user: str) -> None:
    processes = [subprocess.Popen([sys.executable, "-c", CREATE, new_user]) for _ in range(6)]
    assert [p.wait(timeout=60) for p in processes] == [0] * 6
    passwd = Path("/etc/passwd").read_text().splitlines()
    entries = [line for line in passwd if line.startswith(f"{new_user}:")]
    assert len(entries) == 1
    assert pwd.getpwnam(new_user).pw_uid == int(entries[0].split(":")[2])
