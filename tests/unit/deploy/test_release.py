"""Issue 32, points 1 and 2: releases on any day, images by digest.

- Release N, release N+1 the same day and the rollback to N are rendered as an operator makes them
  (``arcana release VERSION --digests FILE`` on a copy of deploy/k8s, then ``kubectl kustomize``)
  and applied in order to a model of the API server that refuses a Job whose pod template changes
  under the same name (tests/unit/deploy/fake_api.py). None may be refused.
- Every production image is named by digest (the backend and Redis), every Job after the release.
- ``arcana release`` writes the overlay's images from a digests file (either form it reads), and
  refuses what would give a release an image it cannot be sure of.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from libs.ops import release
from libs.ops.release import BACKEND, ReleaseError
from services import cli
from tests.unit.deploy import rendering
from tests.unit.deploy.fake_api import FakeApi, Refused
from tests.unit.deploy.rendering import OPTIONAL, OVERLAYS, PRODUCTION, render, render_release, render_with

Doc = dict[str, Any]
REDIS = "docker.io/library/redis"
# Versions no committed release will have (a committed one keeps its digest: see the refusals).
N, N1, N2 = "99.0.0", "99.1.0", "99.2.0"


def _digest(seed: str) -> str:
    return "sha256:" + hashlib.sha256(seed.encode()).hexdigest()


def _digests(version: str) -> str:
    """A digests file as ``crane digest --full-ref`` lines: this version's backend, one Redis."""
    backend = release.read().image(BACKEND).new_name
    return (
        f"# the push of {version}\n"
        f"{backend}:{version}@{_digest('backend ' + version)}\n"
        f"redis:7.2-alpine@{_digest('redis 7.2')}\n"
    )


def _containers(docs: list[Doc]) -> list[Doc]:
    return [
        c
        for pod in rendering.workloads(docs).values()
        for c in pod["spec"].get("initContainers", []) + pod["spec"]["containers"]
    ]


def _tag(image: str) -> str:
    return image.split("@", 1)[0].rsplit(":", 1)[1]


def unpinned(docs: list[Doc]) -> set[str]:
    """Images not named by tag *and* digest."""
    return {
        c["image"]
        for c in _containers(docs)
        if not release.DIGEST.match(c["image"].partition("@")[2]) or ":" not in c["image"].split("@")[0]
    }


# -- point 1: N, N+1, back to N ---------------------------------------------------------------


def test_the_model_refuses_a_job_whose_template_changes_under_its_name() -> None:
    api = FakeApi()
    [job] = [d for d in render(PRODUCTION) if d["kind"] == "Job"][:1]
    api.apply(job)
    api.apply(json.loads(json.dumps(job)))  # the same again: accepted
    job["spec"]["template"]["spec"]["containers"][0]["image"] += "-other"
    with pytest.raises(Refused, match="field is immutable"):
        api.apply(job)


def test_release_n_then_n_plus_1_the_same_day_then_the_rollback_to_n_all_apply() -> None:
    api = FakeApi()
    steps = [(N, _digests(N)), (N1, _digests(N1)), (N, _digests(N))]
    for version, digests in steps:
        docs = render_release(version, digests)
        api.apply_all(docs)  # raises Refused, as kubectl apply fails
        images = {c["image"] for c in _containers(docs) if "arcana/backend" in c["image"]}
        assert {_tag(i) for i in images} == {version}
    jobs = sorted(name for kind, _, name in api.objects if kind == "Job")
    assert jobs == [
        "arcana-db-roles-99-0-0",
        "arcana-db-roles-99-1-0",
        "arcana-migrate-99-0-0",
        "arcana-migrate-99-1-0",
    ]


def test_the_same_rendering_with_one_job_name_for_two_releases_is_refused() -> None:
    """What the model catches: the Jobs of N+1 under N's names (the manifests before issue 32
    kept ``arcana-db-roles`` for every release)."""
    api = FakeApi()
    api.apply_all(render_release(N, _digests(N)))
    newer = render_release(N1, _digests(N1))
    for doc in newer:
        if doc["kind"] == "Job":
            doc["metadata"]["name"] = doc["metadata"]["name"].replace("99-1-0", "99-0-0")
    with pytest.raises(Refused, match=r"arcana-db-roles-99-0-0.*field is immutable"):
        api.apply_all(newer)


@pytest.mark.parametrize("overlay", OVERLAYS, ids=lambda p: p.name)
def test_every_job_is_named_after_the_release_its_image_is(overlay: Path) -> None:
    base_jobs = {d["metadata"]["name"] for d in rendering.base_documents() if d["kind"] == "Job"}
    jobs = [d for d in render(overlay) if d["kind"] == "Job"]
    assert len(jobs) == len(base_jobs) >= 2
    for job in jobs:
        tags = {_tag(c["image"]) for c in _containers([job])}
        [tag] = tags
        name = job["metadata"]["name"]
        assert name.removesuffix("-" + release.job_suffix(tag)) in base_jobs, name


# -- point 2: digests -------------------------------------------------------------------------


