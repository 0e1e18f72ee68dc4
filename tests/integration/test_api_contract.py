"""The API contract: schemathesis, with all its checks, against every service's OpenAPI document.

The gateway WSGI app (``services.wsgi.build_app``: every service ``libs.kit.discover()`` finds) runs
against a database of its own, every service's schema migrated (``migrate_all``). schemathesis
4.x's engine runs the phases its CLI runs (examples, coverage, fuzzing, stateful) with every check
enabled, a bounded number of examples per operation and a fixed seed, authenticated as a real
registered player (bearer token from ``POST /v1/sessions``) and as the operator. Zero failures:
a response the document does not describe (status, headers, body), a request the document calls
valid but the server refuses, a request it calls invalid but the server accepts, or any 5xx.

A new service is covered by being discovered: nothing here names a service's operations.

The budget (issue 18, point 7: CPU, on 2 cores shared by 5 workers): the coverage phase sends, for
every operation, every boundary and every invalid value its document defines (it takes no number);
the fuzzing phase adds 10 random cases per state-changing operation and 5 per GET (a pure read, its
parameters' boundaries already sent); the stateful phase follows the documents' links in 10
scenarios of at most 10 calls. Measured on 2026-12-01, the six services in one process on a loaded
machine (load average 6 to 11), before (30 examples per operation, 30 scenarios of at most 20 calls)
and after: accounts 24.5 s -> 13.5 s, matchmaking 44.0 s -> 12.4 s, economy 72.4 s -> 32.7 s, match
33.0 s -> 11.5 s, progression 12.3 s -> 3.4 s, ratings 13.7 s -> 4.3 s (200 s -> 78 s; CPU of the
process, setup included, 85 s -> 49 s). Most of what is left is the coverage phase (economy: 1,087
requests, ~60% of them in the server's handling); each run prints its phases' times and requests.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
import traceback
import uuid
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest
import requests
import schemathesis
from psycopg_pool import ConnectionPool
from schemathesis.engine import Status, events, from_schema
from schemathesis.openapi.checks import RejectedPositiveData, UseAfterFree
from werkzeug.serving import WSGIRequestHandler, make_server

from harness.stack import create_database
from libs import kit
from libs.db import make_pool
from libs.db.migrate_all import migrate_all
from libs.devstack.ports import free_port
from libs.web import issue_token
from libs.web.app import OPENAPI_PREFIX
from libs.web.contract import KEEPS_RESOURCE, RULE_CODES
from libs.web.idempotency import KEY_PATTERN
from services import wsgi
from services.match.scheduling import RecordingScheduler
from services.match.usecases.streams import StreamSettings
from tests.integration.conftest import settings_for_tests

SECRET = "contract-secret-" + "c" * 48
OPERATOR = "contract-operator-" + "o" * 32
USERNAME, PASSWORD = "contract_player", "contract password 1"
# The budget (docs/testing.md, "API contract"): the coverage phase sends every boundary and every
# invalid value the documents define, whatever these numbers; fuzzing adds random cases on top.
FUZZING_EXAMPLES = 10  # per operation that changes state
READ_FUZZING_EXAMPLES = 5  # per GET: a pure read, its boundaries sent by the coverage phase
STATEFUL_SCENARIOS = 10  # sequences following the documents' links
STATEFUL_STEPS = 10  # calls at most in each
SEED = 20261130


class _QuietHandler(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@pytest.fixture(scope="module")
def gateway(postgres_url: str) -> Iterator[str]:
    url = create_database(postgres_url, prefix="contract")
    migrate_all(url)
    settings = settings_for_tests(url, token_secret=SECRET, operator_token=OPERATOR, max_body_bytes=16 * 1024)
    pool: ConnectionPool = make_pool(url, min_size=1, max_size=8)
    mp = pytest.MonkeyPatch()
    mp.setenv("ARCANA_SCRYPT_N", "1024")  # cheap password hashing for the many registrations
    # A match stream stays open while its match runs: here for half a second, so a call returns.
    streams = StreamSettings(heartbeat_seconds=0.2, max_seconds=0.5)
    app = wsgi.build_app(dataclasses.replace(settings), pool, scheduler=RecordingScheduler(), streams=streams)
    server = make_server("127.0.0.1", free_port(), app, threaded=True, request_handler=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    quiet = logging.getLogger("arcana.web.access")
    quiet.disabled = True  # one line per request: thousands
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        quiet.disabled = False
        server.shutdown()
        thread.join()
        mp.undo()
        pool.close()


SERVICES = [defn.name for defn in kit.discover()]


@pytest.fixture(scope="module")
def player_tokens(gateway: str) -> dict[str, str]:
    """A registered player's bearer tokens from ``POST /v1/sessions``, one per service's run, all
    taken before any run: a run that logs out or trips the log-in throttle leaves the others theirs."""
    credentials = {"username": USERNAME, "password": PASSWORD}
    created = requests.post(f"{gateway}/v1/accounts", json=credentials, timeout=10)
    assert created.status_code == 201, created.text
    tokens = {}
    for service in SERVICES:
        session = requests.post(f"{gateway}/v1/sessions", json=credentials, timeout=10)
        assert session.status_code == 201, session.text
        tokens[service] = str(session.json()["token"])
    return tokens


def _config(player_token: str) -> schemathesis.Config:
    return schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "continue-on-failure": True,
            "cache": {"enabled": False},
            "generation": {"max-examples": FUZZING_EXAMPLES, "deterministic": True, "database": "none"},
            "checks": {"enabled": True},
            "auth": {
                "openapi": {"bearerAuth": {"bearer": player_token}, "operatorAuth": {"bearer": OPERATOR}}
            },
            "phases": {
                "stateful": {"max-steps": STATEFUL_STEPS, "generation": {"max-examples": STATEFUL_SCENARIOS}}
            },
            "operations": [
                {
                    "include-method": "GET",
                    "phases": {"fuzzing": {"generation": {"max-examples": READ_FUZZING_EXAMPLES}}},
                }
            ],
        }
    )


def map_query(context: Any, query: dict[str, Any] | None) -> dict[str, Any] | None:
    """A long poll's ``wait`` (seconds, documented up to 25) shortened to at most 0.2 s when valid,
    so the test does not sleep; invalid values are sent as generated."""
    wait = (query or {}).get("wait")
    if isinstance(wait, int | float) and not isinstance(wait, bool) and 0 < wait <= 25:
        return {**(query or {}), "wait": min(wait, 0.2)}
    return query


def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """Keep every failure but one kind: a request valid by the document refused with one of the
    codes the document itself lists as ``x-rule-codes`` on that status (a refusal by rules no
    JSON Schema can state: the game's rules, a deck's legality, the match's state); and a read
    after a DELETE the document marks ``x-keeps-resource`` (it ends the resource, which stays
    readable in its final state)."""
    if isinstance(failure, UseAfterFree):
        method, path = failure.operation.split(" ", 1)
        deleting = case.operation.schema.raw_schema["paths"][path][method.lower()]
        return not deleting.get(KEEPS_RESOURCE)
    if not isinstance(failure, RejectedPositiveData):
        return True
    declared = case.operation.definition.raw.get("responses", {}).get(str(response.status_code), {})
    try:
        code = response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return True
    return code not in declared.get(RULE_CODES, [])


@dataclasses.dataclass
class _Run:
    failed: list[str] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)
    tested: set[str] = dataclasses.field(default_factory=set)  # operations that got requests
    phases: set[str] = dataclasses.field(default_factory=set)  # phases that sent requests
    stop_reason: str | None = None
    # per phase: [seconds, requests, seconds waiting for the server's answers] (printed, not asserted)
    spent: dict[str, list[float]] = dataclasses.field(default_factory=dict)
    by_operation: dict[str, float] = dataclasses.field(default_factory=dict)  # "phase label" -> seconds

    def timing(self) -> str:
        slowest = sorted(self.by_operation.items(), key=lambda item: -item[1])[:3]
        return (
            ", ".join(
                f"{phase} {seconds:.1f} s ({requests:.0f} requests, server {server:.1f} s)"
                for phase, (seconds, requests, server) in self.spent.items()
                if requests
            )
            + "; slowest: "
            + ", ".join(f"{label} {seconds:.1f} s" for label, seconds in slowest)
        )


def _run(stream: Any) -> _Run:
    """Check failures, engine errors, what was tested and why the engine stopped, from its events."""
    run = _Run()
    for event in stream:
        if isinstance(event, events.PhaseStarted):
            run.spent.setdefault(event.phase.name.value, [0, 0, 0])[0] -= event.timestamp
        elif isinstance(event, events.PhaseFinished) and event.phase.name.value in run.spent:
            run.spent[event.phase.name.value][0] += event.timestamp
        if isinstance(event, events.ScenarioFinished):
            spent = run.spent.setdefault(event.phase.value, [0, 0, 0])
            answers = [i.response for i in event.recorder.interactions.values() if i.response is not None]
            spent[1] += len(event.recorder.interactions)
            spent[2] += sum(a.elapsed for a in answers)
            if event.phase.value != "stateful":
                label = f"{event.phase.value} {event.label}"
                run.by_operation[label] = run.by_operation.get(label, 0) + event.elapsed_time
            if event.recorder.interactions:
                run.phases.add(event.phase.value)
                if event.phase.value != "stateful":
                    run.tested.add(event.label or "")
            if event.status != Status.FAILURE:
                continue
            for case_id, checks in event.recorder.checks.items():
                for check in checks:
                    if check.status == Status.FAILURE and check.failure_info is not None:
                        case = event.recorder.cases[case_id].value
                        interaction = event.recorder.interactions.get(case_id)
                        answer = interaction.response if interaction is not None else None
                        got = f"{answer.status_code} {answer.content[:300]!r}" if answer is not None else "-"
                        run.failed.append(
                            f"[{event.phase.value}] {event.label}: {check.name}: "
                            f"{check.failure_info.failure.title}\n  {check.failure_info.failure.message}\n"
                            f"  {check.failure_info.code_sample}\n"
                            f"  body={getattr(case, 'body', None)!r}\n  answer: {got}"
                        )
        elif isinstance(event, events.NonFatalError | events.FatalError):
            exc = event.value if isinstance(event, events.NonFatalError) else event.exception
            where = f"[{event.phase}] {event.label}" if isinstance(event, events.NonFatalError) else "engine"
            run.errors.append(f"{where}: " + "".join(traceback.format_exception(exc)))
        elif isinstance(event, events.EngineFinished):
            run.stop_reason = event.stop_reason.value
    return run


@pytest.mark.parametrize("service", SERVICES)
def test_the_server_keeps_its_documented_contract(
    gateway: str, player_tokens: dict[str, str], service: str
) -> None:
    started = time.monotonic()
    schema = schemathesis.openapi.from_url(
        f"{gateway}{OPENAPI_PREFIX}/{service}.json", config=_config(player_tokens[service])
    )
    schema.hook(filter_failure)
    schema.hook(map_query)
    loaded = time.monotonic()
    run = _run(from_schema(schema).execute())
    outside = time.monotonic() - loaded - sum(seconds for seconds, _, _ in run.spent.values())
    print(
        f"{service}: {time.monotonic() - started:.1f} s ({loaded - started:.1f} s loading the document, "
        f"{outside:.1f} s outside the phases), {len(run.tested)} operations;",
        run.timing(),
    )
    assert not run.errors, "\n".join(run.errors)
    assert not run.failed, f"{len(run.failed)} failures:\n" + "\n".join(run.failed)
    assert run.stop_reason == "completed"
    documented = {
        f"{method.upper()} {path}"
        for path, item in schema.raw_schema["paths"].items()
        for method in item
        if method != "parameters"
    }
    assert documented and run.tested >= documented, documented - run.tested
    assert {"coverage", "fuzzing"} <= run.phases, run.phases
    linked = any(
        "links" in response
        for item in schema.raw_schema["paths"].values()
        for method, op in item.items()
        if method != "parameters"
        for response in op["responses"].values()
    )
    assert "stateful" in run.phases or not linked, run.phases  # sequences through the links were sent


def _document(gateway: str, service: str) -> dict[str, Any]:
    response = requests.get(f"{gateway}{OPENAPI_PREFIX}/{service}.json", timeout=10)
    assert response.status_code == 200
    doc: dict[str, Any] = response.json()
    return doc


def _valid(doc: dict[str, Any], component: str, instance: Any) -> bool:
    schema = {"$ref": f"#/components/schemas/{component}", "components": doc["components"]}
    return bool(jsonschema_rs.Draft4Validator(schema).is_valid(instance))


@pytest.mark.parametrize("service", SERVICES)
def test_every_operation_lists_its_errors_in_the_one_shape(gateway: str, service: str) -> None:
    doc = _document(gateway, service)
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method == "parameters":
                continue
            responses = op["responses"]
            assert "default" not in responses, (method, path)
            errors = {int(s): r for s, r in responses.items() if int(s) >= 400}
            assert {400, 503} <= set(errors), (method, path)
            for status, response in errors.items():
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}, (method, path, status)
            secured = {name for req in op.get("security", []) for name in req}
            if secured:
                assert 401 in errors, (method, path)
            if method in ("post", "put", "patch", "delete"):
                assert {413, 415, 422} <= set(errors), (method, path)


def test_the_documents_state_what_the_server_refuses(gateway: str, player_tokens: dict[str, str]) -> None:
    accounts, match = _document(gateway, "accounts"), _document(gateway, "match")

    # The command union: a field of another command is invalid by the document, as by the server.
    assert _valid(match, "CommandIn", {"type": "play", "card": "c1", "position": 0})
    assert _valid(match, "CommandIn", {"type": "attack", "attacker": "c1", "target": "hero"})
    assert _valid(match, "CommandIn", {"type": "end_turn", "expected_version": 3})
    for refused in (
        {"type": "play", "card": "c1", "attacker": "c2"},
        {"type": "end_turn", "card": "c1"},
        {"type": "attack", "attacker": "c1"},
        {"type": "dance"},
        {"type": "play", "card": "c\x001"},
    ):
        assert not _valid(match, "CommandIn", refused), refused
    assert match["components"]["schemas"]["CommandIn"]["discriminator"]["propertyName"] == "type"

    # Usernames 3-24 of [A-Za-z0-9_], passwords 8-128, no NUL anywhere.
    assert _valid(accounts, "RegisterIn", {"username": "Ada_1", "password": "p" * 8})
    for refused in (
        {"username": "ab", "password": "p" * 8},
        {"username": "a" * 25, "password": "p" * 8},
        {"username": "ada\u212a", "password": "p" * 8},  # KELVIN SIGN: lower() makes it "k"
        {"username": "ada\n", "password": "p" * 8},
        {"username": "ada", "password": "p" * 7},
        {"username": "ada", "password": "p" * 129},
        {"username": "ada", "password": "pass\x00word"},
    ):
        assert not _valid(accounts, "RegisterIn", refused), refused
        answer = requests.post(f"{gateway}/v1/accounts", json=refused, timeout=10)
        assert answer.status_code in (400, 422) and set(answer.json()) == {"error"}, (refused, answer.text)
    assert not _valid(accounts, "SessionIn", {"username": "a\x00b", "password": "x"})

    # Idempotency-Key: its format on every POST that honours it; the server refuses others with 400.
    register = accounts["paths"]["/v1/accounts"]["post"]
    (key,) = [p for p in register["parameters"] if p["name"] == "Idempotency-Key"]
    assert key["schema"]["pattern"] == KEY_PATTERN and key["schema"]["maxLength"] == 255
    bad_key = requests.post(
        f"{gateway}/v1/accounts",
        json={"username": "key_user", "password": "p" * 8},
        headers={"Idempotency-Key": "has space"},
        timeout=10,
    )
    assert bad_key.status_code == 400 and bad_key.json()["error"]["code"] == "invalid_idempotency_key"

    # POST /v1/practice: the body is optional, as the server treats it. (A player of their own: the
    # match run may have left the contract player's practice match unfinished, which is a 409.)
    assert match["paths"]["/v1/practice"]["post"]["requestBody"]["required"] is False
    newcomer = issue_token(SECRET, uuid.uuid4(), 3600).token
    practice = requests.post(
        f"{gateway}/v1/practice", headers={"Authorization": f"Bearer {newcomer}"}, timeout=10
    )
    assert practice.status_code == 201, practice.text

    # Operator endpoints: no token is 401 (a challenge), a wrong one 403.
    admin = f"{gateway}/v1/admin/matches"
    missing = requests.post(admin, json={"setup": {}}, timeout=10)
    assert missing.status_code == 401 and missing.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = requests.post(admin, json={"setup": {}}, headers={"Authorization": "Bearer nope"}, timeout=10)
    assert wrong.status_code == 403
