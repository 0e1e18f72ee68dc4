"""gunicorn takes every module-level name of a ``--config python:`` module that matches one of its
settings: a name such as ``config`` (an imported module) there stops gunicorn before it serves."""

from __future__ import annotations

import importlib

import pytest
from gunicorn.config import Config


@pytest.mark.parametrize("module", ["libs.web.gunicorn_conf", "libs.gevent_conf"])
def test_every_setting_named_in_a_config_module_is_valid(module: str) -> None:
    cfg = Config()
    for name, value in vars(importlib.import_module(module)).items():
        if name in cfg.settings:
            cfg.set(name.lower(), value)  # raises on an invalid value, as gunicorn's loader does
    cfg.validate()
