"""The calibrated reading's stage breakdown (bench/reader_stages.py)."""

from __future__ import annotations

import functools

import pytest

import vision.reader as reader
from bench.reader_stages import OTHER, STAGES, stage_ms
from vision.board.calibration import calibrate
from vision.render.scene import random_spec, render


@pytest.fixture(scope="module")
def call() -> functools.partial[object]:
    img = render(random_spec(0, style="paper"), size=(1280, 720), seed=0).image
    calib = calibrate(img)
    assert calib is not None
    return functools.partial(reader.read_board, img, calib)


def test_stages_add_up_to_the_reading(call: functools.partial[object]) -> None:
    ms = stage_ms([call], repeats=1)
    assert set(ms) == {label for label, _ in STAGES} | {OTHER, "total"}
    total = ms.pop("total")
    assert total > 0
    assert sum(ms.values()) == pytest.approx(total)
    # the stacks are always counted on a calibrated board: their stage takes time
    assert ms[STAGES[0][0]] > 0


def test_reader_left_as_it_was(call: functools.partial[object]) -> None:
    before = {n: getattr(reader, n) for _, names in STAGES for n in names}
    stage_ms([call], repeats=1)
    assert {n: getattr(reader, n) for n in before} == before
