"""``arcana release VERSION --digests FILE``: point the production overlay at a release, by digest.

It rewrites the overlay's release component (``deploy/k8s/overlays/production/release/``): every
image of its ``images:`` gets the digest FILE gives for its repository (the backend's tag becomes
VERSION), and the ConfigMap ``arcana-release`` gets VERSION with dots as dashes, the suffix of every
Job's name (``deploy/k8s/components/versioned-jobs``). There is no registry to ask here: the
operator gives what the push answered, in a file of either form:

- lines ``REPOSITORY[:TAG]@sha256:<64 hex>`` or ``REPOSITORY[:TAG] sha256:<64 hex>`` (what
  ``crane digest --full-ref IMAGE:TAG`` prints, or ``echo IMAGE:TAG $(crane digest IMAGE:TAG)``,
  or ``docker buildx imagetools inspect IMAGE:TAG --format '{{.Name}}@{{.Manifest.Digest}}'``);
  ``#`` starts a comment;
- the JSON ``docker buildx build --push --metadata-file FILE`` (or ``buildx bake``) writes:
  ``image.name`` (comma-separated names) and ``containerimage.digest``.

A version already released keeps its digest: releasing it again with another backend digest is
refused (the Jobs of that version exist with the other image; give the new build a new version).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from libs.config import PROJECT_ROOT

COMPONENT = PROJECT_ROOT / "deploy" / "k8s" / "overlays" / "production" / "release"
BACKEND = "arcana"  # the base's name of the image every Arcana process runs
DIGEST = re.compile(r"^sha256:[0-9a-f]{64}$")
VERSION = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$")  # a Docker tag short enough for Job names
_LINE = re.compile(r"^(?P<ref>\S+?)(?:@|\s+)(?P<digest>sha256:[0-9a-f]{64})$")
_DOCKER_HUB = ("docker.io/library/", "index.docker.io/library/", "docker.io/", "index.docker.io/")


Digests = dict[str, tuple[frozenset[str], str]]  # repository -> (the tags given, its digest)


class ReleaseError(Exception):
    """The release cannot be written as asked (the message says why)."""


@dataclass(frozen=True)
class Image:
    """One entry of the component's ``images:``: the base's ``name`` rendered as
    ``new_name:tag@digest``."""

    name: str
    new_name: str
    tag: str
    digest: str

    @property
    def reference(self) -> str:
        return f"{self.new_name}:{self.tag}@{self.digest}"


@dataclass(frozen=True)
class Release:
    version: str
    images: tuple[Image, ...]

    @property
    def job_suffix(self) -> str:
        return job_suffix(self.version)

    def image(self, name: str) -> Image:
        [found] = [i for i in self.images if i.name == name]
        return found


def job_suffix(version: str) -> str:
    """``0.2.0`` -> ``0-2-0``: what a Job's name ends with (a DNS label: lower case, dashes)."""
    if not VERSION.match(version):
        raise ReleaseError(f"version {version!r}: letters, digits, '.', '_', '-', at most 40")
    return re.sub(r"[._]", "-", version.lower())


def repository(reference: str) -> tuple[str, str | None]:
    """``registry:5000/a/b:tag`` -> (``registry:5000/a/b``, ``tag``), Docker Hub names written out
    in full (``redis`` is ``docker.io/library/redis``)."""
    name, tag = reference, None
    if ":" in reference.rsplit("/", 1)[-1]:
        name, tag = reference.rsplit(":", 1)
    for prefix in _DOCKER_HUB:
        if name.startswith(prefix):
            name = name[len(prefix) :]
            break
    else:
        if "/" in name and ("." in name.split("/")[0] or ":" in name.split("/")[0]):
            return name, tag  # a registry of its own
    return "docker.io/" + (name if "/" in name else "library/" + name), tag


def parse_digests(text: str) -> Digests:
    """Repository -> (its tags given, digest), from either form of the module's docstring."""
    if text.lstrip().startswith("{"):
        return _from_buildx(json.loads(text))
    found: Digests = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        matched = _LINE.match(line)
        if not matched:
            raise ReleaseError(f"line {number}: {raw.strip()!r} is not IMAGE[:TAG]@sha256:<64 hex>")
        _add(found, matched["ref"], matched["digest"])
    return found


def _from_buildx(metadata: dict[str, Any]) -> Digests:
    builds = [metadata] if "containerimage.digest" in metadata else list(metadata.values())
    found: Digests = {}
    for build in builds:
        if not isinstance(build, dict) or "containerimage.digest" not in build:
            raise ReleaseError("buildx metadata without containerimage.digest (was the image pushed?)")
        for name in str(build.get("image.name", "")).split(","):
            if name.strip():
                _add(found, name.strip(), build["containerimage.digest"])
    return found


