"""The pipeline wires source -> detector -> gate (DESIGN.md data flow): rendered game frames give one
settled reading per still position; a detector failing on a frame does not stop it; an image folder of
separate photos settles every photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.frames.pipeline import run_pipeline
from vision.frames.sources import MemorySource
from vision.frames.stability import GateConfig
from vision.reading import BoardReading, FrameStatus
from vision.render.scene import Camera, random_spec, render
from vision.render.sequence import game_frames

SIZE = (320, 180)


def _truth_detector(frames):
    """A perfect detector for rendered frames: looks the frame up by identity."""
    table = {id(f.image): f.truth for f in frames}
    calls = []

    def detect(image: np.ndarray) -> BoardReading:
        calls.append(id(image))
        return table[id(image)]

    return detect, calls


def test_rendered_game_settles_each_position_once() -> None:
    specs = [random_spec(s, style="tournament") for s in (1, 2, 3)]
    frames = list(game_frames(specs, still=5, hand=3, size=SIZE, camera=Camera(tilt_deg=10), seed=2))
    detect, calls = _truth_detector(frames)
    results = list(run_pipeline(MemorySource([f.image for f in frames]), detect, GateConfig(still_frames=3)))
    assert len(results) == len(frames)
    settled = [r.settled for r in results if r.settled is not None]
    assert [s.counts() for s in settled] == [sp.points for sp in specs]
    assert [s.dice for s in settled] == [f.truth.dice for f in frames if f.phase == "still"][::5]
    for r, f in zip(results, frames, strict=True):
        if f.phase == "hand":
            assert r.status in (FrameStatus.MOVING, FrameStatus.OCCLUDED) and r.settled is None
    # moving frames never reach the detector
    moving = [r for r in results if r.status == FrameStatus.MOVING]
    assert moving and len(calls) == len(frames) - len(moving)
    status, settled_reading = results[4]
    assert status == FrameStatus.OK and settled_reading is None


def test_detector_failure_is_a_status_not_a_crash() -> None:
    img = render(random_spec(0, style="paper"), size=SIZE, view="rectified", seed=0).image
    n = 0

    def flaky(image: np.ndarray) -> BoardReading:
        nonlocal n
        n += 1
        if n == 2:
            raise ValueError("corrupt frame\nsecond line")
        return render(random_spec(0, style="paper"), size=SIZE, view="rectified", seed=0).truth

    results = list(run_pipeline([img] * 5, flaky, GateConfig(still_frames=2)))
    assert [r.status for r in results] == [FrameStatus.OK, FrameStatus.NO_BOARD] + [FrameStatus.OK] * 3
    assert results[1].error == "ValueError: corrupt frame"
    assert [r.settled is not None for r in results] == [False, False, False, True, False]


def test_image_folder_of_photos_settles_every_photo(tmp_path: Path) -> None:
    truths = []
    for i in range(3):
        r = render(random_spec(i, style="wood"), size=SIZE, seed=i)
        cv2.imwrite(str(tmp_path / f"shot{i}.png"), r.image)
        truths.append(r.truth)
    (tmp_path / "broken.png").write_bytes(b"xx")
    seen = iter(truths)
    results = list(run_pipeline(str(tmp_path), lambda im: next(seen), GateConfig.for_stills()))
    assert [r.frame.name for r in results] == ["shot0.png", "shot1.png", "shot2.png"]
    assert [r.settled.counts() for r in results] == [t.counts() for t in truths]


def test_bad_frames_get_a_status_never_a_crash(tmp_path: Path) -> None:
    """Issue 4 "Bad input": black, blank, noise and wrong-sized frames, and a truncated file, through
    the pipeline with the real reader (when it exists): each frame says why it gave no reading."""
    import pytest

    pytest.importorskip("vision.reader", reason="vision.reader is not written yet")
    rng = np.random.default_rng(0)
    frames = {
        "a_black.png": np.zeros((360, 640, 3), np.uint8),
        "b_blank.png": np.full((360, 640, 3), 180, np.uint8),
        "c_noise.png": rng.integers(0, 256, (360, 640, 3), dtype=np.uint8),
        "d_tiny.png": np.full((20, 30, 3), 120, np.uint8),
    }
    for name, img in frames.items():
        cv2.imwrite(str(tmp_path / name), img)
    (tmp_path / "e_cut.jpg").write_bytes(cv2.imencode(".jpg", frames["c_noise.png"])[1].tobytes()[:500])
    results = list(run_pipeline(str(tmp_path), gate=GateConfig.for_stills()))
    assert [r.frame.name for r in results] == list(frames)
    assert results[0].status == FrameStatus.TOO_DARK
    for r in results[1:]:
        assert r.status in (FrameStatus.NO_BOARD, FrameStatus.TOO_DARK), (r.frame.name, r.status)
        assert r.settled is None and r.error is None
    # the same frames as a "video" (motion test on): sizes changing count as movement, never a crash
    statuses = [r.status for r in run_pipeline([f for f in frames.values()], gate=GateConfig(still_frames=2))]
    assert statuses[0] == FrameStatus.TOO_DARK and FrameStatus.OK not in statuses


def test_calibrated_detector_searches_once_and_again_after_a_bump() -> None:
    """The board is found once for a still camera and found again after the camera moved."""
    import pytest

    pytest.importorskip("vision.board.calibration", reason="vision.board.calibration is not written yet")
    from vision.frames.pipeline import CalibratedDetector

    spec = random_spec(1, style="paper")
    still = [render(spec, size=(640, 360), camera=Camera(tilt_deg=5), seed=1, noise_seed=k).image
             for k in range(4)]
    bumped = [render(spec, size=(640, 360), camera=Camera(tilt_deg=5, roll_deg=8, shift=(0.06, 0.03)), seed=1,
                     noise_seed=k).image for k in range(3)]
    det = CalibratedDetector(recheck_every=2)
    for img in still:
        det(img)
    assert det.calibrations == 1
    assert det.calibration is not None, "the reader found no board in a clean paper render"
    found = det.calibration
    for img in bumped:
        det(img)
    assert det.calibrations == 2 and det.calibration is not found


def test_gate_thresholds_hold_through_a_compressed_video(tmp_path: Path) -> None:
    """A rendered game written as an MJPEG video (compression noise on every frame) and read back:
    still frames stay still, hand frames are never ok, each position settles once."""
    from vision.frames.motion import thumbnail
    from vision.frames.sources import VideoFileSource

    specs = [random_spec(s, style="wood", variant=1) for s in (4, 5)]
    frames = list(game_frames(specs, still=6, hand=3, size=(480, 270), camera=Camera(tilt_deg=8), seed=9,
                              noise=3.0))
    path = tmp_path / "game.avi"
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (480, 270))
    for f in frames:
        vw.write(f.image)
    vw.release()
    thumbs = [thumbnail(f.image) for f in frames]

    def nearest_truth(image: np.ndarray) -> BoardReading:
        t = thumbnail(image)
        return frames[int(np.argmin([np.abs(t - u).mean() for u in thumbs]))].truth

    results = list(run_pipeline(VideoFileSource(path), nearest_truth, GateConfig(still_frames=3)))
    assert len(results) == len(frames)
    for i, (r, f) in enumerate(zip(results, frames, strict=True)):
        if f.phase == "still" and (i == 0 or frames[i - 1].phase == "still"):
            assert r.status == FrameStatus.OK, (r.frame.index, r.status, r.motion)
        else:  # a hand, or the first frame after it (it differs from the frame with the hand)
            assert r.status != FrameStatus.OK, (r.frame.index, r.status)
    settled = [r.settled.counts() for r in results if r.settled is not None]
    assert settled == [s.points for s in specs]


def _still_scene(style: str = "paper", size: tuple[int, int] = (960, 540)):
    """A rendered scene and a maker of its frames: fresh sensor noise and JPEG per frame."""
    import dataclasses

    spec = random_spec(3, style=style)

    def frame(s=spec, noise_seed: int = 0):
        return render(s, size=size, camera=Camera(tilt_deg=6, roll_deg=2), seed=3, noise_seed=noise_seed,
                      jpeg_quality=85)

    def moved(s):
        """One checker taken off the first stack of two or more and put on the first empty point."""
        pts = list(s.points)
        src = next(i for i, (_, n) in enumerate(pts) if n >= 2)
        dst = next(i for i, (c, _) in enumerate(pts) if c is None)
        colour, n = pts[src]
        pts[src], pts[dst] = (colour, n - 1), (colour, 1)
        return dataclasses.replace(s, points=tuple(pts)), src, dst

    return spec, frame, moved


def test_still_camera_reuses_the_reading_of_an_unchanged_board() -> None:
    """A frame of the same still scene (new sensor noise and JPEG) gives the last reading back without
    reading it; a light's flicker (4 % gain) too."""
    from vision.frames.motion import STILL_CHANGE
    from vision.frames.pipeline import CalibratedDetector

    spec, frame, _ = _still_scene()
    det = CalibratedDetector()
    first = det(frame(noise_seed=1).image)
    assert det.calibration is not None and first.board_found
    again = det(frame(noise_seed=2).image)
    assert again is first and det.reads == 1 and det.reused == 1
    assert det.change < STILL_CHANGE / 2  # noise stays well below the threshold
    flicker = np.clip(frame(noise_seed=3).image.astype(np.float32) * 1.04 + 2, 0, 255).astype(np.uint8)
    assert det(flicker) is first and det.reused == 2


