"""A stand-in for kubectl on PATH (tests/unit/deploy/test_ops.py): it records each command line
(JSON lines in ``$FAKE_KUBECTL_LOG``) and answers the few commands ``arcana ops`` runs from a state
file (``$FAKE_KUBECTL_STATE``: the Deployments, as the API server holds them) it keeps up to date:

- ``get deployments|pods -l SELECTOR -o json`` (equality ``k=v`` and inequality ``k!=v``);
  the pods are each Deployment's ``spec.replicas`` running pods, and one finished Job pod;
- ``annotate deployment/NAME... KEY=VALUE --overwrite`` and ``annotate deployment/NAME... KEY-``;
- ``scale (deployment/NAME... | deployment -l SELECTOR) --replicas=N``.

``$FAKE_KUBECTL_REFUSE`` names a verb the API server refuses (exit 1, as kubectl does)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any


def _selected(selector: str | None, labels: dict[str, str]) -> bool:
    for term in selector.split(",") if selector else []:
        if "!=" in term:
            key, value = term.split("!=")
            if labels.get(key) == value:
                return False
        else:
            key, value = term.split("=")
            if labels.get(key) != value:
                return False
    return True


def _pods(deployments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    job = {"name": "arcana-migrate-0-1-0-x7k2p", "labels": {"app.kubernetes.io/part-of": "arcana"}}
    pods = [{"metadata": job, "status": {"phase": "Succeeded"}}]
    for d in deployments:
        labels = d["spec"]["template"]["metadata"]["labels"]
        for i in range(d["spec"]["replicas"]):
            name = f"{d['metadata']['name']}-{i}"
            pods.append({"metadata": {"name": name, "labels": labels}, "status": {"phase": "Running"}})
    return pods


def _option(args: list[str], name: str) -> str | None:
    for i, arg in enumerate(args):
        if arg == name:
            return args[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def main(argv: list[str]) -> int:
    with open(os.environ["FAKE_KUBECTL_LOG"], "a") as log:
        log.write(json.dumps(argv) + "\n")
    state_file = Path(os.environ["FAKE_KUBECTL_STATE"])
    deployments: list[dict[str, Any]] = json.loads(state_file.read_text())
    args = argv[2:] if argv[:1] == ["--namespace"] else argv
    verb, kind = args[0], args[1]
    if verb == os.environ.get("FAKE_KUBECTL_REFUSE"):
        print(f'Error from server (Forbidden): {kind} is forbidden: cannot "{verb}"', file=sys.stderr)
        return 1
    selector = _option(args, "-l")
    names = {a.split("/", 1)[1] for a in args[1:] if a.startswith("deployment/")}
    if selector is None:
        chosen = [d for d in deployments if d["metadata"]["name"] in names]
    else:
        chosen = [d for d in deployments if _selected(selector, d["metadata"]["labels"])]
    if verb == "get":
        pods = [p for p in _pods(deployments) if _selected(selector, p["metadata"]["labels"])]
        items = chosen if kind == "deployments" else pods
        print(json.dumps({"kind": "List", "items": items}))
        return 0
    for deployment in chosen:
        if verb == "scale":
            replicas = int(_option(args, "--replicas") or "")
            deployment["spec"]["replicas"] = replicas
            deployment["status"] = {"replicas": replicas, "readyReplicas": replicas}
        elif verb == "annotate":
            [note] = [a for a in args[1:] if "=" in a or a.endswith("-")]
            annotations = deployment["metadata"].setdefault("annotations", {})
            if note.endswith("-"):
                annotations.pop(note[:-1], None)
            else:
                key, value = note.split("=", 1)
                if key in annotations and "--overwrite" not in args:
                    print(f"error: --overwrite is false but found the annotation {key}", file=sys.stderr)
                    return 1
                annotations[key] = value
    state_file.write_text(json.dumps(deployments))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