def _add(found: Digests, reference: str, digest: str) -> None:
    if not DIGEST.match(digest):
        raise ReleaseError(f"{reference}: {digest!r} is not sha256:<64 hex>")
    repo, tag = repository(reference.split("@", 1)[0])
    tags, known = found.get(repo, (frozenset(), digest))
    if known != digest:
        raise ReleaseError(f"{repo}: two digests given ({known}, {digest})")
    found[repo] = (tags | {tag} if tag else tags, digest)


def read(component: Path = COMPONENT) -> Release:
    """The release the component names now."""
    kustomization = yaml.safe_load((component / "kustomization.yaml").read_text())
    [config] = [d for d in yaml.safe_load_all((component / "release.yaml").read_text()) if d]
    images = tuple(
        Image(i["name"], i["newName"], str(i["newTag"]), i.get("digest", "")) for i in kustomization["images"]
    )
    return Release(str(config["metadata"]["annotations"]["arcana.io/release"]), images)


def plan(current: Release, version: str, digests: Digests) -> Release:
    """The release ``version`` with ``digests``, or ``ReleaseError`` when an image has none, a
    digest names no image of the overlay, or ``version`` was released with another backend."""
    job_suffix(version)
    images, used = [], set()
    for image in current.images:
        repo = repository(image.new_name)[0]
        if repo not in digests:
            raise ReleaseError(f"no digest for {image.new_name} (image {image.name!r} of the overlay)")
        tags, digest = digests[repo]
        used.add(repo)
        images.append(replace(image, tag=_tag(image, version, tags), digest=digest))
    if unknown := set(digests) - used:
        raise ReleaseError(f"digests of images the overlay does not run: {', '.join(sorted(unknown))}")
    new = Release(version, tuple(images))
    if current.version == version and current.image(BACKEND).digest != new.image(BACKEND).digest:
        raise ReleaseError(
            f"version {version} is released with {current.image(BACKEND).digest}: a Job's image cannot "
            "change under the same name, so a new build needs a new version"
        )
    return new


def _tag(image: Image, version: str, tags: frozenset[str]) -> str:
    """The tag written beside the digest: the release's version for the backend, else the one
    given (the overlay's own when none or several are)."""
    wanted = version if image.name == BACKEND else image.tag
    if not tags or wanted in tags:
        return wanted
    if image.name == BACKEND:
        raise ReleaseError(
            f"{image.new_name}: the digest given is of tag {', '.join(sorted(tags))}, not {version}"
        )
    if len(tags) > 1:
        raise ReleaseError(f"{image.new_name}: which tag of {', '.join(sorted(tags))}?")
    [tag] = tags
    return tag


def write(release: Release, component: Path = COMPONENT) -> None:
    (component / "kustomization.yaml").write_text(kustomization_text(release))
    (component / "release.yaml").write_text(config_map_text(release))


_HEADER = """\
# Written by `arcana release {version} --digests FILE` (libs/ops/release.py): do not edit by hand.
# Every image by digest (a tag can be moved, a digest cannot); the tag stays beside it for people.
"""


def kustomization_text(release: Release) -> str:
    lines = [
        _HEADER.format(version=release.version).rstrip("\n"),
        "apiVersion: kustomize.config.k8s.io/v1alpha1",
        "kind: Component",
        "resources:",
        "  - release.yaml",
        "images:",
    ]
    for image in release.images:
        lines += [
            f"  - name: {image.name}",
            f"    newName: {image.new_name}",
            f'    newTag: "{image.tag}"',
            f"    digest: {image.digest}",
        ]
    return "\n".join(lines) + "\n"


def config_map_text(release: Release) -> str:
    return (
        _HEADER.format(version=release.version)
        + "# The suffix of every Job's name (components/versioned-jobs); kustomize drops this object.\n"
        "apiVersion: v1\n"
        "kind: ConfigMap\n"
        "metadata:\n"
        "  name: arcana-release\n"
        "  annotations:\n"
        '    config.kubernetes.io/local-config: "true"\n'
        f'    arcana.io/release: "{release.version}"\n'
        "data:\n"
        f'  version: "{release.job_suffix}"\n'
    )


def read_files(files: list[Path]) -> Digests:
    """Every file's digests together (a buildx metadata file for the backend, a lines file for the
    rest, say); a repository given two digests is refused."""
    merged: Digests = {}
    for path in files:
        try:
            text = path.read_text()
        except OSError as exc:
            raise ReleaseError(f"{path}: {exc.strerror}") from None
        for repo, (tags, digest) in parse_digests(text).items():
            for tag in tags or [""]:
                _add(merged, f"{repo}:{tag}" if tag else repo, digest)
    return merged


def main(version: str, digests_files: list[Path], component: Path = COMPONENT) -> str:
    """Write the release; what to print. ``ReleaseError`` when it cannot."""
    release = plan(read(component), version, read_files(digests_files))
    write(release, component)
    names = "\n".join(f"  {i.reference}" for i in release.images)
    return f"release {version} (Jobs *-{release.job_suffix}) in {component}:\n{names}"
