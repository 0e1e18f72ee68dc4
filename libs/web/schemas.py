"""Schema building blocks that reject rather than coerce.

``StrictSchema`` rejects unknown fields (422) whatever marshmallow's default; ``StrictInteger``
rejects ``1.5`` and ``"5"`` in JSON bodies (plain ``Integer`` truncates and parses them);
``QueryInteger`` is for query strings, whose values are always strings: only ASCII digits (plain
``Integer`` parses ``int(" 5")``, ``int("5_0")`` and other digits than ASCII);
``IsoDate`` takes only what its documented ``format: date`` means (``YYYY-MM-DD``; plain ``Date``
also takes ``20261201`` and ``2026-W01-1``);
``Blueprint`` is flask-smorest's with a parser that lets the schema decide about unknown fields
in the query string too (webargs' default silently drops unknown query parameters).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any, ClassVar

import flask
import flask_smorest
import marshmallow as ma
from webargs.flaskparser import FlaskParser


class StrictSchema(ma.Schema):
    JSON_SCHEMA: ClassVar[Mapping[str, Any]] = {}
    """Keywords added to the documented JSON Schema for a rule across fields that the fields cannot
    state (e.g. an ``anyOf``: at least one of them); the server must refuse what they exclude."""

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


class IsoDate(ma.fields.Date):
    """A date as RFC 3339's ``full-date`` (``YYYY-MM-DD``), what ``format: date`` documents."""

    _FULL_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if not isinstance(value, str) or self._FULL_DATE.fullmatch(value) is None:
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class QueryInteger(ma.fields.Integer):
    """An integer in a query string: an optional ``-`` and ASCII digits, nothing else."""

    _DIGITS = re.compile(r"-?[0-9]+")

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if isinstance(value, str) and self._DIGITS.fullmatch(value) is None:
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class ErrorBodySchema(ma.Schema):
    code = ma.fields.String(required=True, metadata={"description": "machine-readable error code"})
    message = ma.fields.String(required=True)
    details = ma.fields.Dict(metadata={"description": "e.g. per-field validation messages"})


class ErrorSchema(ma.Schema):
    """The one error shape (documentation only): ``{"error": {"code", "message", "details"?}}``."""

    error = ma.fields.Nested(ErrorBodySchema, required=True)


class StrictParser(FlaskParser):
    """Unknown fields in JSON, forms and query strings follow the schema (``StrictSchema``: 422);
    headers, cookies and files still ignore what the schema does not name."""

    DEFAULT_UNKNOWN_BY_LOCATION = {
        **FlaskParser.DEFAULT_UNKNOWN_BY_LOCATION,
        "query": None,
        "querystring": None,
    }

    def _raw_load_json(self, req: flask.Request) -> Any:
        """The body as the request guard already parsed it (``libs.web.observability``), else
        webargs' own parse (an app without the guard)."""
        if "parsed_json" in flask.g:
            return flask.g.parsed_json
        return super()._raw_load_json(req)


class Blueprint(flask_smorest.Blueprint):
    """Use this instead of ``flask_smorest.Blueprint`` in services."""

    ARGUMENTS_PARSER = StrictParser()


class UnionSchema(StrictSchema):
    """A discriminated union: the value of field ``DISCRIMINATOR`` picks which of ``VARIANTS`` (strict
    schemas, each with that field as a one-value enum) loads the data. Documented as a ``oneOf``
    with a ``discriminator`` (``libs.web.contract``), so a field of another variant is invalid by
    the document as it is for the server (422)."""

    DISCRIMINATOR: ClassVar[str] = "type"
    VARIANTS: ClassVar[Mapping[str, type[ma.Schema]]] = {}

    def load(self, data: Any, *, many: bool | None = None, partial: Any = None, unknown: Any = None) -> Any:
        if many:
            raise TypeError("UnionSchema loads one object at a time")
        if not isinstance(data, Mapping):
            raise ma.ValidationError({"_schema": ["Invalid input type."]})
        kind = data.get(self.DISCRIMINATOR)
        variant = self.VARIANTS.get(kind) if isinstance(kind, str) else None
        if variant is None:
            choices = ", ".join(self.VARIANTS)
            raise ma.ValidationError({self.DISCRIMINATOR: [f"Must be one of: {choices}."]})
        return _variant(variant).load(data)


@functools.cache
def _variant(cls: type[ma.Schema]) -> ma.Schema:
    return cls()
