"""Issue 12, findings 1 and 7: the rendered manifests run hardened containers, deny network flows
by default, give each component only the secrets it uses (as files), use one database role per
service, serve TLS, keep /v1/admin/... off the public Ingress and protect Redis with a password."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.deploy import rendering
from tests.unit.deploy.rendering import OVERLAYS, base_documents, of_kind

SECRET = "arcana-secrets"

# component (Deployment or Job) -> the keys of the Secret it may see, and nothing else
SECRETS_OF = {
    "accounts": {"accounts-database-url", "token-secret", "operator-token"},
    "accounts-relay": {"accounts-database-url"},
    "match": {"match-database-url", "token-secret", "operator-token", "celery-broker-url"},
    "match-waits": {"match-database-url", "token-secret", "celery-broker-url"},
    "match-relay": {"match-database-url"},
    "match-consumers": {"match-database-url", "celery-broker-url"},
    "matchmaking": {"matchmaking-database-url", "token-secret"},
    "matchmaking-relay": {"matchmaking-database-url"},
    "matchmaking-consumers": {"matchmaking-database-url"},
    "ratings": {"ratings-database-url", "token-secret", "operator-token"},
    "ratings-relay": {"ratings-database-url"},
    "ratings-consumers": {"ratings-database-url"},
    "progression": {"progression-database-url", "token-secret"},
    "progression-relay": {"progression-database-url"},
    "progression-consumers": {"progression-database-url"},
    "economy": {"economy-database-url", "token-secret", "operator-token"},
    "economy-relay": {"economy-database-url"},
    "economy-consumers": {"economy-database-url"},
    "celery-worker": {"worker-database-url", "celery-broker-url"},
    "celery-beat": {"celery-broker-url"},
    "arcana-migrate": {"migrate-database-url"},
    "arcana-db-roles": {"admin-database-url"}
    | {
        f"role-{r}"
        for r in (
            "arcana_migrate",
            "accounts_app",
            "match_app",
            "matchmaking_app",
            "ratings_app",
            "progression_app",
            "economy_app",
            "arcana_worker",
        )
    },
    "arcana-redis": {"redis-password"},
}

# component -> TCP ports it may reach (besides DNS); web pods never reach Kafka (issue 17, finding 5)
EGRESS_OF = {
    "accounts": {5432},
    "accounts-relay": {5432, 9092, 9093},
    "match": {5432, 6379},
    "match-waits": {5432, 6379},
    "match-relay": {5432, 9092, 9093},
    "match-consumers": {5432, 9092, 9093, 6379},
    "matchmaking": {5432},
    "matchmaking-relay": {5432, 9092, 9093},
    "matchmaking-consumers": {5432, 9092, 9093},
    "ratings": {5432},
    "ratings-relay": {5432, 9092, 9093},
    "ratings-consumers": {5432, 9092, 9093},
    "progression": {5432},
    "progression-relay": {5432, 9092, 9093},
    "progression-consumers": {5432, 9092, 9093},
    "economy": {5432},
    "economy-relay": {5432, 9092, 9093},
    "economy-consumers": {5432, 9092, 9093},
    "celery-worker": {5432, 6379},
    "celery-beat": {6379},
    "arcana-migrate": {5432},
    "arcana-db-roles": {5432},
    "arcana-redis": set(),
}


def _renderings() -> list[Any]:
    params = [pytest.param(base_documents, id="base")]
    for overlay in OVERLAYS:
        params.append(pytest.param(lambda overlay=overlay: rendering.render(overlay), id=overlay.name))
    return params


@pytest.fixture(params=_renderings())
def docs(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    loaded: list[dict[str, Any]] = request.param()
    return loaded


def _workloads(docs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Deployment or Job name -> its pod template (a release's Job by its base name: ``arcana-migrate``
    for ``arcana-migrate-0-1-0``)."""
    jobs = {d["metadata"]["name"] for d in base_documents() if d["kind"] == "Job"}

    def base_name(name: str) -> str:
        return next((job for job in jobs if name.startswith(job + "-")), name)

    return {base_name(n): pod for n, pod in rendering.workloads(docs).items()}


_of_kind = of_kind


