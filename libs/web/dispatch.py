"""One WSGI app serving several services' apps on one port, routed by path prefix.

A request goes to the app whose prefix matches (the path equals the prefix or continues with
``/``; the longest prefix wins); the path is passed unchanged, as an Ingress does. Anything else,
including ``/healthz``, ``/readyz``, ``/metrics`` and unknown paths, goes to ``fallback`` (a
:func:`libs.web.app.base_app`), which answers 404 in the one error shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

WSGIApp = Any  # a WSGI callable


class PrefixDispatcher:
    def __init__(self, fallback: WSGIApp, mounts: Iterable[tuple[str, WSGIApp]]) -> None:
        self.fallback = fallback
        self.mounts = sorted(((prefix.rstrip("/"), app) for prefix, app in mounts), key=lambda m: -len(m[0]))
        seen: set[str] = set()
        for prefix, _ in self.mounts:
            if not prefix.startswith("/") or prefix in seen:
                raise ValueError(f"bad or duplicate prefix {prefix!r}")
            seen.add(prefix)

    def app_for(self, path: str) -> WSGIApp:
        for prefix, app in self.mounts:
            if path == prefix or path.startswith(prefix + "/"):
                return app
        return self.fallback

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterator[bytes]:
        app = self.app_for(environ.get("PATH_INFO", "") or "/")
        result: Iterator[bytes] = app(environ, start_response)
        return result
