"""gunicorn reads every module-level name of a ``python:`` config module that matches one of its
settings, and refuses to start when one is not a valid value (a module imported as ``config``
once stopped the web and the waits process at start: gunicorn's ``config`` is its config path)."""

from __future__ import annotations

from typing import Any

import pytest
from gunicorn.app.base import Application

CONFIG_MODULES = ("python:libs.web.gunicorn_conf", "python:libs.gevent_conf")


class _Probe(Application):  # type: ignore[misc]
    def init(self, parser: Any, opts: Any, args: Any) -> None:
        return None

    def load(self) -> None:
        return None


@pytest.mark.parametrize("location", CONFIG_MODULES)
def test_gunicorn_accepts_each_config_module(location: str) -> None:
    probe = _Probe.__new__(_Probe)
    probe.usage, probe.prog, probe.callable = None, None, None
    probe.load_default_config()
    probe.load_config_from_module_name_or_filename(location)  # raises on an invalid setting


def test_a_module_named_like_a_setting_is_refused(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "bad_gunicorn_conf.py").write_text("import json as config\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    probe = _Probe.__new__(_Probe)
    probe.usage, probe.prog, probe.callable = None, None, None
    probe.load_default_config()
    with pytest.raises(TypeError):
        probe.load_config_from_module_name_or_filename("python:bad_gunicorn_conf")
