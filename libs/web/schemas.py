"""Schema building blocks that reject rather than coerce.

``StrictSchema`` rejects unknown fields (422) whatever marshmallow's default; ``StrictInteger``
rejects ``1.5`` and ``"5"`` (marshmallow's plain ``Integer`` truncates and parses them).
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma


class StrictSchema(ma.Schema):
    class Meta:
        unknown = ma.RAISE


class StrictInteger(ma.fields.Integer):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("strict", True)
        super().__init__(**kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, bool):  # bool is an int subclass: True is not 1 here
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class ErrorBodySchema(ma.Schema):
    code = ma.fields.String(required=True, metadata={"description": "machine-readable error code"})
    message = ma.fields.String(required=True)
    details = ma.fields.Dict(metadata={"description": "e.g. per-field validation messages"})


class ErrorSchema(ma.Schema):
    """The one error shape (documentation only): ``{"error": {"code", "message", "details"?}}``."""

    error = ma.fields.Nested(ErrorBodySchema, required=True)
