"""Paging cursors whose format the OpenAPI document states exactly.

A :class:`Cursor` is a fixed-size binary keyset position (a ``struct`` format: e.g. ``">i16s"``, a
rating and a player id's 16 bytes) written as unpadded base64url. Opaque to clients, yet its
``pattern`` is exact: every string matching it decodes to a position (the bits the last character
carries beyond the key must be zero, so each position has one spelling), and any position is a
valid place to start a page from. So a request the document calls valid is never refused, and a
string that does not match is refused with 400 ``invalid_cursor`` (:class:`InvalidCursor`, which
the service maps in its ``ErrorTable``).
"""

from __future__ import annotations

import base64
import re
import struct
from typing import Any

import marshmallow as ma

__all__ = ["Cursor", "InvalidCursor"]

_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_ANY = "[A-Za-z0-9_-]"


class InvalidCursor(ValueError):
    """A cursor that does not match its documented pattern."""


def _last(unused_bits: int) -> str:
    """The characters whose low ``unused_bits`` bits are zero."""
    chars = "".join(c for i, c in enumerate(_ALPHABET) if i % (1 << unused_bits) == 0)
    return "[" + re.sub(r"[-\\\]^]", lambda m: "\\" + m.group(), chars) + "]"


class Cursor:
    def __init__(self, fmt: str, description: str = "") -> None:
        self.struct = struct.Struct(fmt)
        size = self.struct.size
        self.length = len(base64.urlsafe_b64encode(bytes(size)).rstrip(b"="))
        unused = {0: 0, 1: 4, 2: 2}[size % 3]  # bits of the last character beyond the key
        body = f"{_ANY}{{{self.length}}}" if not unused else f"{_ANY}{{{self.length - 1}}}{_last(unused)}"
        self.pattern = f"^{body}$"
        self._regex = re.compile(body)
        self.description = description

    def encode(self, *values: Any) -> str:
        return base64.urlsafe_b64encode(self.struct.pack(*values)).decode().rstrip("=")

    def decode(self, text: str) -> tuple[Any, ...]:
        """The position ``text`` names. Raises :class:`InvalidCursor` unless it matches ``pattern``."""
        if not isinstance(text, str) or self._regex.fullmatch(text) is None:
            raise InvalidCursor(text)
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        return self.struct.unpack(raw)

    def field(self, **kwargs: Any) -> ma.fields.String:
        """A query parameter or response property holding this cursor, documented with its pattern.
        It loads as the string: the endpoint decodes it (400 ``invalid_cursor`` when it does not
        match), so the refusal keeps its own code."""
        metadata = {
            "pattern": self.pattern,
            "minLength": self.length,
            "maxLength": self.length,
            "description": self.description or "a cursor from the previous page's `next`",
            **kwargs.pop("metadata", {}),
        }
        return ma.fields.String(metadata=metadata, **kwargs)
