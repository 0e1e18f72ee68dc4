"""Each service emits only the event types it declares: a check of its source.

One way to declare and emit events (``docs/service-template.md``): a service declares every event
it stores, as a frozen dataclass, in one module, ``services/<name>/events.py`` (those other
services consume come from ``libs.contracts``), and lists them in its catalogs (``SERVICE.events``);
its code emits events by building those classes, never a ``NewEvent`` from a type name and a dict.
This reads every module of every service and reports, with file and line:

- a class of event built there that the service does not declare;
- an event class defined outside its ``events.py`` (or a twin of one: a class with a ``TYPE`` and
  a ``data()`` that is not an integration event);
- a ``NewEvent(...)`` built directly (only a service hosting a game's events, declared by the
  game itself, may: ``GAME_HOSTS``).

``python -m libs.kit.emission`` prints them and exits 1 when there is one (the unit test runs it on
the project and on a planted violation).
"""

from __future__ import annotations

import ast
import importlib
import sys
import types
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from libs.contracts.base import IntegrationEvent
from libs.eventstore.envelope import NewEvent
from libs.kit.registry import definition, service_names

GAME_HOSTS = frozenset({"match"})  # stores a game's rules events, declared by the game (libs.games.arcana)


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def declared(service: str) -> frozenset[type[IntegrationEvent]]:
    """Every event class the service's catalogs list, and those it stores to publish otherwise."""
    svc = definition(service)
    return frozenset(e for catalog in svc.events for e in catalog.events) | frozenset(svc.stored)


def check(service: str) -> list[Violation]:
    """The violations in ``services/<service>/``."""
    allowed = declared(service)
    package = importlib.import_module(f"services.{service}")
    folder = Path(package.__file__ or "").parent
    root = folder.parent.parent
    found: list[Violation] = []
    for path in sorted(folder.rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        module = importlib.import_module(name)
        where = str(path.relative_to(root))
        found += _check_module(service, name, where, ast.parse(path.read_text()), vars(module), allowed)
    return found


def _check_module(
    service: str,
    name: str,
    where: str,
    tree: ast.Module,
    namespace: Mapping[str, Any],
    allowed: frozenset[type[IntegrationEvent]],
) -> Iterator[Violation]:
    events_module = f"services.{service}.events"
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and name != events_module:
            cls = namespace.get(node.name)
            if (_is_event(cls) or _is_twin(cls)) and cls.__module__ == name:
                kind = getattr(cls, "TYPE", node.name)
                yield Violation(where, node.lineno, f"event {kind} declared outside {events_module}")
        if not isinstance(node, ast.Call):
            continue
        target = _resolve(node.func, namespace)
        if _is_event(target) and target not in allowed:
            yield Violation(where, node.lineno, f"builds {target.TYPE}, which {service} does not declare")
        if target is NewEvent and service not in GAME_HOSTS:
            yield Violation(
                where, node.lineno, "builds a NewEvent from a type name and data, not a declared event"
            )


def _is_event(obj: Any) -> TypeGuard[type[IntegrationEvent]]:
    return isinstance(obj, type) and issubclass(obj, IntegrationEvent) and obj is not IntegrationEvent


def _is_twin(obj: Any) -> bool:
    """A class that stands for an event without being one (a ``TYPE`` and a ``data()``): a second
    declaration of it, e.g. the domain's copy of a published event."""
    return (
        isinstance(obj, type)
        and isinstance(getattr(obj, "TYPE", None), str)
        and callable(getattr(obj, "data", None))
    )


def _resolve(expr: ast.expr, namespace: Mapping[str, Any]) -> Any:
    """What a called name or dotted attribute is bound to in the module, or None."""
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id)
    if isinstance(expr, ast.Attribute):
        owner = _resolve(expr.value, namespace)
        if owner is None or not isinstance(owner, type | types.ModuleType):
            return None  # an instance (e.g. a proxy of Flask's request): not a declaration
        return getattr(owner, expr.attr, None)
    return None


def main() -> int:
    violations = [v for service in service_names() for v in check(service)]
    for v in violations:
        print(v)
    print(f"{len(violations)} violation(s)" if violations else "every service emits only declared events")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