def test_still_camera_reads_again_when_a_checker_moved() -> None:
    """One checker moved between frames: the frame is read again (in part: the places that changed)
    and the new counts are seen, as a full reading of the frame sees them (the places kept keep the
    confidences they were read with: tests/vision/frames/test_incremental.py)."""
    from vision.frames.motion import STILL_CHANGE
    from vision.frames.pipeline import CalibratedDetector
    from vision.reader import read_board

    spec, frame, moved = _still_scene()
    det = CalibratedDetector()
    before = det(frame(noise_seed=1).image)
    spec2, src, dst = moved(spec)
    after_img = frame(spec2, noise_seed=2)
    after = det(after_img.image)
    assert det.reads == 2 and det.reused == 0 and det.change > STILL_CHANGE
    full = read_board(after_img.image, det.calibration)
    assert after is not before and det.partial == 1
    assert (after.counts(), after.bar, after.off, after.dice, after.cube, after.status) == (
        full.counts(), full.bar, full.off, full.dice, full.cube, full.status)
    truth = {p.slot: p.count for p in after_img.truth.points}
    got = {p.slot: p.count for p in after.points}
    assert got[dst] == truth[dst] == 1 and got[src] == truth[src]


def test_still_camera_reads_again_after_max_reuse_and_not_when_off() -> None:
    from vision.frames.pipeline import CalibratedDetector

    _, frame, _ = _still_scene()
    images = [frame(noise_seed=k).image for k in range(4)]
    det = CalibratedDetector(max_reuse=2)
    for img in images:
        det(img)
    assert (det.reads, det.reused) == (2, 2)  # read, reused, reused, read again
    off = CalibratedDetector(reuse=False)
    for img in images[:2]:
        off(img)
    assert (off.reads, off.reused) == (2, 0)


