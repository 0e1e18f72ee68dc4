"""The generated parts of ``docs/``: ``python -m libs.kit.docs`` (``make docs-events``).

- ``docs/events.md`` whole: the event catalog (``libs.kit.catalog``);
- in ``docs/architecture.md``, between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->``:
  ``flows``, who publishes and who consumes which topic and type, from every service's definition
  (``ServiceDef.events`` and ``ServiceDef.subscriptions``, the kit's own included), and
  ``layers``, the layers of ``libs`` from the import contract in ``pyproject.toml``;
- in ``docs/operations.md``, the block ``settings``: every setting as ``libs.config`` declares it.

A test regenerates each and compares it with the checked-in text (``tests/unit/test_event_catalog.py``).
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from libs import config
from libs.config import PROJECT_ROOT
from libs.kit.catalog import render as render_catalog
from libs.kit.definition import ServiceDef, Subscription
from libs.kit.registry import discover

DOCS = PROJECT_ROOT / "docs"
LIBS_LAYERS_CONTRACT = "Layers of libs"


def _types_on(services: list[ServiceDef]) -> dict[str, list[str]]:
    """Topic -> the event types declared on it."""
    return {c.topic: list(c.types()) for svc in services for c in svc.events}


def _consumed(sub: Subscription, declared: dict[str, list[str]]) -> str:
    """``type`` from `topic`, ... for one subscription (a type no topic declares: topic unknown)."""
    parts = []
    for topic in sub.topics:
        types = [t for t in sub.types if t in declared.get(topic, [])]
        if types:
            parts.append(f"{', '.join(f'`{t}`' for t in types)} from `{topic}`")
    undeclared = [t for t in sub.types if not any(t in declared.get(topic, []) for topic in sub.topics)]
    if undeclared:
        parts.append(f"{', '.join(f'`{t}`' for t in undeclared)} (declared on none of its topics)")
    return "; ".join(parts)


def render_flows(services: list[ServiceDef]) -> str:
    """One row per service: the topics it publishes, and each of its consumers with what it reads."""
    declared = _types_on(services)
    rows = ["| service | publishes on | consumes (consumer group: types from topic) |", "|---|---|---|"]
    for svc in services:
        published = "<br>".join(f"`{c.topic}`" for c in svc.events) or "—"
        consumed = "<br>".join(f"`{sub.name}`: {_consumed(sub, declared)}" for sub in svc.subscriptions)
        rows.append(f"| {svc.name} | {published} | {consumed or '—'} |")
    return "\n".join(rows)


def _layers_contract(pyproject: Path) -> dict[str, Any]:
    contracts = tomllib.loads(pyproject.read_text())["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"].startswith(LIBS_LAYERS_CONTRACT))


def render_layers(pyproject: Path = PROJECT_ROOT / "pyproject.toml") -> str:
    """The layers of ``libs``, top to bottom, as its import contract states them."""
    contract = _layers_contract(pyproject)
    rows = ["| layer (top to bottom) | packages | among themselves |", "|---|---|---|"]
    for number, layer in enumerate(contract["layers"], start=1):
        separator = "|" if "|" in layer else ":"
        names = [n.strip() for n in layer.split(separator)]
        packages = ", ".join(
            f"`libs/{n.strip('()')}` (when present)" if n.startswith("(") else f"`libs/{n}`" for n in names
        )
        among = "independent" if separator == "|" or len(names) == 1 else "may import each other"
        rows.append(f"| {number} | {packages} | {among if len(names) > 1 else '—'} |")
    return "\n".join(rows)


def render_settings(settings: list[Any] | None = None) -> str:
    """The table of every setting ``libs.config`` declares: name, type, default, what it is."""
    rows = ["| setting | type | default | what it is |", "|---|---|---|---|"]
    for s in config.SETTINGS if settings is None else settings:
        if isinstance(s, config.SettingFamily):
            name, default = s.pattern.format("<NAME>"), "its user's"
        else:
            name, default = s.name, "(a secret)" if s.secret and s.default else _shown(s.default)
        kind = (
            getattr(s.parse, "__name__", "")
            .lstrip("_")
            .replace("flag", "on/off")
            .replace("names", "names, comma-separated")
        )
        file = " (or a file: `" + name + "_FILE`)" if getattr(s, "secret", False) else ""
        rows.append(f"| `{name}` | {kind} | {default} | {s.doc}{file} |")
    return "\n".join(rows) + "\n"


def _shown(default: object) -> str:
    if default is None or default == "" or default == ():
        return "unset"
    return f"`{default}`"


def replace_block(text: str, name: str, content: str) -> str:
    """``text`` with the generated block ``name`` holding ``content``; raises if there is none."""
    pattern = re.compile(rf"(<!-- generated: {name} [^>]*-->\n)(.*?)(<!-- end: {name} -->)", re.S)
    if not pattern.search(text):
        raise LookupError(f"no generated block {name!r}")
    return pattern.sub(lambda m: m.group(1) + content.rstrip("\n") + "\n" + m.group(3), text, count=1)


def generated(services: list[ServiceDef]) -> dict[Path, str]:
    """Every generated document's path -> its current text."""
    architecture = DOCS / "architecture.md"
    text = architecture.read_text()
    text = replace_block(text, "flows", render_flows(services))
    text = replace_block(text, "layers", render_layers())
    operations = DOCS / "operations.md"
    settings = replace_block(operations.read_text(), "settings", render_settings())
    return {DOCS / "events.md": render_catalog(services), architecture: text, operations: settings}


def main() -> None:
    for path, text in generated(discover()).items():
        if path.read_text() != text:
            path.write_text(text)
            print(f"updated {path.relative_to(PROJECT_ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
