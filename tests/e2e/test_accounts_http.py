"""Register, log in and GET /v1/me over real HTTP, through gunicorn started as `make run` starts it:
migrations by ``python -m libs.db.migrate_all``, then ``gunicorn services.wsgi:app`` (gthread)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from libs.devstack import processes
from libs.devstack.ports import free_port

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def base_url(postgres_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("arcana-data")
    env = {
        **os.environ,
        "DATABASE_URL": postgres_url,
        "ARCANA_DATA_DIR": str(data),  # the dev token secret is generated there, as with `make run`
        "ARCANA_SCRYPT_N": "1024",  # fast hashing for the test only
        "PYTHONPATH": str(ROOT),
    }
    env.pop("ARCANA_TOKEN_SECRET", None)
    subprocess.run([sys.executable, "-m", "libs.db.migrate_all"], cwd=ROOT, env=env, check=True, timeout=120)
    port = free_port()
    log = (data / "gunicorn.log").open("wb")
    web = processes.gunicorn(port, data)  # the command line `make run` uses
    server = subprocess.Popen(
        web.argv, cwd=ROOT, env={**env, **web.env}, stdout=log, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (data / "gunicorn.log").read_text()[-3000:]
            try:
                if requests.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except requests.RequestException:  # not listening yet, or slow under load
                pass
            assert time.monotonic() < deadline, "gunicorn did not answer /healthz"
            time.sleep(0.1)
        yield url
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()
        text = (data / "gunicorn.log").read_text()
        assert '"status": 500' not in text and "Traceback" not in text, text[-3000:]


def test_register_log_in_and_me_over_http(base_url: str) -> None:
    username = f"e2e_{uuid.uuid4().hex[:10]}"
    password = "a long enough password"
    s = requests.Session()
    created = s.post(f"{base_url}/v1/accounts", json={"username": username, "password": password}, timeout=10)
    assert created.status_code == 201, created.text
    player_id = created.json()["player_id"]
    assert created.headers["X-Request-Id"]

    session = s.post(f"{base_url}/v1/sessions", json={"username": username, "password": password}, timeout=10)
    assert session.status_code == 201, session.text
    token = session.json()["token"]
    assert session.json()["player_id"] == player_id

    me = s.get(f"{base_url}/v1/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert me.status_code == 200, me.text
    assert me.json()["player_id"] == player_id and me.json()["username"] == username

    # a second request lands on any worker: the token secret is shared through the data folder
    for _ in range(4):
        again = s.get(f"{base_url}/v1/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        assert again.status_code == 200


JSON = {"Content-Type": "application/json"}


def test_bad_input_over_http_is_4xx_in_the_error_shape(base_url: str) -> None:
    cases = [
        ("post", "/v1/accounts", {"data": b"{nope", "headers": JSON}, 400),
        ("post", "/v1/accounts", {"json": {"username": "abc", "password": "x" * 10, "admin": 1}}, 422),
        ("post", "/v1/accounts", {"data": b"x" * 200_000, "headers": JSON}, 413),
        ("post", "/v1/accounts", {"data": iter([b'{"username": "', b"y" * 99_000, b'"}']),
                                  "headers": JSON}, 413),
        ("post", "/v1/sessions", {"json": {"username": "nobody_x", "password": "wrong password"}}, 401),
        ("get", "/v1/me", {"headers": {"Authorization": "Bearer forged.token.here"}}, 401),
        ("get", "/v1/me", {}, 401),
        ("get", "/v1/unknown", {}, 404),
        ("delete", "/v1/me", {}, 405),
    ]  # fmt: skip
    for method, path, kwargs, status in cases:
        resp = requests.request(method, f"{base_url}{path}", timeout=10, **kwargs)  # type: ignore[arg-type]
        assert resp.status_code == status, (path, resp.status_code, resp.text)
        error = resp.json()["error"]
        assert error["code"] and error["message"]


def test_health_readiness_metrics_and_openapi(base_url: str) -> None:
    assert requests.get(f"{base_url}/healthz", timeout=5).status_code == 200
    ready = requests.get(f"{base_url}/readyz", timeout=5)
    assert ready.status_code == 200 and ready.json()["checks"]["database"] == "ok"
    assert "arcana_http_requests_total" in requests.get(f"{base_url}/metrics", timeout=5).text
    doc = requests.get(f"{base_url}/v1/openapi/accounts.json", timeout=5).json()
    assert "/v1/me" in doc["paths"]


def test_concurrent_retries_through_gunicorn_register_once(base_url: str) -> None:
    username = f"idem_{uuid.uuid4().hex[:10]}"
    body = {"username": username, "password": "a long enough password"}
    headers = {"Idempotency-Key": f"key-{uuid.uuid4()}"}

    def post(_: int) -> requests.Response:
        return requests.post(f"{base_url}/v1/accounts", json=body, headers=headers, timeout=30)

    with ThreadPoolExecutor(max_workers=20) as pool:
        responses = list(pool.map(post, range(20)))
    assert {r.status_code for r in responses} == {201}, [r.text for r in responses]
    assert len({r.json()["player_id"] for r in responses}) == 1
