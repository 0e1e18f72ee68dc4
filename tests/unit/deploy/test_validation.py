"""Issue 19, acceptance: every overlay, and production with each optional component, renders and
validates: Kubernetes' own kinds against the schemas of the oldest and newest Kubernetes versions
supported (kubernetes-validate, strict: an unknown field fails), the Strimzi, CloudNativePG and
Prometheus Operator resources against the schemas the project carries (deploy/k8s/schemas).

Each rendering is made once (``rendering``'s cache), each schema's validator built once, and an
object rendered alike by several renderings (production's, again under each optional component) is
validated once: it is the same object."""

from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any

import jsonschema
import pytest
import yaml
from kubernetes_validate import utils as kubernetes_schemas
from referencing import Registry, Resource

from tests.unit.deploy.rendering import K8S, OPTIONAL, OVERLAYS, PRODUCTION, RESTORE, render, render_with

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


@cache
def _custom_validator(api_version: str, kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_custom_schema(api_version, kind), registry=_registry())


@cache
def _kubernetes_validator(version: str, api_version: str, kind: str) -> jsonschema.Draft202012Validator:
    """kubernetes-validate's strict validator (``kubernetes_validate.validate(..., strict=True)``:
    the schemas of the latest release it carries not newer than ``version``), built once."""
    assert version <= kubernetes_schemas.major_minor(kubernetes_schemas.latest_version()), version
    carried = [v for v in kubernetes_schemas.all_versions() if kubernetes_schemas.major_minor(v) <= version]
    folder = f"kubernetes-json-schema/v{carried[-1]}-local-strict"
    group = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", api_version)  # rbac.authorization.k8s.io/v1: rbac-v1
    try:
        schema = kubernetes_schemas.schema_contents(f"{folder}/{kind.lower()}-{group}.json", version)
    except FileNotFoundError:
        raise AssertionError(
            f"kubernetes-validate has no schema for {api_version} {kind} in {version}"
        ) from None
    definitions = kubernetes_schemas.schema_contents(f"{folder}/_definitions.json", version)
    registry = Resource.from_contents(definitions) @ (Resource.from_contents(schema) @ Registry())
    return jsonschema.Draft202012Validator(schema, registry=registry)


_FOUND: dict[str, list[str]] = {}


def _errors(document: dict[str, Any]) -> list[str]:
    """What is wrong with ``document``; an object equal to one already validated is not again."""
    key = yaml.dump(document, Dumper=yaml.CSafeDumper, sort_keys=True)  # keeps 1 and "1" apart
    if key not in _FOUND:
        _FOUND[key] = _validate(document)
    return list(_FOUND[key])


def _validate(document: dict[str, Any]) -> list[str]:
    if document["apiVersion"].split("/")[0] in CUSTOM_GROUPS:
        validator = _custom_validator(document["apiVersion"], document["kind"])
        return [
            f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)
        ]
    return [
        f"{version} {'.'.join(map(str, e.absolute_path))}: {e.message}"
        for version in KUBERNETES_VERSIONS
        for e in _kubernetes_validator(version, document["apiVersion"], document["kind"]).iter_errors(
            document
        )
    ]


def _renderings() -> list[Any]:
    params = [pytest.param(lambda o=o: render(o), id=o.name) for o in OVERLAYS]
    params.append(pytest.param(lambda: render(RESTORE), id="restore"))
    for component in OPTIONAL:
        params.append(
            pytest.param(lambda c=component: render_with(PRODUCTION, [c]), id=f"production+{component.name}")
        )
    return params


@pytest.mark.parametrize("rendering", _renderings())
def test_every_rendered_object_validates(rendering: Any) -> None:
    docs = rendering()
    assert docs
    problems = {f"{d['kind']}/{d['metadata']['name']}": _errors(d) for d in docs}
    assert {k: v for k, v in problems.items() if v} == {}


def test_each_optional_component_adds_its_resources() -> None:
    production = {(d["kind"], d["metadata"]["name"]) for d in render(PRODUCTION)}
    for component in OPTIONAL:
        added = {(d["kind"], d["metadata"]["name"]) for d in render_with(PRODUCTION, [component])}
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
