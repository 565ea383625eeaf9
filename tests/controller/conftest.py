"""Fixtures for the controller's tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def station_key_home(tmp_path_factory, monkeypatch):
    """Each test's station key (controller.station.journal_key, made at a station's first run) lives in a
    config folder of its own, never in the user's ``~/.config``; subprocesses inherit it."""
    home = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    return home
