"""``arcana admin``: what it refuses before sending anything (exit 2 with the reason), and what it
sends: the operator endpoint of each action, with the reason and the amounts (a local HTTP server
stands for the API)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

import pytest

from services import cli

TOKEN = "cli-operator-token-" + "c" * 20


@pytest.fixture
def api() -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """A stand-in API that records each request and answers as the services do."""
    seen: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append(
                {
                    "method": self.command,
                    "path": self.path,
                    "auth": self.headers["Authorization"],
                    "body": body,
                }
            )
            if self.path.endswith("/claw-backs"):
                error = {
                    "error": {
                        "code": "beyond_balance",
                        "message": "more than it holds",
                        "details": {"balance": {}},
                    }
                }
                self._send(409, error)
            elif self.path.endswith("/refunds"):
                self._send(201, {"source": "refund:T-1", "coins": 5})
            else:
                self.send_response(204)
                self.end_headers()

        def _send(self, status: int, body: dict[str, Any]) -> None:
            raw = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        do_POST = do_DELETE = _answer

        def log_message(self, *args: Any) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", seen
    server.shutdown()


def test_each_action_goes_to_its_endpoint_with_the_reason(
    api: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url, seen = api
    monkeypatch.setenv("ARCANA_OPERATOR_TOKEN", TOKEN)
    assert cli.main(["admin", "--url", url, "suspend", "p-1", "--reason", "cheating"]) == 0
    assert cli.main(["admin", "--url", url, "restore", "p-1", "--reason", "appeal"]) == 0
    assert (
        cli.main(["admin", "--url", url, "refund", "p-1", "--coins", "5", "--id", "T-1", "--reason", "bug"])
        == 0
    )
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {"source": "refund:T-1", "coins": 5}
    assert cli.main(["admin", "--url", url, "claw-back", "p-1", "--dust", "9", "--reason", "exploit"]) == 1
    assert "409 beyond_balance" in capsys.readouterr().err
    assert [(s["method"], s["path"], s["body"]) for s in seen] == [
        ("POST", "/v1/admin/accounts/p-1/suspension", {"reason": "cheating"}),
        ("DELETE", "/v1/admin/accounts/p-1/suspension", {"reason": "appeal"}),
        ("POST", "/v1/admin/wallets/p-1/refunds", {"reason": "bug", "coins": 5, "refund_id": "T-1"}),
        ("POST", "/v1/admin/wallets/p-1/claw-backs", {"reason": "exploit", "dust": 9}),
    ]
    assert {s["auth"] for s in seen} == {f"Bearer {TOKEN}"}


def test_without_a_token_or_a_reason_nothing_is_sent(
    api: tuple[str, list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url, seen = api
    monkeypatch.delenv("ARCANA_OPERATOR_TOKEN", raising=False)
    monkeypatch.delenv("ARCANA_OPERATOR_TOKEN_FILE", raising=False)
    assert cli.main(["admin", "--url", url, "suspend", "p-1", "--reason", "cheating"]) == cli.USAGE_ERROR
    assert "ARCANA_OPERATOR_TOKEN" in capsys.readouterr().err
    monkeypatch.setenv("ARCANA_OPERATOR_TOKEN", TOKEN)
    with pytest.raises(SystemExit) as exited:
        cli.main(["admin", "--url", url, "void-rating", "m-1"])
    assert exited.value.code == cli.USAGE_ERROR
    assert seen == []


def test_an_unreachable_api_is_bad_usage(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ARCANA_OPERATOR_TOKEN", TOKEN)
    assert (
        cli.main(["admin", "--url", "http://127.0.0.1:9", "suspend", "p-1", "--reason", "x y z"])
        == cli.USAGE_ERROR
    )
    assert "cannot reach" in capsys.readouterr().err
