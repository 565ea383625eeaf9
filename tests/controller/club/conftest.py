"""The club's tests run against a real Mosquitto (tests/controller/club/broker.py)."""

from __future__ import annotations

import pytest

from tests.controller.club.broker import MISSING, start_broker


@pytest.fixture
def broker(tmp_path):
    b = start_broker(tmp_path / "broker")
    if b is None:
        pytest.skip(MISSING)
    yield b
    b.kill()
