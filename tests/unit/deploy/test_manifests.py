"""The Kubernetes manifests an operator applies must match the code they run."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from libs.config import PROJECT_ROOT
from libs.web.long_polls import INGRESS_PATH, is_long_poll
from tests.unit.deploy import rendering
from tests.unit.deploy.rendering import OVERLAYS


def _documents() -> list[dict]:
    return rendering.base_documents()


def _containers(docs: list[dict]) -> list[dict]:
    return [
        c
        for d in docs
        if d["kind"] in ("Deployment", "Job")
        for c in d["spec"]["template"]["spec"]["containers"]
        if c["image"] == "arcana"  # not Redis
    ]


def _env(container: dict) -> dict[str, str]:
    return {e["name"]: e.get("value", "") for e in container.get("env", [])}


def _module_of(command: list[str]) -> str:
    if command[0] == "gunicorn":
        return command[1].split(":")[0]
    if command[0] == "celery":
        return command[2]
    assert command[:2] == ["python", "-m"], command
    return command[2]


def _exists(module: str) -> bool:
    return (PROJECT_ROOT / (module.replace(".", "/") + ".py")).is_file() or (
        PROJECT_ROOT / module.replace(".", "/") / "__main__.py"
    ).is_file()


def test_every_container_runs_a_module_that_exists_with_config_and_secrets() -> None:
    for container in _containers(_documents()):
        assert _exists(_module_of(container["command"])), container["command"]
        sources = {next(iter(s)): next(iter(s.values()))["name"] for s in container["envFrom"]}
        assert sources == {"configMapRef": "arcana-config"}  # secrets: files (test_hardening.py)
        assert any(
            v["name"] == "DATABASE_URL_FILE" or v["name"] == "CELERY_BROKER_URL_FILE"
            for v in container["env"]
        )


def test_every_service_has_a_deployment_and_the_ingress_routes_exactly_its_prefixes() -> None:
    from libs import kit

    docs = _documents()
    deployments = {d["metadata"]["name"] for d in docs if d["kind"] == "Deployment"}
    ingresses = [d for d in docs if d["kind"] == "Ingress"]  # public, and internal for /v1/admin
    routed = {
        p["path"]: p["backend"]["service"]["name"]
        for ingress in ingresses
        for rule in ingress["spec"]["rules"]
        for p in rule["http"]["paths"]
    }
    expected: dict[str, str] = {INGRESS_PATH: "match-waits"}  # the long-polls: their own pods
    assert "match-waits" in deployments
    for svc in kit.discover():
        assert {svc.name, f"{svc.name}-relay"} <= deployments
        if svc.subscriptions:
            assert f"{svc.name}-consumers" in deployments
        expected.update(dict.fromkeys(svc.prefixes, svc.name))
        expected[f"/v1/openapi/{svc.name}.json"] = svc.name
    assert routed == expected


def test_each_service_deployment_serves_only_its_service_and_runs_its_parts() -> None:
    from libs import kit

    by_name = {d["metadata"]["name"]: d for d in _documents() if d["kind"] == "Deployment"}
    for svc in kit.discover():
        [web] = by_name[svc.name]["spec"]["template"]["spec"]["containers"]
        assert web["command"][1] == "services.wsgi:app" and _env(web)["ARCANA_SERVICES"] == svc.name
        [relay] = by_name[f"{svc.name}-relay"]["spec"]["template"]["spec"]["containers"]
        assert relay["command"][-4:] == ["--service", svc.name, "--schema", svc.name]
        if svc.subscriptions:
            [consumer] = by_name[f"{svc.name}-consumers"]["spec"]["template"]["spec"]["containers"]
            assert consumer["command"] == ["python", "-m", "libs.kit.consume", svc.name]


def test_no_secret_values_in_the_config_map() -> None:
    [config] = [d for d in _documents() if d["kind"] == "ConfigMap"]
    for key in ("DATABASE_URL", "ARCANA_TOKEN_SECRET", "ARCANA_OPERATOR_TOKEN", "CELERY_BROKER_URL"):
        assert key not in config["data"]


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: Path(p).name)
def test_overlays_render(overlay: Path) -> None:
    kinds = [d["kind"] for d in rendering.render(overlay)]
    assert kinds.count("Ingress") == 2 and "Deployment" in kinds  # public and internal (admin)


def test_every_gunicorn_target_is_a_wsgi_app(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Building an app opens no connection: a placeholder URL is enough to resolve `module:app`.
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    monkeypatch.setenv("ARCANA_DATA_DIR", str(tmp_path))
    targets = {c["command"][1] for c in _containers(_documents()) if c["command"][0] == "gunicorn"}
    targets.add("services.wsgi:app")  # what `make run` serves
    for target in sorted(targets):
        module, attribute = target.split(":")
        app = getattr(importlib.import_module(module), attribute)
        assert callable(app) and app is getattr(importlib.import_module(module), attribute), target


def _option(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def _gunicorns(app: str) -> list[list[str]]:
    return [c["command"] for c in _containers(_documents()) if c["command"][:2] == ["gunicorn", app]]


def test_every_web_deployment_serves_like_make_run(tmp_path: Path) -> None:
    """gthread with the many cheap threads waiting long-polls need, as ``make run`` starts gunicorn."""
    from libs.devstack import processes
    from libs.web import gunicorn_conf

    local = processes.gunicorn(8000, tmp_path).argv
    webs = _gunicorns("services.wsgi:app")
    assert webs
    for argv in [local, *webs]:
        assert _option(argv, "--config") == "python:libs.web.gunicorn_conf"
        assert _option(argv, "--worker-class") == "gthread"
        assert int(_option(argv, "--threads")) == gunicorn_conf.THREADS
        assert int(_option(argv, "--worker-connections")) == gunicorn_conf.WORKER_CONNECTIONS


def test_the_long_poll_deployment_serves_like_make_run_and_only_the_long_polls(tmp_path: Path) -> None:
    """The match-waits pods run the gevent gunicorn ``make run`` runs, and get the path ``make run``'s
    gthread gunicorn passes on to it."""
    from libs import gevent_conf
    from libs.devstack import processes

    local = processes.waits(8001, tmp_path)
    [waits] = [
        d for d in _documents() if d["kind"] == "Deployment" and d["metadata"]["name"] == "match-waits"
    ]
    [container] = waits["spec"]["template"]["spec"]["containers"]
    assert _gunicorns("services.match.waits_wsgi:app") == [container["command"]]
    for argv in (local.argv, container["command"]):
        assert _option(argv, "--config") == "python:libs.gevent_conf"
        assert _option(argv, "--worker-class") == "gevent"
        assert int(_option(argv, "--worker-connections")) == gevent_conf.CONNECTIONS
    env = _env(container)
    assert "ARCANA_LONG_POLLS_AT" not in env
    assert (
        env["ARCANA_DB_POOL_TIMEOUT"] == local.env["ARCANA_DB_POOL_TIMEOUT"] == str(gevent_conf.POOL_TIMEOUT)
    )
    assert [c["image"] for c in _containers([waits])] == ["arcana"]
    example = "/v1/matches/7d3f0b8e-0000-4000-8000-000000000000/events"
    assert re.fullmatch(INGRESS_PATH, example) and is_long_poll(example)
    assert not is_long_poll(example.replace("/events", "/commands")) and not is_long_poll("/v1/matches")
