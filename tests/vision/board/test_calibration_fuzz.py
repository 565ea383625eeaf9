"""Calibration files: any text gives a Calibration or a CalibrationError (issue 18 item 6); NaN and
infinity are refused (an ``Infinity`` once raised an OverflowError, a NaN column read no board at all).
2,000 examples by default; 100,000 under ``-m slow``."""

from __future__ import annotations

import copy
import json
import math
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.board import calibration as cal
from vision.render.scene import Camera, render, starting_spec

FAST = settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=100_000, deadline=None, suppress_health_check=list(HealthCheck))
_LITERAL = "@@literal@@"
# values a hand-edited or corrupted file may hold where a number belongs; the literals go in as text
BAD_VALUES: list[Any] = [
    f"{_LITERAL}NaN", f"{_LITERAL}Infinity", f"{_LITERAL}-Infinity", f"{_LITERAL}1e999",
    f"{_LITERAL}-1e999", 10**400, -(10**30), "x", None, [], {}, True, -1, 0, 1e308, [1.0], [[1, 2]],
]


@cache
def seed() -> dict[str, Any]:
    """A real calibration (of a rendered board) as its JSON object."""
    frame = render(starting_spec("paper"), size=(960, 540), view="rectified",
                   camera=Camera(tilt_deg=12, yaw_deg=4, roll_deg=3, fill=0.84), seed=1).image
    calib = cal.calibrate(frame)
    assert calib is not None
    return json.loads(json.dumps(calib.to_json()))


def _paths(obj: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``obj`` (keys and indexes down to the leaves)."""
    out = [at]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*at, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*at, i))
    return out


@st.composite
def calibration_texts(draw: st.DrawFn) -> str:
    data = json.loads(json.dumps(seed()))
    places = [p for p in _paths(data) if p]
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(places))
        parent = data
        for step in place[:-1]:
            parent = parent[step]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[place[-1]]
        else:
            parent[place[-1]] = copy.deepcopy(draw(st.sampled_from(BAD_VALUES)))  # BAD_VALUES stays as it is
        places = [p for p in _paths(data) if p]
        if not places:
            break
    text = json.dumps(data).replace(f'"{_LITERAL}', "").replace('NaN"', "NaN")
    for lit in ("Infinity", "1e999"):
        text = text.replace(f'{lit}"', lit)
    if draw(st.booleans()):  # and, sometimes, a byte-level edit
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=6)) + text[at + draw(st.integers(0, 6)) :]
    return text


texts = st.one_of(calibration_texts(), st.text(max_size=40))


def check(folder: Path, text: str) -> None:
    path = folder / "calibration.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        calib = cal.load(path)
    except cal.CalibrationError:
        return
    g = calib.geometry
    assert np.isfinite(g.homography).all()
    assert all(math.isfinite(c) for c in g.columns)
    assert math.isfinite(calib.border) and math.isfinite(calib.checker_radius)


def _run(runner: settings) -> None:
    """Run the harness; print how many examples it took (an undocumented exception fails the test)."""
    seen = [0]
    with tempfile.TemporaryDirectory() as folder:

        def counted(text: str) -> None:
            seen[0] += 1
            check(Path(folder), text)

        runner(given(texts)(counted))()
    print(f"calibration: {seen[0]} examples, 0 undocumented exceptions")


def test_a_calibration_file_raises_only_calibration_error() -> None:
    _run(FAST)


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_a_calibration_file_raises_only_calibration_error_100000() -> None:
    _run(SLOW)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_nan_and_infinity_are_refused(tmp_path: Path, literal: str) -> None:
    text = json.dumps(seed())
    first = seed()["columns"][0]
    path = tmp_path / "c.json"
    path.write_text(text.replace(json.dumps(first), literal, 1))
    assert literal in path.read_text()
    with pytest.raises(cal.CalibrationError, match="finite|not a number"):
        cal.load(path)


def test_the_seed_itself_loads(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps(seed()))
    assert len(cal.load(path).geometry.columns) == 12
