"""Issue 32, point 4: what is open is measured. ``arcana_open_long_polls`` counts a match events
long-poll from its start to its end, whatever its outcome; ``arcana_open_streams`` counts the
blocks a stream's generator runs in (``open_stream``)."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Flask, Response, jsonify
from prometheus_client import REGISTRY

from libs.web import observability

SERVICE = "long-poll-gauge-test"  # a label of its own: other tests' requests do not move it


def _open(name: str) -> float:
    return REGISTRY.get_sample_value(name, {"service": SERVICE}) or 0.0


def _app() -> Flask:
    app = Flask("gauges")
    observability.install(app, SERVICE)

    @app.get("/v1/matches/<match_id>/events")
    def events(match_id: str) -> Response:
        if match_id == "broken":
            raise RuntimeError("the wait failed")
        return jsonify({"open": _open("arcana_open_long_polls")})

    @app.get("/v1/matches/<match_id>")
    def view(match_id: str) -> Response:
        return jsonify({"open": _open("arcana_open_long_polls")})

    return app


def test_a_long_poll_is_counted_while_it_is_open_and_only_then() -> None:
    client = _app().test_client()
    before = _open("arcana_open_long_polls")
    assert client.get("/v1/matches/m1/events?wait=5").get_json() == {"open": before + 1}
    assert _open("arcana_open_long_polls") == before
    assert client.get("/v1/matches/m1").get_json() == {"open": before}  # not a long-poll


def test_a_long_poll_that_fails_is_no_longer_counted() -> None:
    app = _app()
    app.config["PROPAGATE_EXCEPTIONS"] = False
    before = _open("arcana_open_long_polls")
    assert app.test_client().get("/v1/matches/broken/events").status_code == 500
    assert _open("arcana_open_long_polls") == before


def test_a_stream_is_counted_while_its_generator_runs() -> None:
    before = _open("arcana_open_streams")

    def stream() -> Iterator[float]:
        with observability.open_stream(SERVICE):
            yield _open("arcana_open_streams")
            yield _open("arcana_open_streams")

    chunks = stream()
    assert next(chunks) == before + 1
    chunks.close()  # the client went away: the generator is closed mid-stream
    assert _open("arcana_open_streams") == before
