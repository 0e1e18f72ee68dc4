"""The typed client (``libs.client``) against the services' OpenAPI documents, the ones the gateway
serves at ``/v1/openapi/<service>.json`` and schemathesis checks: every operation the client calls
exists with the same method and path, the same path parameters, only query parameters the document
lists, and a JSON body exactly where the document takes one. The client imports nothing of the
server."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from werkzeug.test import Client

from libs import kit
from libs.client import OPERATIONS, ArcanaClient, Operation
from libs.client import operations as ops
from libs.config import PROJECT_ROOT
from libs.web.app import OPENAPI_PREFIX

METHODS = ("get", "put", "post", "delete", "patch")


@pytest.fixture(scope="module")
def documents() -> dict[str, dict[str, Any]]:
    mp = pytest.MonkeyPatch()
    mp.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:9/none")  # never opened: the pool is lazy
    mp.setenv("ARCANA_TOKEN_SECRET", "client-contract-" + "k" * 40)
    mp.delenv("ARCANA_SERVICES", raising=False)
    try:
        from services import wsgi

        client = Client(wsgi.build_app())
        docs = {}
        for defn in kit.discover():
            response = client.get(f"{OPENAPI_PREFIX}/{defn.name}.json")
            assert response.status_code == 200
            docs[defn.name] = json.loads(response.data)
        return docs
    finally:
        mp.undo()


def _find(documents: dict[str, dict[str, Any]], op: Operation) -> dict[str, Any] | None:
    for doc in documents.values():
        found = doc["paths"].get(op.path, {}).get(op.method.lower())
        if found is not None:
            return dict(found, _path_item=doc["paths"][op.path])
    return None


def _parameters(spec: dict[str, Any], where: str) -> dict[str, bool]:
    params = [*spec["_path_item"].get("parameters", []), *spec.get("parameters", [])]
    return {p["name"]: bool(p.get("required")) for p in params if p.get("in") == where}


@pytest.mark.parametrize("op", OPERATIONS, ids=lambda op: f"{op.method} {op.path}")
def test_each_operation_the_client_calls_is_in_a_document(documents: dict[str, Any], op: Operation) -> None:
    spec = _find(documents, op)
    assert spec is not None, f"{op.method} {op.path} is in no service's OpenAPI document"
    assert set(_parameters(spec, "path")) == set(op.path_params)
    query = _parameters(spec, "query")
    assert set(op.query) <= set(query), f"query {set(op.query) - set(query)} not in the document"
    assert not {name for name, required in query.items() if required} - set(op.query)
    assert ("requestBody" in spec) == op.body, f"{op.method} {op.path}: body {op.body} vs the document"


def test_the_client_covers_every_player_operation(documents: dict[str, Any]) -> None:
    declared = {(op.method, op.path) for op in OPERATIONS}
    documented = {
        (method.upper(), path)
        for doc in documents.values()
        for path, item in doc["paths"].items()
        for method in item
        if method in METHODS
    }
    assert documented - declared == set(), "operations the client does not offer"


def test_every_declared_operation_has_a_method_that_calls_it() -> None:
    source = (PROJECT_ROOT / "libs/client/client.py").read_text()
    used = {node.attr for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Attribute)}
    names = {name for name, value in vars(ops).items() if isinstance(value, Operation)}
    assert names - used == set()


def test_the_client_imports_nothing_of_the_server() -> None:
    for path in Path(PROJECT_ROOT / "libs/client").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for module in modules:
                assert not module.startswith("services"), f"{path.name} imports {module}"
                assert not module.startswith("libs.") or module.startswith("libs.client"), (
                    f"{path.name}: {module}"
                )


def test_a_call_refuses_a_query_parameter_or_body_the_operation_does_not_take() -> None:
    client = ArcanaClient("http://127.0.0.1:9")
    with pytest.raises(TypeError):
        client.call(ops.WALLET, query={"page": 2})
    with pytest.raises(TypeError):
        client.call(ops.WALLET, json={})
    with pytest.raises(TypeError):
        client.call(ops.MATCH)  # no match_id


def test_the_clients_stream_reader_yields_events_and_named_states_and_skips_pings() -> None:
    from libs.client.client import sse_items

    lines = [
        "retry: 2000",
        "",
        "id: 3",
        'data: {"version": 3, "type": "CardDrawn",',
        'data:  "data": {}}',
        "",
        ": ping",
        "",
        "event: state",
        "id: 3",
        'data: {"version": 3, "awaiting": ["p1"], "legal_commands": []}',
        "",
        'data: {"version": 4, "type": "TurnEnded", "data": {}}',  # unterminated: not a whole frame
    ]
    assert list(sse_items(lines)) == [
        {"version": 3, "type": "CardDrawn", "data": {}},
        {"type": "state", "version": 3, "awaiting": ["p1"], "legal_commands": []},
    ]
