"""The stability gate (issue 4 item 5, STYLE.md 12): a reading only when the board has been still
with nothing over it for N frames; readings voted per point; every other frame says why."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.frames.motion import thumbnail
from vision.frames.stability import GateConfig, StabilityGate, vote
from vision.reading import DARK, LIGHT, BoardReading, DieReading, DieStatus, FrameStatus, PointReading
from vision.render.scene import Camera, random_spec, render, starting_spec
from vision.render.sequence import game_frames

SIZE = (320, 180)
CAM = Camera(tilt_deg=12, roll_deg=3)


def _reading(counts, dice=((3, DieStatus.FLAT),), **kw) -> BoardReading:
    pts = tuple(PointReading(s, (float(s), 1.0), c, n, 0.9) for s, (c, n) in enumerate(counts))
    return BoardReading(True, points=pts, dice=tuple(DieReading(v, (1.0, 2.0), st) for v, st in dice), **kw)


def test_thumbnail_is_small_grey() -> None:
    img = np.zeros((720, 1280, 3), np.uint8)
    t = thumbnail(img, 160)
    assert t.shape == (90, 160) and t.dtype == np.float32
    assert thumbnail(np.zeros((20, 30), np.uint8), 160).shape == (20, 30)


def test_still_board_settles_once_after_n_frames_hand_resets() -> None:
    a, b = random_spec(1, style="paper"), random_spec(2, style="paper")
    frames = list(game_frames([a, b], still=6, hand=3, size=SIZE, camera=CAM, seed=4))
    gate = StabilityGate(GateConfig(still_frames=4))
    out = []
    for f in frames:
        motion = gate.measure(f.image)
        truth = f.truth if motion.status is None else None
        out.append(gate.update(truth))
    statuses = [r.status for r in out]
    # position a: 6 still frames, settled exactly at the 4th
    assert statuses[:6] == [FrameStatus.OK] * 6
    assert [i for i, r in enumerate(out) if r.settled is not None] == [3, 3 + 3 + 3 + 3 + 1]
    # the hand frames are never ok (moving or occluded) and end the run
    assert all(s in (FrameStatus.MOVING, FrameStatus.OCCLUDED) for s in statuses[6:9])
    assert out[3].settled.counts() == frames[0].truth.counts()
    assert out[13].settled.counts() == frames[-1].truth.counts()
    assert out[13].still_count == 4 and not out[13].settled.occluded


def test_sensor_noise_is_not_motion_but_a_bump_is() -> None:
    spec = starting_spec("wood")
    gate = StabilityGate()
    base = render(spec, size=SIZE, camera=CAM, seed=1, noise=5.0, noise_seed=0).image
    gate.measure(base)
    for k in range(1, 4):
        m = gate.measure(render(spec, size=SIZE, camera=CAM, seed=1, noise=5.0, noise_seed=k).image)
        assert m.status is None and m.value < gate.config.motion_threshold
    bumped = cv2.warpAffine(base, np.float32([[1, 0, 6], [0, 1, 3]]), SIZE, borderMode=cv2.BORDER_REPLICATE)
    m = gate.measure(bumped)
    assert m.status == FrameStatus.MOVING and m.value > gate.config.motion_threshold


def test_too_dark_and_no_board_say_why_and_reset_the_run() -> None:
    gate = StabilityGate(GateConfig(still_frames=2))
    img = render(starting_spec("paper"), size=SIZE, view="rectified", seed=0, noise=0).image
    good = _reading([(LIGHT, 2)] + [(None, 0)] * 23)
    assert gate.update(good, image=img).status == FrameStatus.OK
    r = gate.update(BoardReading(False, status=FrameStatus.NO_BOARD), image=img)
    assert r.status == FrameStatus.NO_BOARD and r.still_count == 0
    assert gate.update(good, image=img).settled is None  # the run restarted
    assert gate.update(good, image=img).settled is not None
    dark = (img // 12).astype(np.uint8)
    assert gate.measure(dark).status == FrameStatus.TOO_DARK
    assert gate.update(None).status == FrameStatus.TOO_DARK
    occl = dataclasses.replace(good, occluded=True, status=FrameStatus.OCCLUDED)
    gate.measure(dark)
    gate.reset()
    assert gate.update(occl, image=img).status == FrameStatus.OCCLUDED


@pytest.mark.parametrize("status", [FrameStatus.TOO_MANY_CHECKERS, FrameStatus.OVEREXPOSED])
def test_a_misread_or_overexposed_reading_settles_nothing(status: FrameStatus) -> None:
    """More checkers than a set, or a field the light blew out, is said so and resets the run."""
    gate = StabilityGate(GateConfig(still_frames=2))
    img = render(starting_spec("paper"), size=SIZE, view="rectified", seed=0, noise=0).image
    good = _reading([(LIGHT, 2)] + [(None, 0)] * 23)
    bad = dataclasses.replace(good, status=status)
    assert gate.update(good, image=img).status == FrameStatus.OK
    r = gate.update(bad, image=img)
    assert r.status == status and r.settled is None and r.still_count == 0


def test_vote_takes_each_points_majority() -> None:
    base = [(LIGHT, 2), (DARK, 5)] + [(None, 0)] * 22
    odd = [(LIGHT, 3), (DARK, 5)] + [(None, 0)] * 21 + [(DARK, 1)]
    rs = [_reading(base), _reading(odd), _reading(base), _reading(base, dice=((3, DieStatus.FLAT),))]
    v = vote(rs)
    assert v.counts() == tuple(base)
    assert v.points[0].confidence == pytest.approx(0.75 * 0.9)
    assert v.points[1].confidence == pytest.approx(0.9)
    assert [d.value for d in v.dice] == [3]
    with pytest.raises(ValueError):
        vote([])


def test_vote_changes_within_a_run_are_emitted_repeats_are_not() -> None:
    gate = StabilityGate(GateConfig(still_frames=2, motion_threshold=None))
    img = np.full((90, 160, 3), 128, np.uint8)
    a = _reading([(LIGHT, 2)] + [(None, 0)] * 23)
    b = _reading([(LIGHT, 3)] + [(None, 0)] * 23)
    settled = [gate.update(x, image=img).settled for x in (a, a, a, b, b, b)]
    assert [s is not None for s in settled] == [False, True, False, False, True, False]
    assert settled[4].counts()[0] == (LIGHT, 3)


def test_for_stills_settles_every_frame() -> None:
    gate = StabilityGate(GateConfig.for_stills())
    a = _reading([(LIGHT, 2)] + [(None, 0)] * 23)
    imgs = [np.full((90, 160, 3), v, np.uint8) for v in (60, 200, 90)]
    assert all(gate.update(a, image=i).settled is not None for i in imgs)


def test_config_and_misuse_are_clear() -> None:
    with pytest.raises(ValueError):
        GateConfig(still_frames=0)
    with pytest.raises(ValueError):
        GateConfig(motion_threshold=-1)
    with pytest.raises(ValueError, match="measure"):
        StabilityGate().update(None)


def test_exposure_change_is_not_motion() -> None:
    """Auto-exposure or a cloud scales every pixel alike: not motion; a die moved is."""
    spec = starting_spec("paper")
    img = render(spec, size=SIZE, camera=CAM, seed=1, noise=2.0).image
    gate = StabilityGate()
    gate.measure(img)
    darker = cv2.convertScaleAbs(img, alpha=0.8, beta=-5)
    m = gate.measure(darker)
    assert m.status is None, m.value
    from vision.render.scene import DieSpec

    # one die landing on an otherwise unchanged board (under the new exposure) is motion
    landed = render(dataclasses.replace(spec, dice=(DieSpec(5),)), size=SIZE, camera=CAM, seed=1, noise=2.0)
    m = gate.measure(cv2.convertScaleAbs(landed.image, alpha=0.8, beta=-5))
    assert m.status == FrameStatus.MOVING and m.changed > gate.config.changed_pixels, m
    rolled = render(dataclasses.replace(random_spec(8, style="paper")), size=SIZE, camera=CAM, seed=1)
    assert gate.measure(rolled.image).status == FrameStatus.MOVING
