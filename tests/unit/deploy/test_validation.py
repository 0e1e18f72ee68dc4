"""Issue 19, acceptance: every overlay, and production with each optional component, renders and
validates: Kubernetes' own kinds against the schemas of the oldest and newest Kubernetes versions
supported (kubernetes-validate, strict: an unknown field fails), the Strimzi, CloudNativePG and
Prometheus Operator resources against the schemas the project carries (deploy/k8s/schemas)."""

from __future__ import annotations

import copy
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import pytest
import yaml
from referencing import Registry, Resource

from tests.unit.deploy.rendering import K8S, OPTIONAL, OVERLAYS, PRODUCTION, render, render_with

KUBERNETES_VERSIONS = ("1.30", "1.37")  # the oldest and newest this project supports
SCHEMAS = K8S / "schemas"
CUSTOM_GROUPS = ("kafka.strimzi.io", "postgresql.cnpg.io", "monitoring.coreos.com")


@cache
def _registry() -> Registry:
    common = yaml.safe_load((SCHEMAS / "common.yaml").read_text())
    return Registry().with_resource("common.yaml", Resource.from_contents(common | {"$schema": _DIALECT}))


_DIALECT = "https://json-schema.org/draft/2020-12/schema"


@cache
def _custom_schema(api_version: str, kind: str) -> dict[str, Any]:
    path = SCHEMAS / f"{api_version.replace('/', '_')}_{kind}.yaml"
    assert path.is_file(), f"no schema for {api_version} {kind}: add {path.name} from its CRD"
    return yaml.safe_load(path.read_text()) | {"$schema": _DIALECT}


def _errors(document: dict[str, Any]) -> list[str]:
    if document["apiVersion"].split("/")[0] in CUSTOM_GROUPS:
        schema = _custom_schema(document["apiVersion"], document["kind"])
        validator = jsonschema.Draft202012Validator(schema, registry=_registry())
        return [
            f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)
        ]
    found = []
    for version in KUBERNETES_VERSIONS:
        try:
            kubernetes_validate.validate(copy.deepcopy(document), version, strict=True)
        except kubernetes_validate.ValidationError as e:
            found.append(f"{version} {'.'.join(map(str, e.path))}: {e.message}")
    return found


def _renderings() -> list[Any]:
    params = [pytest.param(lambda _tmp, o=o: render(o), id=o.name) for o in OVERLAYS]
    for component in OPTIONAL:
        params.append(
            pytest.param(
                lambda tmp, c=component: render_with(tmp, PRODUCTION, [c]), id=f"production+{component.name}"
            )
        )
    return params


@pytest.mark.parametrize("rendering", _renderings())
def test_every_rendered_object_validates(rendering: Any, tmp_path: Path) -> None:
    docs = rendering(tmp_path)
    assert docs
    problems = {f"{d['kind']}/{d['metadata']['name']}": _errors(d) for d in docs}
    assert {k: v for k, v in problems.items() if v} == {}


def test_each_optional_component_adds_its_resources(tmp_path: Path) -> None:
    production = {(d["kind"], d["metadata"]["name"]) for d in render(PRODUCTION)}
    for component in OPTIONAL:
        folder = tmp_path / component.name
        folder.mkdir()
        added = {(d["kind"], d["metadata"]["name"]) for d in render_with(folder, PRODUCTION, [component])}
        assert added > production, component.name


@pytest.mark.parametrize(
    "broken",
    [
        {"kind": "KafkaTopic", "path": ["spec", "replicas"], "value": 0},
        {"kind": "KafkaUser", "path": ["spec", "authorization", "acls", 0, "operations"], "value": ["Steal"]},
        {
            "kind": "Deployment",
            "path": ["spec", "template", "spec", "containers", 0, "ports", 0, "containerPort"],
            "value": "http",
        },
        {
            "kind": "Deployment",
            "path": ["spec", "template", "spec", "containers", 0, "livenessProbe", "typo"],
            "value": 1,
        },
        {"kind": "Ingress", "path": ["spec", "rules", 0, "host"], "value": 42},
    ],
    ids=lambda b: f"{b['kind']}.{b['path'][-1]}",
)
def test_the_validation_catches_a_broken_object(broken: dict[str, Any]) -> None:
    [document] = [d for d in render(PRODUCTION) if d["kind"] == broken["kind"]][:1]
    document = copy.deepcopy(document)
    node: Any = document
    for step in broken["path"][:-1]:
        node = node[step]
    node[broken["path"][-1]] = broken["value"]
    assert _errors(document)
