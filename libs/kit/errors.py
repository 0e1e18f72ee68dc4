"""Domain errors -> HTTP, declared once per service.

A service's ``ErrorTable`` maps each of its domain exception classes to a :class:`Problem`
(status, code, message, optional details and headers computed from the exception). The table is
registered on the service's Flask app, so endpoints just let domain errors propagate: no
per-endpoint ``try/except``. A subclass is matched through its MRO (the closest entry wins).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

Text = str | Callable[[Any], str]


@dataclass(frozen=True)
class Problem:
    status: int
    code: Text
    message: Text
    details: Callable[[Any], Mapping[str, Any] | None] | None = None
    headers: Callable[[Any], Mapping[str, str]] | None = None
    codes: tuple[str, ...] = ()
    """For the OpenAPI document when ``code`` is computed: every code it can give."""
    rules: bool = False
    """A refusal of well-formed input by rules a JSON Schema cannot state (the game's rules, a
    deck's legality, the match's state): the document lists its codes as ``x-rule-codes``."""

    def render(self, exc: Exception) -> tuple[int, str, str, Mapping[str, Any] | None, Mapping[str, str]]:
        """(status, code, message, details, headers) for ``exc``."""
        code = self.code(exc) if callable(self.code) else self.code
        message = self.message(exc) if callable(self.message) else self.message
        details = self.details(exc) if self.details else None
        headers = self.headers(exc) if self.headers else {}
        return self.status, code, message, details, headers


@dataclass(frozen=True)
class ErrorTable:
    entries: Mapping[type[Exception], Problem] = field(default_factory=dict)

    def __iter__(self) -> Iterator[type[Exception]]:
        return iter(self.entries)

    def problem_for(self, exc: Exception) -> Problem | None:
        for cls in type(exc).__mro__:
            if cls in self.entries:
                return self.entries[cls]
        return None

    def statuses(self) -> dict[int, list[str]]:
        """Status -> the codes declared for it (for the OpenAPI document): a static ``code``, or the
        ``codes`` a computed one can give."""
        out: dict[int, list[str]] = {}
        for problem in self.entries.values():
            codes = [problem.code] if isinstance(problem.code, str) else list(problem.codes)
            known = out.setdefault(problem.status, [])
            known.extend(c for c in codes if c not in known)
        return out

    def rule_codes(self) -> list[str]:
        """The codes of the problems marked ``rules`` (see :class:`Problem`)."""
        out: list[str] = []
        for problem in self.entries.values():
            if problem.rules:
                codes = [problem.code] if isinstance(problem.code, str) else list(problem.codes)
                out.extend(c for c in codes if c not in out)
        return out
