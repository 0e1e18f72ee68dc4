"""Where the project keeps its services: every package ``services/<name>/`` with a ``root.py`` is
one. Knowing which services exist needs no import of them (migrations, the devstack, the kit)."""

from __future__ import annotations

from libs.config import PROJECT_ROOT

SERVICES_DIR = PROJECT_ROOT / "services"


def service_names() -> list[str]:
    """The services present, by folder (nothing imported): sorted names."""
    return sorted(
        p.name for p in SERVICES_DIR.iterdir() if (p / "__init__.py").is_file() and (p / "root.py").is_file()
    )
