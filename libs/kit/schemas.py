"""JSON Schemas of every event on every topic, from the typed declarations (``make docs-schemas``).

An event type is a dataclass with ``TYPE`` and ``VERSION`` (an integration event of
``libs.contracts``, or one of the game engine's typed events, ``libs.games.arcana.facts``); its schema
describes the envelope's ``data``: each field with its JSON type and doc, required unless it has a
default, further keys allowed (a newer producer may add an optional field without a new version:
``docs/events.md``, "Versions"). One file per (topic, type, version):
``docs/schemas/<topic>/<Type>.v<version>.json``. Older versions still on the topics get theirs when
the newer ones only added fields, each marked with the version that added it (``metadata["since"]``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from libs import codec
from libs.kit.events import qualified_type

if TYPE_CHECKING:
    from libs.eventstore import RecordedEvent
    from libs.kit.events import EventCatalog

# (topic, event as published) -> what does not match the topic's declaration (empty: it conforms)
Check = Callable[[str, "RecordedEvent"], list[str]]

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _since(f: dataclasses.Field[Any]) -> int:
    return int(f.metadata.get("since", 1))


def versions(event: type[Any]) -> list[int]:
    """The schema versions ``event``'s declaration describes: its own and, when fields are marked
    with the version that added them, every earlier one back to the oldest such mark's predecessor."""
    added = [_since(f) for f in dataclasses.fields(event) if "since" in f.metadata]
    return list(range(min(added) - 1, event.VERSION + 1)) if added else [event.VERSION]


def _fields_of(event: type[Any], version: int) -> list[codec.Field]:
    return [f for f in codec.fields_of(event) if _since(f.field) <= version]


def json_schema(event: type[Any], topic: str, version: int | None = None) -> dict[str, Any]:
    """The JSON Schema of ``event``'s data at ``version`` (default: its own) as ``topic`` carries it."""
    version = version or event.VERSION
    fields = _fields_of(event, version)
    properties = {
        f.name: {**f.kind.schema(), "description": str(f.field.metadata.get("doc", ""))} for f in fields
    }
    required = [f.name for f in fields if f.required]
    return {
        "$schema": DIALECT,
        "$id": schema_path(topic, event, version).as_posix(),
        "title": f"{qualified_type(event)} (schema version {version}) on {topic}",
        "description": " ".join((event.__doc__ or "").split()),
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": True,
    }


def problems(
    event: type[Any], data: Mapping[str, Any], *, exact: bool = False, version: int | None = None
) -> list[str]:
    """What in ``data`` does not match ``event``'s declaration at ``version`` (default: its own;
    empty: it conforms). ``exact``: no key beyond the declared ones (the engine's own events, which
    have no older or newer shape)."""
    found = [
        f"{event.TYPE}: {p}" for p in codec.problems(event, data, _fields_of(event, version or event.VERSION))
    ]
    if exact:
        extra = sorted(set(data) - {f.name for f in dataclasses.fields(event)})
        found += [f"{event.TYPE}: {k!r} is not declared" for k in extra]
    return found


def schema_path(topic: str, event: type[Any], version: int | None = None) -> Path:
    """``<topic>/<Type>.v<N>.json``; a game's own event under its game (``<topic>/arena/<Type>...``)."""
    return Path(topic) / f"{qualified_type(event)}.v{version or event.VERSION}.json"


def render(text: dict[str, Any]) -> str:
    return json.dumps(text, indent=2, sort_keys=True) + "\n"


def catalog_check(catalogs: Sequence[EventCatalog]) -> Check:
    """A check of published events against ``catalogs``: an event on one of their topics must be of a
    type declared there and conform to the declaration of its version (an older stored version is
    published as stored; one the declaration no longer describes is checked for its type only). A
    type several games declare on a topic (``MatchStarted``...) conforms when it conforms to one of
    them. Topics the catalogs do not name are not checked."""
    declared: dict[tuple[str, str], list[Any]] = {}
    for c in catalogs:
        for e in c.events:
            declared.setdefault((c.topic, e.TYPE), []).append(e)
    topics = {c.topic for c in catalogs}

    def check(topic: str, event: RecordedEvent) -> list[str]:
        if topic not in topics:
            return []
        kinds = declared.get((topic, event.type))
        if not kinds:
            return [f"{event.type} is not declared on {topic}"]
        found = [_version_problems(kind, event) for kind in kinds]
        return [] if [] in found else found[0]

    return check


def _version_problems(kind: Any, event: RecordedEvent) -> list[str]:
    if event.schema_version > kind.VERSION:
        return [f"{event.type}: schema version {event.schema_version} is newer than {kind.VERSION}"]
    if event.schema_version not in versions(kind):
        return []
    return problems(kind, event.data, version=event.schema_version)


def schemas_of(services: Sequence[Any]) -> dict[Path, dict[str, Any]]:
    """Every declared event of ``services`` (service definitions): relative path -> its schema."""
    return {
        schema_path(c.topic, event, version): json_schema(event, c.topic, version)
        for svc in services
        for c in svc.events
        for event in c.events
        for version in versions(event)
    }


def write(folder: Path, services: Sequence[Any]) -> list[Path]:
    """Write every schema into ``folder`` and remove the ones no longer declared; returns the files."""
    wanted = schemas_of(services)
    for stale in folder.rglob("*.json"):
        if stale.relative_to(folder) not in wanted:
            stale.unlink()
    for path, schema in wanted.items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(render(schema))
    return sorted(wanted)


def main() -> None:
    import sys

    from libs.kit.registry import discover

    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/schemas")
    written = write(folder, discover())
    print(f"{len(written)} schemas in {folder}")


if __name__ == "__main__":
    main()
