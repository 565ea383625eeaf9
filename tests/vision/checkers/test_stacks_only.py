"""`count_stacks` reading only some points (the incremental reader's changed places): those points
read exactly as a reading of all 24 reads them, the others are the previous reading's."""

from __future__ import annotations

from vision.board.calibration import calibrate
from vision.board.view import FieldView
from vision.checkers.stacks import StackReading, count_stacks
from vision.render.scene import Camera, random_spec, render


def test_points_read_alone_read_as_in_a_full_reading() -> None:
    img = render(random_spec(7, style="wood"), size=(960, 540), camera=Camera(tilt_deg=5), seed=7).image
    calib = calibrate(img)
    assert calib is not None and calib.checker_radius > 0
    view = FieldView.of_frame(img, calib.geometry)
    full = count_stacks(view, calib.geometry, calib.checker_radius)
    assert any(s.count for s in full)
    stale = [StackReading(s.column, s.top, 0, None, 0.0) for s in full]
    for only in ({(0, True)}, {(5, False), (6, False)}, {(11, True), (3, False)}, set()):
        got = count_stacks(view, calib.geometry, calib.checker_radius, only=only, previous=stale)
        assert got == [full[i] if (s.column, s.top) in only else stale[i] for i, s in enumerate(full)]
    every = {(c, t) for c in range(12) for t in (True, False)}
    assert count_stacks(view, calib.geometry, calib.checker_radius, only=every, previous=stale) == full
    # without a previous reading (or a known radius) every point is read
    assert count_stacks(view, calib.geometry, calib.checker_radius, only={(0, True)}) == full
