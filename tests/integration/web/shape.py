"""Assertions shared by the web and accounts tests."""

from __future__ import annotations

from typing import Any


def assert_error(resp: Any, status: int, code: str) -> dict[str, Any]:
    """The response is ``status`` with the one error shape and ``code``; returns the error object."""
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True)[:500])
    assert resp.mimetype == "application/json"
    body = resp.get_json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert set(error) <= {"code", "message", "details"} and {"code", "message"} <= set(error), error
    assert error["code"] == code, error
    assert isinstance(error["message"], str) and error["message"]
    return dict(error)