def test_every_workload_is_listed(docs: list[dict[str, Any]]) -> None:
    assert set(_workloads(docs)) == set(SECRETS_OF)


def test_every_container_is_hardened(docs: list[dict[str, Any]]) -> None:
    for name, pod in _workloads(docs).items():
        spec = pod["spec"]
        assert spec["securityContext"]["runAsNonRoot"] is True, name
        assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}, name
        assert spec.get("automountServiceAccountToken") is False, name
        volumes = {v["name"]: v for v in spec["volumes"]}
        for container in spec.get("initContainers", []) + spec["containers"]:
            context = container["securityContext"]
            assert context["allowPrivilegeEscalation"] is False, name
            assert context["readOnlyRootFilesystem"] is True, name
            assert context["capabilities"] == {"drop": ["ALL"]}, name
            assert context["runAsNonRoot"] is True, name
            assert context["seccompProfile"] == {"type": "RuntimeDefault"}, name
            [tmp] = [m for m in container["volumeMounts"] if m["mountPath"] == "/tmp"]
            assert "emptyDir" in volumes[tmp["name"]], name


def _strimzi_secrets() -> set[str]:
    from libs import kit
    from libs.kit import acls

    return {acls.CA_SECRET} | {acls.user_name(svc) for svc in kit.discover()}


def _secret_items(volume: dict[str, Any]) -> list[dict[str, str]]:
    sources = volume.get("projected", {}).get("sources", [])
    items = [s["secret"] for s in sources if "secret" in s]
    if "secret" in volume:
        if volume["secret"].get("secretName") in _strimzi_secrets():
            # a Kafka user's password or the cluster CA (test_kafka_acls.py checks whose)
            return [{**i, "strimzi": True} for i in volume["secret"]["items"]]
        items.append(volume["secret"])
    found = []
    for source in items:
        assert source["name"] == SECRET
        assert source.get("items"), "a whole Secret is never mounted: only the keys a pod uses"
        found.extend(source["items"])
    return found


def test_each_component_mounts_only_the_secrets_it_uses_as_files(docs: list[dict[str, Any]]) -> None:
    for name, pod in _workloads(docs).items():
        spec = pod["spec"]
        mounted: set[str] = set()
        files: set[str] = set()
        volumes = {v["name"]: v for v in spec["volumes"]}
        for container in spec["containers"]:
            for source in container.get("envFrom", []):
                assert "secretRef" not in source, name
            for variable in container.get("env", []):
                assert "secretKeyRef" not in variable.get("valueFrom", {}), (name, variable)
            for mount in container["volumeMounts"]:
                items = _secret_items(volumes[mount["name"]])
                if items:
                    assert mount["readOnly"] is True, name
                    mounted |= {i["key"] for i in items if not i.get("strimzi")}
                    files |= {f"{mount['mountPath']}/{i['path']}" for i in items}
            for variable in container.get("env", []):
                if variable["name"].endswith("_FILE"):
                    assert variable["value"] in files, (name, variable)
        assert mounted == SECRETS_OF[name], name


def test_every_service_serving_operator_endpoints_mounts_the_operator_token() -> None:
    """Without it a service answers 404 on its ``/v1/admin/...`` routes (no operator configured)."""
    from libs import kit

    admin = {d.name for d in kit.discover() if any(p.startswith("/v1/admin/") for p in d.prefixes)}
    assert admin == {"accounts", "economy", "match", "ratings"}
    assert all("operator-token" in SECRETS_OF[name] for name in admin)


def _selects(selector: dict[str, Any], labels: dict[str, str]) -> bool:
    assert set(selector) <= {"matchLabels", "matchExpressions"}, selector
    expressions = selector.get("matchExpressions", [])
    assert all(e["operator"] == "In" for e in expressions), selector
    return all(labels.get(k) == v for k, v in selector.get("matchLabels", {}).items()) and all(
        labels.get(e["key"]) in e["values"] for e in expressions
    )


def _policies_for(docs: list[dict[str, Any]], labels: dict[str, str]) -> list[dict[str, Any]]:
    return [p["spec"] for p in _of_kind(docs, "NetworkPolicy") if _selects(p["spec"]["podSelector"], labels)]


