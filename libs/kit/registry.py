"""Finding services: every package ``services/<name>/`` with a ``root.py`` is one."""

from __future__ import annotations

import functools
import importlib

from libs.kit.definition import ServiceDef
from libs.kit.sessions import with_kit_subscriptions
from libs.layout import SERVICES_DIR, service_names

__all__ = ["SERVICES_DIR", "definition", "discover", "service_names"]


@functools.cache
def definition(name: str) -> ServiceDef:
    """The ``SERVICE`` declared by ``services/<name>/root.py``, with what the kit adds to every
    service (its revocation subscription, ``libs.kit.sessions``); raises ``LookupError``."""
    if name not in service_names():
        raise LookupError(f"no service {name!r} (have: {', '.join(service_names())})")
    svc = importlib.import_module(f"services.{name}.root").SERVICE
    if not isinstance(svc, ServiceDef) or svc.name != name:
        raise TypeError(f"services/{name}/root.py must declare SERVICE = ServiceDef(name={name!r}, ...)")
    return with_kit_subscriptions(svc)


def discover(names: list[str] | None = None) -> list[ServiceDef]:
    """Every service's definition (or those of ``names``), in name order."""
    return [definition(n) for n in (names if names is not None else service_names())]
