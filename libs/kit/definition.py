"""What a service declares about itself in its composition root (``services/<name>/root.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from libs.bus.publication import Publication, without
from libs.kit.errors import ErrorTable
from libs.kit.events import EventCatalog, IntegrationEvent

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

    from libs.config import Settings
    from libs.eventstore import RecordedEvent, Upcasters

__all__ = ["EventHandler", "Publication", "Runtime", "ServiceDef", "Subscription", "without"]

# (service object, event, connection of the consumer's transaction) -> anything (ignored)
EventHandler = Callable[[Any, "RecordedEvent", "psycopg.Connection[Any]"], object]


@dataclass(frozen=True)
class Subscription:
    """A consumer of other services' events: Kafka group ``name`` reads ``topics`` and applies
    ``handlers[event.type]`` once per event (inbox + effect in one transaction). Other types are
    skipped without touching the database.

    ``receiver(service object, schema)`` (optional): what the handlers get as their first argument
    instead of the service object (the kit's own subscriptions, which work on the schema's shared
    tables, not through a service)."""

    name: str
    topics: tuple[str, ...]
    handlers: dict[str, EventHandler]
    receiver: Callable[[Any, str], Any] | None = None

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(sorted(self.handlers))


@dataclass(frozen=True)
class ServiceDef:
    """One service, as every process sees it.

    - ``build(runtime)`` returns the service object (the application layer: the one thing its
      endpoints, tasks and consumers call). It runs once per process and app.
    - ``blueprints()`` returns its flask-smorest blueprints (imported lazily).
    - ``errors`` maps its domain exceptions to HTTP problems, for every endpoint at once.
    - ``events`` declares what it publishes, one catalog per topic (``arcana.<name>.events``, and
      any further topic of its ``publication``).
    - ``publication`` (optional) says what each stored event becomes on which topic (the relay
      follows it); default: every event as stored on ``arcana.<name>.events``.
    - ``configure_app(app, options)`` (optional) runs when its Flask app is built, before any
      request: work due at start-up, and ``options`` its ``build`` will then receive.
    - ``purge_closed(service object, before)`` (optional): delete from its read models what
      closed before ``before`` (e.g. closed queue tickets); returns how many. The purge policy
      (``libs.maintenance``) calls it hourly with ``now - closed_keep``.
    - ``own_sessions``: the service keeps revoked sessions in tables of its own (accounts) and
      sets its app's session check itself. Every other service gets them from the kit
      (``libs.kit.sessions``): a subscription to accounts' revocations, added to its
      ``subscriptions`` by :func:`libs.kit.definition`, and a check of every token in its app.
    - ``upcasters`` (optional): how its stored events of older shapes read as the current ones;
      every reader of its store (the service, ``arcana rebuild``, ``arcana export``) uses them.
    - ``stored`` (optional): events it stores that no catalog lists as stored because its
      ``publication`` publishes them in another form (economy's deck events, without their cards).
    """

    name: str
    prefixes: tuple[str, ...]
    build: Callable[[Runtime], Any]
    blueprints: Callable[[], Sequence[Any]]
    errors: ErrorTable = field(default_factory=ErrorTable)
    events: tuple[EventCatalog, ...] = ()
    subscriptions: tuple[Subscription, ...] = ()
    configure_app: Callable[[Any, dict[str, Any]], None] | None = None
    publication: Publication | None = None
    own_sessions: bool = False
    purge_closed: Callable[[Any, datetime], int] | None = None
    upcasters: Upcasters | None = None
    stored: tuple[type[IntegrationEvent], ...] = ()

    @property
    def schema(self) -> str:
        """The PostgreSQL schema of its event store and read models."""
        return self.name


@dataclass(frozen=True)
class Runtime:
    """What ``ServiceDef.build`` gets: where the service's data lives and how to reach it
    (made by ``libs.kit.runtime`` and ``libs.kit.web``).

    ``options`` carries overrides a test or an app factory passes by name (e.g. a scheduler)."""

    service: ServiceDef
    schema: str
    settings: Settings
    pool: ConnectionPool
    options: Mapping[str, Any] = field(default_factory=dict)

    def option(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)
