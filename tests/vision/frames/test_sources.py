"""Frame sources (issue 4 item 6; STYLE.md 9 and 13): real files written in the test (a video, a
folder of images, a truncated JPEG) and a fake capture injected through the factory (the camera path
with no camera): newest-frame-wins, a vanishing camera reported and retried, the closed lifecycle."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.frames.sources import (
    CameraSource,
    ImageFolderSource,
    MemorySource,
    SourceClosed,
    SourceError,
    SourceSpecError,
    VideoFileSource,
    open_source,
)


def _img(v: int, size: tuple[int, int] = (64, 48)) -> np.ndarray:
    img = np.zeros((size[1], size[0], 3), np.uint8)
    img[:] = (v, 255 - v, (v * 7) % 256)
    return img


# --- image folders -------------------------------------------------------------------------------


def test_folder_in_name_order_skips_unreadable(tmp_path: Path) -> None:
    for n in (10, 2, 1):
        cv2.imwrite(str(tmp_path / f"frame{n}.png"), _img(n * 20))
    ok, jpg = cv2.imencode(".jpg", _img(99, (320, 240)))
    (tmp_path / "frame3.jpg").write_bytes(jpg.tobytes()[: len(jpg) // 2])  # truncated JPEG
    (tmp_path / "frame4.png").write_bytes(b"not an image at all")
    (tmp_path / "frame5.jpg").write_bytes(b"")
    (tmp_path / "frame6.jpg").write_bytes(jpg.tobytes()[:-300])  # decodes, grey bottom: still refused
    (tmp_path / "README.md").write_text("not a frame")
    events = []
    with ImageFolderSource(tmp_path, on_event=events.append) as src:
        frames = list(src)
    assert [f.name for f in frames] == ["frame1.png", "frame2.png", "frame10.png"]
    assert [f.index for f in frames] == [0, 1, 2]
    assert frames[1].image[0, 0].tolist() == _img(40)[0, 0].tolist()
    skipped = [e for e in events if e.kind == "skipped"]
    assert len(skipped) == 4
    assert "truncated" in skipped[0].message and "frame3.jpg" in skipped[0].message
    assert {p.name for p, _ in src.skipped} == {"frame3.jpg", "frame4.png", "frame5.jpg", "frame6.jpg"}
    assert events[-1].kind == "ended"


def test_folder_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no image"):
        ImageFolderSource(tmp_path)
    (tmp_path / "session1").mkdir()
    with pytest.raises(SourceError, match="subfolders .session1.: pass one of them"):
        ImageFolderSource(tmp_path)
    with pytest.raises(SourceError, match="not a folder"):
        ImageFolderSource(tmp_path / "missing")


# --- video files ---------------------------------------------------------------------------------


def _write_video(path: Path, n: int) -> None:
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert vw.isOpened()
    for i in range(n):
        vw.write(_img(i * 25))
    vw.release()


def test_video_file_every_frame_then_ends(tmp_path: Path) -> None:
    path = tmp_path / "game.avi"
    _write_video(path, 7)
    events = []
    with open_source(path, on_event=events.append) as src:
        assert isinstance(src, VideoFileSource)
        frames = list(src)
        assert src.ended and src.read() is None
    assert len(frames) == 7 and [f.index for f in frames] == list(range(7))
    assert frames[0].image.shape == (48, 64, 3)
    assert abs(int(frames[3].image[10, 10, 0]) - 75) < 12  # frames in order (MJPEG is lossy)
    assert events[-1].kind == "ended" and "7 frames" in events[-1].message


def test_video_errors(tmp_path: Path) -> None:
    with pytest.raises(SourceSpecError):
        open_source(tmp_path / "nope.mp4")
    bad = tmp_path / "bad.mp4"
    bad.write_bytes(b"\x00" * 100)
    with pytest.raises(SourceError, match="cannot open"):
        open_source(bad)


# --- the lifecycle -------------------------------------------------------------------------------


def test_close_is_idempotent_and_use_after_close_is_clear(tmp_path: Path) -> None:
    src = MemorySource([_img(1), _img(2)])
    assert src.read().index == 0
    src.close()
    src.close()
    assert src.closed
    with pytest.raises(SourceClosed, match="closed"):
        src.read()
    with pytest.raises(SourceClosed):
        iter(src).__next__()
    with pytest.raises(SourceClosed):
        with src:
            pass


def test_memory_source_loop_and_single_image(tmp_path: Path) -> None:
    src = MemorySource([_img(1), _img(2)], loop=True)
    got = [src.read().image[0, 0, 0] for _ in range(5)]
    assert got == [1, 2, 1, 2, 1]
    cv2.imwrite(str(tmp_path / "one.png"), _img(7))
    with open_source(tmp_path / "one.png") as one:
        assert len(list(one)) == 1
    with pytest.raises(SourceSpecError):
        open_source(3.5)  # type: ignore[arg-type]


# --- cameras through a fake capture ---------------------------------------------------------------


class FakeCapture:
    """A cv2.VideoCapture stand-in: serves numbered frames; ``fail`` makes reads fail (unplugged)."""

    opened_count = 0

    def __init__(self, device: object, plugged: threading.Event, period: float = 0.002) -> None:
        self.device = device
        self.plugged = plugged
        self.period = period
        self.props: dict[int, float] = {}
        self.n = 0
        self.released = False
        self.ok = plugged.is_set()
        FakeCapture.opened_count += 1

    def isOpened(self) -> bool:  # noqa: N802
        return self.ok

    def read(self):
        time.sleep(self.period)
        if not self.plugged.is_set():
            return False, None
        self.n += 1
        return True, _img(self.n % 256, (int(self.props.get(cv2.CAP_PROP_FRAME_WIDTH, 64)), 48))

    def release(self) -> None:
        self.released = True

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.props.get(prop, 0.0)


def test_camera_settings_and_newest_frame_wins() -> None:
    plugged = threading.Event()
    plugged.set()
    caps: list[FakeCapture] = []

    def factory(dev):
        caps.append(FakeCapture(dev, plugged))
        return caps[-1]

    with open_source(0, size=(80, 48), fps=30, capture_factory=factory) as cam:
        assert isinstance(cam, CameraSource)
        assert caps[0].props[cv2.CAP_PROP_FPS] == 30 and cam.actual_size == (80, 48)
        first = cam.read(timeout=2)
        time.sleep(0.1)  # a slow stage: the grabber keeps going and keeps only the newest frame
        second = cam.read(timeout=2)
        assert second.index > first.index + 5
        assert cam.dropped >= 5
        assert second.image.shape == (48, 80, 3)
        assert cam.read(timeout=2).index > second.index  # never the same frame twice
    assert caps[0].released


def test_camera_that_vanishes_is_reported_and_retried() -> None:
    plugged = threading.Event()
    plugged.set()
    events = []
    cam = CameraSource("/dev/video9", capture_factory=lambda d: FakeCapture(d, plugged),
                       retry_interval=0.02, lost_after=3, on_event=events.append)
    try:
        assert cam.read(timeout=2) is not None
        plugged.clear()  # unplugged
        deadline = time.monotonic() + 3
        while cam.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not cam.connected
        assert cam.read(timeout=0.05) is None  # no frame, no exception
        plugged.set()  # plugged back in
        frame = cam.read(timeout=3)
        assert frame is not None and cam.connected
    finally:
        cam.close()
    kinds = [e.kind for e in events]
    assert kinds[0] == "opened" and "lost" in kinds and "reconnected" in kinds
    assert kinds.index("lost") < kinds.index("reconnected")
    assert "check the cable" in events[kinds.index("lost")].message
    assert [e.kind for e in cam.poll_events()] == kinds and cam.poll_events() == []


def test_camera_absent_at_start_is_a_clear_error() -> None:
    plugged = threading.Event()  # never plugged
    with pytest.raises(SourceError, match="cannot be opened"):
        open_source("1", capture_factory=lambda d: FakeCapture(d, plugged))

    def broken(_d):
        raise RuntimeError("backend refused")

    with pytest.raises(SourceError, match="plugged in"):
        CameraSource(0, capture_factory=broken)


def test_close_from_another_thread_ends_iteration() -> None:
    plugged = threading.Event()
    plugged.set()
    cam = CameraSource(0, capture_factory=lambda d: FakeCapture(d, plugged, period=0.01))
    got = []
    threading.Timer(0.2, cam.close).start()
    for frame in cam:
        got.append(frame.index)
    assert got and cam.closed


def test_picamera_without_picamera2_is_a_clear_error() -> None:
    pytest.importorskip("cv2")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(SourceError, match="picamera2 is not installed"):
            open_source("picamera")
    else:  # pragma: no cover - only on a Pi
        pytest.skip("picamera2 is installed here; the opt-in hardware test covers it")


def test_picamera_adapter_with_a_fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Pi camera path through a stand-in for the picamera2 module (no Pi here)."""
    import sys
    import types

    calls: list[str] = []

    class FakePicamera2:
        def __init__(self, num: int) -> None:
            calls.append(f"open {num}")

        def create_video_configuration(self, main, controls):
            calls.append(f"config {main['size']} {main['format']} {controls}")
            return {"main": main}

        def configure(self, config) -> None:
            pass

        def start(self) -> None:
            calls.append("start")

        def capture_array(self, stream: str):
            return _img(9, (96, 64))

        def stop(self) -> None:
            calls.append("stop")

        def close(self) -> None:
            calls.append("close")

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    with open_source("picamera:1", size=(96, 64), fps=15) as cam:
        frame = cam.read(timeout=2)
        assert frame is not None and frame.image.shape == (64, 96, 3)
        assert cam.actual_size == (96, 64) and cam.description == "Pi camera 1"
    assert calls[:3] == ["open 1", "config (96, 64) RGB888 {'FrameRate': 15.0}", "start"]
    assert calls[-2:] == ["stop", "close"]
