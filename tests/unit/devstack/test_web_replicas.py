"""Several web replicas on one machine (``processes.web_replicas``): each on its port, each passing its
long-polls on to a long-poll process of its own, none sharing another's metrics folder."""

from __future__ import annotations

from pathlib import Path

from libs.devstack import processes


def _bind(argv: list[str]) -> str:
    return argv[argv.index("--bind") + 1]


def test_each_replica_serves_its_port_and_passes_its_long_polls_to_its_own_waits(tmp_path: Path) -> None:
    components = {c.name: c for c in processes.web_replicas([8101, 8102], tmp_path, apart=True)}

    assert set(components) == {"web", "waits", "web-2", "waits-2"}
    assert (_bind(components["web"].argv), components["web"].port) == ("127.0.0.1:8101", 8101)
    assert (_bind(components["web-2"].argv), components["web-2"].port) == ("127.0.0.1:8102", 8102)
    for web, waits in (("web", "waits"), ("web-2", "waits-2")):
        assert components[web].env["ARCANA_LONG_POLLS_AT"] == _bind(components[waits].argv)
        assert components[waits].port is not None and _bind(components[waits].argv).endswith(
            f":{components[waits].port}"
        )
    assert components["waits"].port != components["waits-2"].port
    folders = [c.env["PROMETHEUS_MULTIPROC_DIR"] for c in components.values()]
    assert len(set(folders)) == len(folders)


def test_replicas_without_waits_apart_serve_the_long_polls_themselves(tmp_path: Path) -> None:
    components = processes.web_replicas([8101, 8102], tmp_path, apart=False)

    assert [c.name for c in components] == ["web", "web-2"]
    assert all("ARCANA_LONG_POLLS_AT" not in c.env for c in components)


def test_the_stack_of_make_run_is_unchanged_one_web(tmp_path: Path) -> None:
    names = [c.name for c in processes.all_components(8101, tmp_path, waits_apart=False)]

    assert names == ["web", "celery-worker", "celery-beat", "relays", "consumers"]
