"""Issue 19, point 8: the image's build. No image can be built here (no registry), so its form is
checked: multi-stage, the base pinned by digest, every runtime package pinned with a hash (and
the lock agrees with requirements.txt), nothing but the code and the lock in the build context,
an unprivileged user, and the image's package inventory written into it."""

from __future__ import annotations

import re

from libs.config import PROJECT_ROOT

DOCKERFILE = (PROJECT_ROOT / "deploy" / "Dockerfile").read_text()
LOCK = (PROJECT_ROOT / "requirements.lock").read_text()
DIGEST = re.compile(r"@sha256:[0-9a-f]{64}\b")


def _pins(text: str) -> dict[str, str]:
    found = re.findall(r"^([A-Za-z0-9_.\[\]-]+)==([^\s\\#]+)", text, re.M)
    return {name.split("[")[0].lower().replace("_", "-"): version for name, version in found}


def test_the_build_has_stages_on_a_base_pinned_by_digest() -> None:
    froms = re.findall(r"^FROM\s+(\S+)", DOCKERFILE, re.M)
    assert len(froms) >= 2 and all(f == "${PYTHON_IMAGE}" for f in froms)
    [base] = re.findall(r"^ARG PYTHON_IMAGE=(\S+)", DOCKERFILE, re.M)
    assert DIGEST.search(base) and not base.endswith(":latest")
    assert "COPY --from=build" in DOCKERFILE
    assert re.search(r"^USER 10001$", DOCKERFILE, re.M)  # the pods' runAsUser


def test_every_runtime_package_is_pinned_with_a_hash_and_matches_requirements() -> None:
    assert "--require-hashes" in DOCKERFILE and "requirements.lock" in DOCKERFILE
    entries = re.findall(r"^(\S+)==(\S+) \\\n\s+--hash=sha256:([0-9a-f]{64})$", LOCK, re.M)
    locked = {name: version for name, version, _ in entries}
    assert len(entries) == len(_pins(LOCK)) >= 30  # every entry has its hash
    direct = _pins((PROJECT_ROOT / "requirements.txt").read_text())
    assert all(locked.get(name) == version for name, version in direct.items()), "stale: regenerate the lock"


def test_the_build_context_is_only_the_code_and_the_lock() -> None:
    ignore = (PROJECT_ROOT / ".dockerignore").read_text().split()
    assert ignore[ignore.index("*") :][:4] == ["*", "!requirements.lock", "!libs/", "!services/"]
    copied = re.findall(r"^COPY (?!--from)(\S+)", DOCKERFILE, re.M)
    assert set(copied) == {"requirements.lock", "libs/", "services/"}


def test_the_image_lists_its_python_and_os_packages() -> None:
    assert "pip freeze > /opt/venv/packages.txt" in DOCKERFILE
    assert "dpkg-query -W" in DOCKERFILE
