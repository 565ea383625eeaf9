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


def shared_labels(name: str) -> list[dict]:
    """The labelled photos of ``../shared/data/<name>/labels.jsonl`` (one dict a line), read at collection
    time so that tests can be parametrised per photo; ``[]`` when the data is absent (the test's own
    ``shared_data`` call then skips it)."""
    import json

    path = SHARED_DATA / name / "labels.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def per_photo(name: str, xfails: dict[str, str], keep=lambda label: True) -> list:
    """pytest params, one per labelled photo of ``name`` that ``keep`` accepts, each id'd by its file
    name; the photos named in ``xfails`` are marked ``xfail(strict=True)`` with the reason given (the
    measured misreading), so a photo the reader learns turns the test red until its mark goes."""
    labels = [lab for lab in shared_labels(name) if keep(lab)]
    if not labels:
        return [pytest.param(None, id="data-absent")]
    return [
        pytest.param(lab, id=lab["image"],
                     marks=[pytest.mark.xfail(strict=True, reason=xfails[lab["image"]])]
                     if lab["image"] in xfails else [])
        for lab in labels
    ]
