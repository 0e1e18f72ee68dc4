"""Issue 32, point 5: the analysts' export in the cluster is a manifest (the component
deploy/k8s/components/analytics-export) whose pod the enforced Pod Security level ("restricted")
admits, which the base's network policies let reach PostgreSQL and nothing else, which writes only
its export into its output volume, and which logs in as arcana_analyst with a password from the
Secret. Rendered as an operator enables it: first in the production overlay's own components, so
the release's image and namespace apply to it."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from libs.config import PROJECT_ROOT
from libs.db.roles import ANALYST_ROLE
from services import cli
from tests.unit.deploy.rendering import K8S, PRODUCTION, kubectl, of_kind
from tests.unit.deploy.test_hardening import _selects  # the base's selectors, read as there

COMPONENT = K8S / "components" / "analytics-export"
NAME = "arcana-analytics-export"
RESTRICTED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral", "persistentVolumeClaim"} | {
    "projected",
    "secret",
}


def _moved(entry: Any, here: Path) -> Any:
    """A path of the production kustomization, relative to ``here`` instead."""
    if isinstance(entry, str):
        return os.path.relpath(PRODUCTION / entry, here)
    if isinstance(entry, dict) and "path" in entry:
        return {**entry, "path": os.path.relpath(PRODUCTION / entry["path"], here)}
    return entry


@cache
def _production_with_export() -> tuple[dict[str, Any], ...]:
    spec = yaml.safe_load((PRODUCTION / "kustomization.yaml").read_text())
    with tempfile.TemporaryDirectory(prefix="overlay-") as folder:
        here = Path(folder)
        for key in ("resources", "components", "patches"):
            spec[key] = [_moved(entry, here) for entry in spec.get(key, [])]
        # first: a component that sets images (or names Jobs) applies to those listed before it
        spec["components"].insert(0, os.path.relpath(COMPONENT, here))
        (here / "kustomization.yaml").write_text(yaml.safe_dump(spec))
        out = subprocess.run(
            [kubectl(), "kustomize", "--load-restrictor", "LoadRestrictionsNone", str(here)],
            check=True,
            capture_output=True,
            text=True,
        )
    return tuple(d for d in yaml.safe_load_all(out.stdout) if d)


def _docs() -> list[dict[str, Any]]:
    return [dict(d) for d in _production_with_export()]


def _cronjob() -> dict[str, Any]:
    [found] = [d for d in of_kind(_docs(), "CronJob") if d["metadata"]["name"] == NAME]
    return found


def _pod() -> dict[str, Any]:
    template: dict[str, Any] = _cronjob()["spec"]["jobTemplate"]["spec"]["template"]
    return template


def _containers(pod: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]}


def _restricted_violations(pod: dict[str, Any]) -> list[str]:
    """What the Pod Security Standard "restricted" (with "baseline") refuses in ``pod``."""
    spec, found = pod["spec"], []
    pod_context = spec.get("securityContext", {})
    for flag in ("hostNetwork", "hostPID", "hostIPC"):
        if spec.get(flag):
            found.append(flag)
    for volume in spec.get("volumes", []):
        if not set(volume) - {"name"} <= RESTRICTED_VOLUMES:
            found.append(f"volume {volume['name']}")
    if pod_context.get("sysctls"):
        found.append("sysctls")
    for name, container in _containers(pod).items():
        context = container.get("securityContext", {})
        if context.get("privileged") or context.get("allowPrivilegeEscalation") is not False:
            found.append(f"{name}: privilege escalation")
        if context.get("capabilities", {}).get("drop") != ["ALL"]:
            found.append(f"{name}: capabilities not dropped")
        if set(context.get("capabilities", {}).get("add", [])) - {"NET_BIND_SERVICE"}:
            found.append(f"{name}: capabilities added")
        if not context.get("runAsNonRoot", pod_context.get("runAsNonRoot")):
            found.append(f"{name}: may run as root")
        if 0 in (context.get("runAsUser"), pod_context.get("runAsUser")):
            found.append(f"{name}: runs as user 0")
        seccomp = context.get("seccompProfile", pod_context.get("seccompProfile", {})).get("type")
        if seccomp not in ("RuntimeDefault", "Localhost"):
            found.append(f"{name}: seccomp {seccomp}")
        if any(p.get("hostPort") for p in container.get("ports", [])):
            found.append(f"{name}: host port")
        if context.get("procMount", "Default") != "Default":
            found.append(f"{name}: procMount")
    return found


def test_the_export_is_a_suspended_template_of_the_release_s_image_in_the_namespace() -> None:
    docs = _docs()
    job = _cronjob()
    assert job["spec"]["suspend"] is True  # runs only when an operator makes a Job of it
    [migrate] = [
        j for j in of_kind(docs, "Job") if j["metadata"]["labels"]["app.kubernetes.io/component"] == "migrate"
    ]
    release = {c["image"] for c in migrate["spec"]["template"]["spec"]["containers"]}
    assert {c["image"] for c in _containers(_pod()).values()} == release
    assert job["metadata"]["namespace"] == "arcana"
    assert job["spec"]["jobTemplate"]["spec"]["backoffLimit"] == 0


def test_the_restricted_pod_security_level_admits_the_export_pod() -> None:
    [namespace] = of_kind(_docs(), "Namespace")
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"
    assert _restricted_violations(_pod()) == []


def test_the_restricted_check_refuses_what_the_level_refuses() -> None:
    for change in (
        lambda p: p["spec"].update(hostNetwork=True),
        lambda p: p["spec"]["volumes"].append({"name": "h", "hostPath": {"path": "/"}}),
        lambda p: p["spec"]["containers"][0]["securityContext"].update(allowPrivilegeEscalation=True),
        lambda p: p["spec"]["initContainers"][0]["securityContext"].update(
            capabilities={"add": ["SYS_ADMIN"]}
        ),
        lambda p: p["spec"]["containers"][0]["securityContext"].update(seccompProfile={"type": "Unconfined"}),
        lambda p: p["spec"]["securityContext"].update(runAsUser=0),
    ):
        pod = _pod()
        change(pod)
        assert _restricted_violations(pod), change


def test_the_network_policies_let_it_reach_postgresql_only_and_nothing_reach_it() -> None:
    labels = _pod()["metadata"]["labels"]
    policies = [
        p["spec"] for p in of_kind(_docs(), "NetworkPolicy") if _selects(p["spec"]["podSelector"], labels)
    ]
    assert {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]} in policies  # denied by default
    egress = {port["port"] for p in policies for rule in p.get("egress", []) for port in rule["ports"]}
    ingress = [rule for p in policies for rule in p.get("ingress", [])]
    assert egress == {53, 5432} and ingress == []


def test_it_logs_in_as_the_analyst_with_the_url_from_the_secret_and_mounts_nothing_else() -> None:
    pod = _pod()
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    [secret] = [v for v in volumes.values() if "projected" in v or "secret" in v]
    [source] = secret["projected"]["sources"]
    assert source["secret"]["name"] == "arcana-secrets"
    assert source["secret"]["items"] == [{"key": "analyst-database-url", "path": "DATABASE_URL"}]
    export, copy_out = _containers(pod)["export"], _containers(pod)["copy-out"]
    [mount] = [m for m in export["volumeMounts"] if m["name"] == secret["name"]]
    assert mount["readOnly"] is True
    assert {"name": "DATABASE_URL_FILE", "value": f"{mount['mountPath']}/DATABASE_URL"} in export["env"]
    assert all(m["name"] != secret["name"] for m in copy_out["volumeMounts"])
    assert "secretRef" not in str(export.get("envFrom")) and "secretKeyRef" not in str(export.get("env"))


def test_the_roles_job_sets_the_analyst_s_password_from_the_secret() -> None:
    [roles] = [
        j
        for j in of_kind(_docs(), "Job")
        if j["metadata"]["labels"]["app.kubernetes.io/component"] == "db-roles"
    ]
    pod = roles["spec"]["template"]["spec"]
    [container] = pod["containers"]
    folder = next(e["value"] for e in container["env"] if e["name"] == "ARCANA_ROLE_PASSWORDS_DIR")
    [mount] = [m for m in container["volumeMounts"] if m["mountPath"] == folder]
    [volume] = [v for v in pod["volumes"] if v["name"] == mount["name"]]
    items = {i["key"]: i["path"] for s in volume["projected"]["sources"] for i in s["secret"]["items"]}
    assert items[f"role-{ANALYST_ROLE}"] == ANALYST_ROLE  # libs.db.roles reads <folder>/<role>


def _export_arguments() -> list[str]:
    export = _containers(_pod())["export"]
    assert export["command"][0] == "arcana"
    return [*export["command"][1:], *export.get("args", [])]


def test_it_writes_the_export_alone_into_its_output_volume() -> None:
    pod = _pod()
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    export, copy_out = _containers(pod)["export"], _containers(pod)["copy-out"]
    args = cli.parser().parse_args(_export_arguments())
    assert args.command == "export" and args.format == "jsonl" and args.topic is None
    writable = {m["mountPath"]: m["name"] for m in export["volumeMounts"] if not m.get("readOnly")}
    assert set(writable) == {"/tmp", "/export"}  # and a read-only root file system
    assert export["securityContext"]["readOnlyRootFilesystem"] is True
    assert str(args.output.parent) == "/export" and "emptyDir" in volumes[writable["/export"]]
    [held] = copy_out["volumeMounts"]  # the copy-out reads the output, writes nowhere
    assert (held["mountPath"], held["name"], held["readOnly"]) == ("/export", writable["/export"], True)
    assert copy_out["securityContext"]["readOnlyRootFilesystem"] is True


def _documented_commands() -> list[list[str]]:
    text = (PROJECT_ROOT / "docs" / "analytics.md").read_text()
    section = text[text.index("## In production") :]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [
        shlex.split(line.split(" > ")[0]) for block in blocks for line in block.splitlines() if line.strip()
    ]


def test_the_documented_run_and_copy_out_name_what_the_manifest_has() -> None:
    commands = _documented_commands()
    output = str(cli.parser().parse_args(_export_arguments()).output)
    assert any(
        c[:4] == ["kubectl", "-n", "arcana", "create"] and f"--from=cronjob/{NAME}" in c for c in commands
    )
    [copy] = [c for c in commands if "exec" in c]
    assert copy[copy.index("-c") + 1] == "copy-out" and copy[-2:] == ["cat", output]