def test_production_names_every_image_by_digest() -> None:
    assert unpinned(render(PRODUCTION)) == set()
    for component in OPTIONAL:  # on top of production, as an operator's own overlay adds one
        assert unpinned(render_with(PRODUCTION, [component])) == set(), (
            f"{component.name} runs an image production does not pin: list it in the production "
            "overlay's components, before `release` (which pins images) and `versioned-jobs`"
        )
    images = {c["image"] for c in _containers(render(PRODUCTION))}
    assert any(i.startswith(REDIS + ":") for i in images), images


def test_a_production_image_given_by_tag_alone_is_refused() -> None:
    docs = render(PRODUCTION)
    [redis] = [c for c in _containers(docs) if c["image"].startswith(REDIS)]
    redis["image"] = "redis:7.2-alpine"  # what the base names, floating
    assert unpinned(docs) == {"redis:7.2-alpine"}
    [backend] = [c for c in _containers(docs) if "arcana/backend" in c["image"]][:1]
    backend["image"] = backend["image"].split("@")[0]
    assert len(unpinned(docs)) == 2


@pytest.fixture
def component(tmp_path: Path) -> Path:
    copied = tmp_path / "release"
    shutil.copytree(release.COMPONENT, copied)
    return copied


def test_the_release_step_writes_every_image_digest_and_the_version(component: Path, tmp_path: Path) -> None:
    digests = tmp_path / "digests.txt"
    digests.write_text(_digests(N1))
    assert cli.main(["release", N1, "--digests", str(digests), "--component", str(component)]) == 0
    written = release.read(component)
    assert written.version == N1 and written.job_suffix == "99-1-0"
    backend, redis = written.image(BACKEND), written.image("redis")
    assert (backend.tag, backend.digest) == (N1, _digest("backend " + N1))
    assert (redis.new_name, redis.tag, redis.digest) == (REDIS, "7.2-alpine", _digest("redis 7.2"))


def test_the_release_step_reads_what_buildx_writes_with_metadata_file(
    component: Path, tmp_path: Path
) -> None:
    backend = release.read(component).image(BACKEND).new_name
    metadata = {
        "backend": {"image.name": f"{backend}:{N2},{backend}:latest", "containerimage.digest": _digest("b3")},
        "redis": {
            "image.name": "docker.io/library/redis:7.2.5-alpine",
            "containerimage.digest": _digest("r"),
        },
    }
    digests = tmp_path / "metadata.json"
    digests.write_text(json.dumps({"backend": metadata.pop("backend")}))
    others = tmp_path / "others.json"
    others.write_text(json.dumps(metadata["redis"]))  # `buildx build`'s form: one image
    release.main(N2, [digests, others], component)
    written = release.read(component)
    assert written.image(BACKEND).reference == f"{backend}:{N2}@{_digest('b3')}"
    assert written.image("redis").reference == f"{REDIS}:7.2.5-alpine@{_digest('r')}"


@pytest.mark.parametrize(
    ("version", "text", "refusal"),
    [
        (N1, "redis:7.2-alpine@{d}\n", "no digest for"),
        (N1, "{backend}:" + N1 + "\n", "is not IMAGE"),
        (N1, "{backend}:" + N1 + "@sha256:abc\n", "is not IMAGE"),
        (N1, "{backend}:0.1.9@{d}\nredis@{d}\n", f"of tag 0.1.9, not {N1}"),
        (N1, "{backend}@{d}\nredis@{d}\npostgres@{d}\n", "does not run: docker.io/library/postgres"),
        ("{current}", "{backend}@{d}\nredis@{d}\n", "a new build needs a new version"),
        (N1 + "/evil", "{backend}@{d}\nredis@{d}\n", "at most 40"),
    ],
    ids=["missing", "no-digest", "short-digest", "other-tag", "unknown-image", "same-version", "bad-version"],
)
def test_the_release_step_refuses_and_writes_nothing(
    component: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str, text: str, refusal: str
) -> None:
    before = {p.name: p.read_text() for p in component.iterdir()}
    current = release.read(component)
    backend = current.image(BACKEND).new_name
    version = version.format(current=current.version)
    digests = tmp_path / "digests.txt"
    digests.write_text(text.format(backend=backend, d=_digest("other")))
    code = cli.main(["release", version, "--digests", str(digests), "--component", str(component)])
    assert code == cli.USAGE_ERROR and refusal in capsys.readouterr().err
    assert {p.name: p.read_text() for p in component.iterdir()} == before
    with pytest.raises(ReleaseError):
        release.main(version, [digests], component)


def test_two_files_giving_one_image_two_digests_are_refused(component: Path, tmp_path: Path) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    first.write_text(_digests(N1))
    second.write_text(f"redis:7.2-alpine@{_digest('another build')}\n")
    with pytest.raises(ReleaseError, match="two digests given"):
        release.main(N1, [first, second], component)


def test_the_committed_release_is_what_the_step_writes() -> None:
    """The component in the repository is the step's own output (no hand edit to drift)."""
    current = release.read()
    assert (release.COMPONENT / "kustomization.yaml").read_text() == release.kustomization_text(current)
    assert (release.COMPONENT / "release.yaml").read_text() == release.config_map_text(current)