@pytest.mark.slow
def test_region_change_separates_still_and_changed_real_frames() -> None:
    """The threshold on real frames (skipped without ../shared/data/boards-webcam): the photos that show
    one scene twice (identical labels, same size) stay below STILL_CHANGE unless something moved, and
    every two photos of one game whose labels differ are above it."""
    import itertools
    import json

    import pytest

    from vision.board.calibration import calibrate
    from vision.frames.motion import STILL_CHANGE, BoardThumbnail, region_change

    root = Path(__file__).resolve().parents[4] / "shared" / "data" / "boards-webcam"
    if not (root / "labels.jsonl").is_file():
        pytest.skip(f"{root} is absent")
    labels = [json.loads(line) for line in (root / "labels.jsonl").read_text().splitlines() if line.strip()]

    def key(lab: dict) -> str:
        return json.dumps([lab["rowA"], lab["rowB"], lab.get("dice"), lab.get("occluded")])

    images = {lab["image"]: cv2.imread(str(root / lab["image"])) for lab in labels}
    calibs: dict[str, object] = {}

    def calibrated(name: str):
        if name not in calibs:
            calibs[name] = calibrate(images[name])
        return calibs[name]

    still, changed = [], []
    for a, b in itertools.combinations(labels, 2):
        same = key(a) == key(b)
        if images[a["image"]].shape != images[b["image"]].shape:
            continue
        if not same and Path(a["image"]).parent != Path(b["image"]).parent:
            continue
        calib = calibrated(a["image"]) or calibrated(b["image"])
        if calib is None:
            continue
        thumb = BoardThumbnail(calib.geometry)
        v = region_change(thumb(images[a["image"]]), thumb(images[b["image"]]))
        (still if same else changed).append(v)
    # one scene twice: most pairs; pairs of the same labels from other games show another scene
    assert sum(v < STILL_CHANGE for v in still) >= 10
    assert sorted(still)[:10][-1] < STILL_CHANGE / 2
    assert len(changed) > 100 and min(changed) > 2 * STILL_CHANGE
