"""A small model of the Kubernetes API server's answer to ``kubectl apply``, for what a release may
trip on: fields that cannot change once an object exists.

- a Job's ``spec.template``, ``spec.selector`` and ``spec.completionMode`` (the API server:
  ``field is immutable``);
- a Deployment's, StatefulSet's or DaemonSet's ``spec.selector``.

Objects are keyed by kind, namespace and name, as the server keys them; an object applied again
with the same immutable fields is accepted (``kubectl apply`` patches the rest). Nothing expires:
the Jobs of every release applied stay, as they do for a day (``ttlSecondsAfterFinished``)."""

from __future__ import annotations

import copy
from typing import Any

Doc = dict[str, Any]

IMMUTABLE: dict[str, tuple[str, ...]] = {
    "Job": ("template", "selector", "completionMode"),
    "Deployment": ("selector",),
    "StatefulSet": ("selector",),
    "DaemonSet": ("selector",),
}


class Refused(Exception):
    """What ``kubectl apply`` prints when the server refuses an object."""


class FakeApi:
    def __init__(self) -> None:
        self.objects: dict[tuple[str, str, str], Doc] = {}

    @staticmethod
    def key(doc: Doc) -> tuple[str, str, str]:
        meta = doc["metadata"]
        return doc["kind"], meta.get("namespace", ""), meta["name"]

    def apply(self, doc: Doc) -> None:
        key = self.key(doc)
        stored = self.objects.get(key)
        if stored is not None:
            for field in IMMUTABLE.get(doc["kind"], ()):
                if stored.get("spec", {}).get(field) != doc.get("spec", {}).get(field):
                    kind, _, name = key
                    raise Refused(f'{kind} "{name}" is invalid: spec.{field}: field is immutable')
        self.objects[key] = copy.deepcopy(doc)

    def apply_all(self, docs: list[Doc]) -> None:
        """``kubectl apply -k``: every object it can; then, as kubectl exits 1, every refusal."""
        refusals = []
        for doc in docs:
            try:
                self.apply(doc)
            except Refused as refused:
                refusals.append(str(refused))
        if refusals:
            raise Refused("; ".join(refusals))
