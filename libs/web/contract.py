"""The OpenAPI document states what the server enforces, for every service, without per-endpoint work.

``create_app`` builds each service's document with :class:`ContractPlugin` (an apispec plugin) and
:class:`ContractMarshmallowPlugin` (marshmallow -> JSON Schema):

- every string a client sends is NUL-free (``pattern``), as the body guard and PostgreSQL require;
  a string with an enum, a format or a pattern of its own already excludes NUL;
- a ``UnionSchema`` (``libs.web.schemas``) is a ``oneOf`` of its variants with a ``discriminator``;
- a success response whose body has a required identifier links to the operations taking it as a
  path parameter (:func:`link_identifiers`);
- each operation lists every error status it can answer, all in the one error shape (component
  ``Error``), each with the codes it carries: the generic ones, from what the operation has (a body,
  parameters, security, ``Idempotency-Key``) and from ``libs.web`` (the body guard, auth,
  idempotency, the database being unavailable), plus the service's domain errors (its
  ``ErrorTable``). There is no ``default`` response: a status not listed is a bug. Codes of
  refusals by rules beyond the schema are listed as ``x-rule-codes`` (``RULE_CODES``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, cast

import marshmallow as ma
from apispec import BasePlugin
from apispec.ext.marshmallow import MarshmallowPlugin, OpenAPIConverter

from libs.web.observability import REQUEST_ID_PATTERN

__all__ = [
    "KEEPS_RESOURCE",
    "NUL_FREE",
    "RULE_CODES",
    "ContractMarshmallowPlugin",
    "ContractPlugin",
    "DomainErrors",
    "FullMatch",
    "link_identifiers",
    "path_parameter",
    "uuid_path",
]

NUL_FREE = r"^[^\x00]*$"
"""The pattern of a string that holds no NUL character (PostgreSQL text cannot; the server answers
400 ``invalid_text``)."""

KEEPS_RESOURCE = "x-keeps-resource"
"""On a DELETE operation: it ends the resource (a cancelled queue ticket) rather than erasing it, so
reading it afterwards answers 200 with its final state, not 404."""

RULE_CODES = "x-rule-codes"
"""On an error response: its codes that refuse well-formed input by rules a JSON Schema cannot
state (the game's rules, a deck's legality, the match's state). A request valid by the document
may get them; every other error code means the request was not valid by the document."""

# Generic codes that depend on what happened before, not on the request alone.
_STATE_CODES = {"idempotency_key_reused"}

ERROR_REF = {"$ref": "#/components/schemas/Error"}
_BODY_METHODS = {"post", "put", "patch", "delete"}
_METHODS = {"get", "head", "post", "put", "patch", "delete", "options", "trace"}
_RETRY_AFTER = {
    "description": "Seconds to wait before retrying.",
    "schema": {"type": "integer", "minimum": 0},
}
_REQUEST_ID = {
    "description": "The request's id (the client's X-Request-Id when it is 1-128 of [A-Za-z0-9._:-]).",
    "schema": {"type": "string", "pattern": REQUEST_ID_PATTERN},
}
_REPLAYED = {
    "description": "Present when this is the stored answer to an earlier request with the same key.",
    "schema": {"type": "string", "enum": ["true"]},
}
_WWW_AUTHENTICATE = {"description": "The bearer challenge.", "schema": {"type": "string"}}

DomainErrors = Mapping[int, Sequence[str]]
"""Status -> the codes a service's domain errors carry with it (``ErrorTable.statuses()``)."""


def _nul_free(
    converter: OpenAPIConverter, field: ma.fields.Field, ret: dict[str, Any], **_: Any
) -> dict[str, Any]:
    if ret.get("type") != "string" or {"enum", "format", "pattern"} & set(ret):
        return {}
    return {"pattern": NUL_FREE}


class ContractConverter(OpenAPIConverter):
    """marshmallow -> JSON Schema, with ``UnionSchema`` as a discriminated ``oneOf``."""

    def schema2jsonschema(self, schema: Any) -> dict[str, Any]:
        from libs.web.schemas import UnionSchema

        instance = schema() if isinstance(schema, type) else schema
        if isinstance(instance, UnionSchema):
            refs = {kind: self.resolve_nested_schema(variant) for kind, variant in instance.VARIANTS.items()}
            out: dict[str, Any] = {
                "oneOf": list(refs.values()),
                "discriminator": {"propertyName": instance.DISCRIMINATOR},
            }
            if all("$ref" in ref for ref in refs.values()):
                out["discriminator"]["mapping"] = {kind: ref["$ref"] for kind, ref in refs.items()}
            description = (type(instance).__doc__ or "").strip()
            if description:
                out["description"] = description
            return out
        result: dict[str, Any] = super().schema2jsonschema(schema)
        result.update(copy.deepcopy(dict(getattr(instance, "JSON_SCHEMA", None) or {})))
        return result


class ContractMarshmallowPlugin(MarshmallowPlugin):
    Converter = ContractConverter

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        assert self.converter is not None
        self.converter.add_attribute_function(_nul_free)


def _codes(*groups: Iterable[str]) -> list[str]:
    out: list[str] = []
    for group in groups:
        out.extend(code for code in group if code not in out)
    return out


class ContractPlugin(BasePlugin):
    """Completes each operation: NUL-free path parameters and every error response it can answer."""

    def __init__(self, domain_errors: DomainErrors | None = None, rule_codes: Sequence[str] = ()) -> None:
        self.domain_errors = {int(k): list(v) for k, v in (domain_errors or {}).items()}
        self.rule_codes = list(rule_codes)

    def path_helper(
        self,
        path: str | None = None,
        operations: dict[str, Any] | None = None,
        parameters: list[dict[str, Any]] | None = None,
        **kwargs: Any,
    ) -> str | None:
        for param in parameters or ():
            schema = param.get("schema")
            if param.get("in") == "path" and isinstance(schema, dict):
                _constrain_string(schema)
        return None

    def operation_helper(
        self, path: str | None = None, operations: dict[str, Any] | None = None, **kwargs: Any
    ) -> None:
        for method, operation in (operations or {}).items():
            if method.lower() in _METHODS and isinstance(operation, dict):
                self._complete(path or "", method.lower(), operation)

    def _complete(self, path: str, method: str, operation: dict[str, Any]) -> None:
        params = [p for p in operation.get("parameters", []) if isinstance(p, dict)]
        for param in params:
            if isinstance(param.get("schema"), dict):
                _constrain_string(param["schema"])
        security = {name for req in operation.get("security", []) for name in req}
        idempotent = any(p.get("in") == "header" and p.get("name") == "Idempotency-Key" for p in params)
        has_body = method in _BODY_METHODS
        has_query = any(p.get("in") == "query" for p in params)
        has_path = "{" in path

        errors: dict[int, list[str]] = {
            400: _codes(
                ["invalid_text"],
                ["malformed_json"] if has_body else [],
                ["invalid_idempotency_key"] if idempotent else [],
            ),
            503: ["service_unavailable"],
        }
        if "bearerAuth" in security:
            errors[401] = ["unauthorized"]
        if "operatorAuth" in security:
            errors[401] = ["unauthorized"]
            errors[403] = ["forbidden"]
            errors[404] = ["not_found"]
        if has_path:
            errors.setdefault(404, []).append("not_found")
        if idempotent:
            errors[409] = ["idempotency_in_progress"]
        if has_body:
            errors[413] = ["payload_too_large"]
            errors[415] = ["unsupported_media_type"]
        if has_body or has_query:
            errors[422] = ["validation_error"]
        if idempotent:
            errors.setdefault(422, []).append("idempotency_key_reused")
        for status, codes in self.domain_errors.items():
            errors[status] = _codes(errors.get(status, []), codes)

        responses: dict[Any, Any] = operation.setdefault("responses", {})
        responses.pop("default", None)
        for status, codes in sorted(errors.items()):
            declared = responses.get(str(status)) or responses.get(status)
            note = (
                declared.get("description") if isinstance(declared, dict) and "$ref" not in declared else None
            )
            description = "error code: " + ", ".join(f"`{c}`" for c in codes)
            if note and note not in codes:
                description += f" ({note})"
            response: dict[str, Any] = {
                "description": description,
                "content": {"application/json": {"schema": copy.deepcopy(ERROR_REF)}},
            }
            if status in (429, 503) or (status == 409 and idempotent):
                response["headers"] = {"Retry-After": copy.deepcopy(_RETRY_AFTER)}
            if status == 401:
                response["headers"] = {"WWW-Authenticate": copy.deepcopy(_WWW_AUTHENTICATE)}
            rules = [c for c in codes if c in self.rule_codes or c in _STATE_CODES]
            if rules:
                response[RULE_CODES] = rules
            responses.pop(status, None)
            responses[str(status)] = response
        for status, response in responses.items():
            if not isinstance(response, dict) or "$ref" in response:
                continue
            headers = response.setdefault("headers", {})
            headers.setdefault("X-Request-Id", copy.deepcopy(_REQUEST_ID))
            if idempotent and str(status).startswith("2"):
                headers.setdefault("Idempotent-Replayed", copy.deepcopy(_REPLAYED))


def _constrain_string(schema: dict[str, Any]) -> None:
    if schema.get("type") == "string" and not {"enum", "format", "pattern"} & set(schema):
        schema["pattern"] = NUL_FREE


class FullMatch(ma.validate.Regexp):
    """``Regexp`` that must match the whole string (``re.fullmatch``): documented as the pattern,
    anchored with ``^...$`` (a JSON Schema pattern matches anywhere otherwise)."""

    def __init__(self, regex: str, flags: int = 0, *, error: str | None = None) -> None:
        super().__init__(f"^(?:{regex})$", flags, error=error)

    def __call__(self, value: Any) -> Any:
        regex = cast("re.Pattern[str]", self.regex)
        if not isinstance(value, str) or regex.fullmatch(value) is None:
            raise ma.ValidationError(self._format_error(value))
        return value


def path_parameter(name: str, description: str, **schema: Any) -> list[dict[str, Any]]:
    """The ``parameters`` of a route (``@blp.route(..., parameters=...)``) documenting its path
    parameter ``name`` with ``schema`` (a format, a pattern or an enum), so a client knows which
    values name a resource; any other value answers 404, as the description should say."""
    return [
        {
            "in": "path",
            "name": name,
            "required": True,
            "description": description,
            "schema": {"type": "string", **schema},
        }
    ]


def uuid_path(name: str, description: str) -> list[dict[str, Any]]:
    """:func:`path_parameter` of an identifier the server issues as a UUID."""
    return path_parameter(name, description, format="uuid")


def link_identifiers(spec: Any) -> None:
    """OpenAPI ``links`` from each success response whose body carries an identifier (a required
    top-level property) to every operation taking it as a path parameter of the same name: e.g.
    ``POST /v1/practice`` answers ``match_id``, which ``GET /v1/matches/{match_id}`` takes. Clients
    (and schemathesis's stateful phase) follow them. Call once the blueprints are registered."""
    paths: dict[str, dict[str, Any]] = spec._paths  # apispec keeps no public view of its paths
    schemas: dict[str, Any] = spec.components.schemas
    takers: dict[str, list[tuple[str, str]]] = {}
    for path, item in paths.items():
        for name in re.findall(r"\{(\w+)\}", path):
            takers.setdefault(name, []).extend((path, m) for m in item if m in _METHODS)
    for path, item in paths.items():
        for method, operation in item.items():
            if method not in _METHODS or not isinstance(operation, dict):
                continue
            for status, response in operation.get("responses", {}).items():
                if not str(status).startswith("2") or not isinstance(response, dict):
                    continue
                body = _json_schema(response, schemas)
                for name in body.get("required", []):
                    targets = [(p, m) for p, m in takers.get(name, []) if (p, m) != (path, method)]
                    links = response.setdefault("links", {}) if targets else {}
                    for target_path, target_method in targets:
                        pointer = target_path.replace("~", "~0").replace("/", "~1")
                        link_name = re.sub(r"\W+", "_", f"{target_method}{target_path}").strip("_")
                        links[link_name] = {
                            "operationRef": f"#/paths/{pointer}/{target_method}",
                            "parameters": {name: f"$response.body#/{name}"},
                        }


def _json_schema(response: dict[str, Any], schemas: dict[str, Any]) -> dict[str, Any]:
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    ref = schema.get("$ref", "") if isinstance(schema, dict) else ""
    if ref.startswith("#/components/schemas/"):
        schema = schemas.get(ref.rsplit("/", 1)[1], {})
    return schema if isinstance(schema, dict) else {}
