"""The service kit: how every service is declared, built and found.

A service is a package ``services/<name>/`` whose composition root ``root.py`` declares
``SERVICE = ServiceDef(...)``: its REST prefixes, how its service object is built (once per
process), its HTTP blueprints, its domain-error table, the integration events it publishes and
the Kafka subscriptions it consumes. The gateway, the Celery worker, the devstack, migrations, the
event catalog and the tests all find services through :func:`discover`. See
``docs/service-template.md``.
"""

from libs.kit.definition import Publication, ServiceDef, Subscription, without
from libs.kit.errors import ErrorTable, Problem
from libs.kit.events import EventCatalog, IntegrationEvent, integration_event, qualified_type
from libs.kit.registry import definition, discover, service_names

# Run-time parts (pools, Flask) live in ``libs.kit.runtime``, ``libs.kit.web`` and
# ``libs.kit.consume``: importing ``libs.kit`` (as domain code does for its events) stays pure.

__all__ = [
    "ErrorTable",
    "EventCatalog",
    "IntegrationEvent",
    "Problem",
    "Publication",
    "ServiceDef",
    "Subscription",
    "definition",
    "discover",
    "integration_event",
    "qualified_type",
    "service_names",
    "without",
]
