"""Loading an object named on a command line as ``dotted.module.path:attribute``."""

from __future__ import annotations

import importlib
from typing import Any


def load_object(spec: str) -> Any:
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"expected dotted.module:attribute, got {spec!r}")
    obj: Any = importlib.import_module(module_name)
    for part in attribute.split("."):
        obj = getattr(obj, part)
    return obj
