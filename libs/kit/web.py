"""A service's Flask app from its definition, and the service object its views call."""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask, Response, current_app
from psycopg_pool import ConnectionPool

from libs.config import Settings
from libs.kit.definition import ServiceDef
from libs.kit.errors import ErrorTable
from libs.kit.runtime import Runtime, schema_of
from libs.web import create_app, error_response
from libs.web.sessions import RevocationCache


class _Root:
    """Builds the app's service object once, on first use (after gunicorn forks)."""

    def __init__(self, defn: ServiceDef, app: Flask, options: dict[str, Any]) -> None:
        self.defn, self.app, self.options = defn, app, options
        self._object: Any = None
        self._lock = threading.Lock()

    def object(self) -> Any:
        if self._object is None:
            with self._lock:
                if self._object is None:
                    ctx = self.app.extensions["arcana"]
                    runtime = Runtime(self.defn, ctx.schema, ctx.settings, ctx.pool, self.options)
                    self._object = self.defn.build(runtime)
        return self._object


def create_service_app(
    defn: ServiceDef,
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    *,
    schema: str | None = None,
    **options: Any,
) -> Flask:
    """The service's app: its blueprints, its error table, its service object (``current_service``)."""
    app = create_app(
        defn.name,
        defn.blueprints(),
        schema=schema or schema_of(defn),
        settings=settings,
        pool=pool,
        domain_errors=defn.errors.statuses(),
        rule_codes=defn.errors.rule_codes(),
    )
    install_error_table(app, defn.errors)
    if defn.configure_app is not None:
        defn.configure_app(app, options)
    if not defn.own_sessions:  # tokens logged out at accounts (libs.kit.sessions); a test may pass its own
        ctx = app.extensions["arcana"]
        ctx.sessions = options.setdefault("sessions", RevocationCache.shared(lambda: ctx.pool, ctx.schema))
    app.extensions["kit_root"] = _Root(defn, app, options)
    return app


def current_service() -> Any:
    """The service object of the app serving this request."""
    return current_app.extensions["kit_root"].object()


def install_error_table(app: Flask, table: ErrorTable) -> None:
    """Answer each domain error of ``table`` in the one error shape."""

    def handle(exc: Exception) -> Response:
        problem = table.problem_for(exc)
        assert problem is not None
        status, code, message, details, headers = problem.render(exc)
        return error_response(status, code, message, details, headers)

    for cls in table:
        app.register_error_handler(cls, handle)


def service_app(
    name: str,
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    *,
    schema: str | None = None,
    **options: Any,
) -> Flask:
    """The app of service ``name`` alone (a test, or a process serving one service)."""
    from libs.kit.registry import definition

    return create_service_app(definition(name), settings, pool, schema=schema, **options)