def test_network_policies_deny_by_default_and_allow_only_the_needed_flows(docs: list[dict[str, Any]]) -> None:
    policies = [p["spec"] for p in _of_kind(docs, "NetworkPolicy")]
    assert {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]} in policies
    for name, pod in _workloads(docs).items():
        labels = pod["metadata"]["labels"]
        egress_ports = set()
        ingress_ports = set()
        for spec in _policies_for(docs, labels):
            for rule in spec.get("egress", []):
                ports = {p["port"] for p in rule["ports"]}
                if ports != {53}:
                    egress_ports |= ports
            for rule in spec.get("ingress", []):
                assert rule.get("from"), (name, "an ingress rule open to everyone")
                ingress_ports |= {p["port"] for p in rule["ports"]}
        assert egress_ports == EGRESS_OF[name], name
        component = labels["app.kubernetes.io/component"]
        expected_in = {
            "web": {8000},  # the Ingress controllers and Prometheus
            "waits": {8000},  # the public Ingress controller and Prometheus
            "relay": {9100},  # Prometheus only (metrics)
            "consumers": {9100},
            "worker": {9100},  # the Celery worker's task metrics
            "beat": {9100},  # beat's last tick and entries sent
        }.get(component, {6379} if name == "arcana-redis" else set())
        assert ingress_ports == expected_in, name


def _admin_prefixes() -> set[str]:
    from libs import kit

    return {prefix for svc in kit.discover() for prefix in svc.prefixes if prefix.startswith("/v1/admin")}


def _paths(ingress: dict[str, Any]) -> set[str]:
    return {p["path"] for rule in ingress["spec"]["rules"] for p in rule["http"]["paths"]}


def test_the_public_ingress_serves_tls_only_and_no_admin_route(docs: list[dict[str, Any]]) -> None:
    ingresses = {i["metadata"]["name"]: i for i in _of_kind(docs, "Ingress")}
    assert set(ingresses) == {"arcana", "arcana-internal"}
    for ingress in ingresses.values():
        hosts = {rule["host"] for rule in ingress["spec"]["rules"]}
        tls_hosts = {h for t in ingress["spec"]["tls"] for h in t["hosts"]}
        assert hosts <= tls_hosts and all(t["secretName"] for t in ingress["spec"]["tls"])
        assert ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/force-ssl-redirect"] == "true"
    public, internal = ingresses["arcana"], ingresses["arcana-internal"]
    assert not any(path.startswith("/v1/admin") for path in _paths(public))
    assert _paths(internal) == _admin_prefixes()
    assert public["spec"]["ingressClassName"] != internal["spec"]["ingressClassName"]


def test_the_client_address_is_taken_one_hop_behind_the_ingress(docs: list[dict[str, Any]]) -> None:
    [config] = _of_kind(docs, "ConfigMap")
    assert config["data"]["ARCANA_TRUSTED_PROXIES"] == "1"


def test_redis_requires_a_password_and_no_secret_is_in_the_config_map(docs: list[dict[str, Any]]) -> None:
    redis = _workloads(docs)["arcana-redis"]["spec"]["containers"][0]
    command = " ".join(redis["command"])
    assert "requirepass" in command and "/run/secrets/redis/password" in command
    [config] = _of_kind(docs, "ConfigMap")
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "ARCANA_TOKEN_SECRET", "ARCANA_OPERATOR_TOKEN"):
        assert key not in config["data"]


def test_roles_and_migrations_run_as_their_own_roles(docs: list[dict[str, Any]]) -> None:
    workloads = _workloads(docs)
    assert workloads["arcana-db-roles"]["spec"]["containers"][0]["command"] == [
        "python",
        "-m",
        "libs.db.roles",
    ]
    assert workloads["arcana-migrate"]["spec"]["containers"][0]["command"] == [
        "python",
        "-m",
        "libs.db.migrate_all",
    ]
    privileged = {"admin-database-url", "migrate-database-url"}
    for name, keys in SECRETS_OF.items():
        if name not in ("arcana-db-roles", "arcana-migrate"):
            assert not keys & privileged, name
