"""The Flask app factory every service uses."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from flask import Flask
from flask_smorest import Api, Blueprint
from psycopg_pool import ConnectionPool
from werkzeug.middleware.proxy_fix import ProxyFix

from libs import config
from libs.config import Settings
from libs.web import health, observability
from libs.web.context import ServiceContext
from libs.web.contract import ContractMarshmallowPlugin, ContractPlugin, DomainErrors, link_identifiers
from libs.web.errors import register_error_handlers
from libs.web.logs import configure_logging
from libs.web.operators import named_tokens
from libs.web.schemas import ErrorSchema

OPENAPI_PREFIX = "/v1/openapi"


class ArcanaApi(Api):
    """flask-smorest's Api documenting our error shape (handlers: ``libs.web.errors``). Error
    responses are listed per operation by ``libs.web.contract`` (no catch-all ``default``)."""

    ERROR_SCHEMA = ErrorSchema
    DEFAULT_ERROR_RESPONSE_NAME = None


def base_app(
    service: str, *, schema: str | None, settings: Settings | None = None, pool: ConnectionPool | None = None
) -> Flask:
    """A Flask app with the shared plumbing but no API: error shape, request ids, JSON logs,
    body guard, ``/healthz``, ``/readyz``, ``/metrics``. ``settings`` default to ``libs.config.load()``
    (raises ``KeyError`` without ``DATABASE_URL``); ``pool`` defaults to a lazily opened one.
    """
    configure_logging()
    settings = settings or config.load()
    named_tokens(settings.operator_token, settings.operator_tokens)  # a malformed list stops the start
    app = Flask(f"arcana.{service}")
    app.config.update(
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        JSON_SORT_KEYS=False,
    )
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["arcana"] = ServiceContext(service, schema, settings, pool)
    hops = config.TRUSTED_PROXIES.get()
    if hops > 0:  # behind an Ingress: take the client address from X-Forwarded-For
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]
    observability.install(app, service)
    health.install(app)
    register_error_handlers(app)
    return app


def create_app(
    service: str,
    blueprints: Iterable[Blueprint],
    *,
    schema: str,
    settings: Settings | None = None,
    pool: ConnectionPool | None = None,
    domain_errors: DomainErrors | None = None,
    rule_codes: Sequence[str] = (),
) -> Flask:
    """A service's app: :func:`base_app` plus flask-smorest with ``blueprints`` registered and the
    OpenAPI 3 document served at ``/v1/openapi/<service>.json``. Views reach the schema, settings
    and pool through ``libs.web.service_context()``. ``domain_errors`` (status -> codes, from the
    service's ``ErrorTable``) are listed on every operation with the generic errors, and
    ``rule_codes`` marked as refusals by rules beyond the schema (``libs.web.contract``).
    """
    app = base_app(service, schema=schema, settings=settings, pool=pool)
    app.config.update(
        API_TITLE=f"Arcana {service}",
        API_VERSION="v1",
        OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX=OPENAPI_PREFIX,
        OPENAPI_JSON_PATH=f"{service}.json",
    )
    api = ArcanaApi(
        app,
        spec_kwargs={
            "info": {"description": f"The {service} service of the Arcana backend."},
            "marshmallow_plugin": ContractMarshmallowPlugin(),
            "extra_plugins": [ContractPlugin(domain_errors, rule_codes)],
        },
    )
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
    )
    api.spec.components.security_scheme("operatorAuth", {"type": "http", "scheme": "bearer"})
    for blueprint in blueprints:
        api.register_blueprint(blueprint)
    link_identifiers(api.spec)
    register_error_handlers(app)  # after Api(): replaces flask-smorest's own HTTPException handler
    app.extensions["arcana_api"] = api
    return app


def lazy_app(factory: Callable[[], Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` serving ``app`` (for ``gunicorn module:app``), built by ``factory`` on
    first access: importing the module needs no environment, and each process builds one app."""
    build = functools.cache(factory)

    def __getattr__(name: str) -> Any:
        if name == "app":
            return build()
        raise AttributeError(name)

    return __getattr__
