"""``/healthz`` (the process answers), ``/readyz`` (database, and Kafka when configured) and ``/metrics``."""

from __future__ import annotations

import socket
from typing import Any

import psycopg
from flask import Blueprint, Flask, Response, jsonify

from libs.config import Settings
from libs.web.context import service_context
from libs.web.errors import error_response
from libs.web.observability import metrics_response

CHECK_TIMEOUT_SECONDS = 2


def check_database(url: str) -> str | None:
    """None when ``SELECT 1`` succeeds within the timeout, else the reason."""
    try:
        with psycopg.connect(url, connect_timeout=CHECK_TIMEOUT_SECONDS, autocommit=True) as conn:
            conn.execute("SELECT 1")
        return None
    except Exception as exc:  # any failure means "not ready", never a 500
        return f"{type(exc).__name__}: {str(exc).strip()[:200]}"


def check_kafka(bootstrap: str) -> str | None:
    """None when a TCP connection to one of the bootstrap servers opens within the timeout."""
    reasons = []
    for server in (s.strip() for s in bootstrap.split(",")):
        if not server:
            continue
        host, _, port = server.rpartition(":")
        host = host.strip("[]") or server
        try:
            with socket.create_connection((host, int(port or 9092)), timeout=CHECK_TIMEOUT_SECONDS):
                return None
        except (OSError, ValueError) as exc:
            reasons.append(f"{server}: {exc}")
    return "; ".join(reasons) or "no bootstrap servers"


def readiness(settings: Settings) -> dict[str, Any]:
    checks: dict[str, Any] = {"database": check_database(settings.database_url) or "ok"}
    if settings.kafka_bootstrap_servers:
        checks["kafka"] = check_kafka(settings.kafka_bootstrap_servers) or "ok"
    return checks


def install(app: Flask) -> None:
    bp = Blueprint("arcana_health", __name__)

    @bp.get("/healthz")
    def healthz() -> Response:
        return jsonify({"status": "ok", "service": service_context().service})

    @bp.get("/readyz")
    def readyz() -> Response:
        checks = readiness(service_context().settings)
        if all(v == "ok" for v in checks.values()):
            return jsonify({"status": "ready", "checks": checks})
        return error_response(503, "not_ready", "A dependency is unreachable.", {"checks": checks})

    @bp.get("/metrics")
    def metrics() -> Response:
        return metrics_response()

    app.register_blueprint(bp)
