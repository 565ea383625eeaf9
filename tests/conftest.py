"""Shared fixtures: where the third-party real data lives (never committed here; DESIGN.md "Real data")."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


def shared_data(name: str) -> Path:
    """Path to ``../shared/data/<name>``; skips the calling test with a clear message when absent."""
    path = SHARED_DATA / name
    if not path.is_dir():
        pytest.skip(f"real data {path} is absent: clone the project with ../shared beside it to run this")
    return path


@pytest.fixture
def shared_data_dir():
    """The ``shared_data`` function, as a fixture."""
    return shared_data
