"""The API contract: schemathesis, with all its checks, against every service's OpenAPI document.

The gateway WSGI app (``services.wsgi.build_app``: every service ``libs.kit.discover()`` finds) runs
against a database of its own, every service's schema migrated (``migrate_all``). schemathesis
4.x's engine runs the phases its CLI runs (examples, coverage, fuzzing, stateful) with every check
enabled, a bounded number of examples per operation and a fixed seed, authenticated as a real
registered player (bearer token from ``POST /v1/sessions``) and as the operator. Zero failures:
a response the document does not describe (status, headers, body), a request the document calls
valid but the server refuses, a request it calls invalid but the server accepts, or any 5xx.

A new service is covered by being discovered: nothing here names a service's operations.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
import traceback
from collections.abc import Iterator
from typing import Any

import pytest
import requests
import schemathesis
from psycopg_pool import ConnectionPool
from schemathesis.engine import Status, events, from_schema
from schemathesis.openapi.checks import RejectedPositiveData
from werkzeug.serving import WSGIRequestHandler, make_server

from libs import kit
from libs.db import make_pool
from libs.db.migrate_all import migrate_all
from libs.devstack.ports import free_port
from libs.web.app import OPENAPI_PREFIX
from libs.web.contract import RULE_CODES
from services import wsgi
from services.match.scheduling import RecordingScheduler
from tests.e2e.stack import create_database
from tests.integration.conftest import settings_for_tests

SECRET = "contract-secret-" + "c" * 48
OPERATOR = "contract-operator-" + "o" * 32
USERNAME, PASSWORD = "contract_player", "contract password 1"
MAX_EXAMPLES = 12
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
    app = wsgi.build_app(dataclasses.replace(settings), pool, scheduler=RecordingScheduler())
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


@pytest.fixture(scope="module")
def player_token(gateway: str) -> str:
    credentials = {"username": USERNAME, "password": PASSWORD}
    created = requests.post(f"{gateway}/v1/accounts", json=credentials, timeout=10)
    assert created.status_code == 201, created.text
    session = requests.post(f"{gateway}/v1/sessions", json=credentials, timeout=10)
    assert session.status_code == 201, session.text
    return str(session.json()["token"])


def _config(player_token: str) -> schemathesis.Config:
    return schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "continue-on-failure": True,
            "cache": {"enabled": False},
            "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
            "checks": {"enabled": True},
            "auth": {
                "openapi": {"bearerAuth": {"bearer": player_token}, "operatorAuth": {"bearer": OPERATOR}}
            },
            "phases": {"stateful": {"max-steps": 20}},
        }
    )


def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """Keep every failure but one kind: a request valid by the document refused with one of the
    codes the document itself lists as ``x-rule-codes`` on that status (a refusal by rules no
    JSON Schema can state: the game's rules, a deck's legality, the match's state)."""
    if not isinstance(failure, RejectedPositiveData):
        return True
    declared = case.operation.definition.raw.get("responses", {}).get(str(response.status_code), {})
    try:
        code = response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        return True
    return code not in declared.get(RULE_CODES, [])


def _failures(stream: Any) -> tuple[list[str], list[str]]:
    """(check failures, engine errors) of one engine run, as readable lines."""
    failed: list[str] = []
    errors: list[str] = []
    for event in stream:
        if isinstance(event, events.ScenarioFinished) and event.status == Status.FAILURE:
            for case_id, checks in event.recorder.checks.items():
                for check in checks:
                    if check.status == Status.FAILURE and check.failure_info is not None:
                        case = event.recorder.cases[case_id].value
                        interaction = event.recorder.interactions.get(case_id)
                        answer = interaction.response if interaction is not None else None
                        got = f"{answer.status_code} {answer.content[:300]!r}" if answer is not None else "-"
                        failed.append(
                            f"[{event.phase.value}] {event.label}: {check.name}: "
                            f"{check.failure_info.failure.title}\n  {check.failure_info.failure.message}\n"
                            f"  {check.failure_info.code_sample}\n"
                            f"  body={getattr(case, 'body', None)!r}\n  answer: {got}"
                        )
        elif isinstance(event, events.NonFatalError | events.FatalError):
            exc = event.value if isinstance(event, events.NonFatalError) else event.exception
            where = f"[{event.phase}] {event.label}" if isinstance(event, events.NonFatalError) else "engine"
            errors.append(f"{where}: " + "".join(traceback.format_exception(exc)))
    return failed, errors


@pytest.mark.parametrize("service", kit.service_names())
def test_the_server_keeps_its_documented_contract(gateway: str, player_token: str, service: str) -> None:
    started = time.monotonic()
    schema = schemathesis.openapi.from_url(
        f"{gateway}{OPENAPI_PREFIX}/{service}.json", config=_config(player_token)
    )
    schema.hook(filter_failure)
    failed, errors = _failures(from_schema(schema).execute())
    print(f"{service}: {time.monotonic() - started:.1f} s")
    assert not errors, "\n".join(errors)
    assert not failed, f"{len(failed)} failures:\n" + "\n".join(failed)
