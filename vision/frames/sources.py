"""Frame sources: cameras, a Raspberry Pi camera, video files, image folders and in-memory frames.

Every source has the same lifecycle (STYLE.md 13): iterate it (or call ``read``) for `Frame`s,
``close()`` it (idempotent; also a context manager); using it after ``close`` raises
`SourceClosed`. Hardware sits behind an injectable factory (STYLE.md 9): ``capture_factory`` builds the
``cv2.VideoCapture``-like object, so the camera paths are tested with a fake capture and no camera.

Live cameras use **newest-frame-wins** buffering: a background grabber thread keeps only the latest
frame, so a slow stage never builds a backlog (it skips frames instead; ``dropped`` counts them). A
camera that stops delivering frames is reported (a `SourceEvent` ``lost``), released and re-opened
every ``retry_interval`` seconds until it comes back (``reconnected``) or the source is closed: never
fatal. Files and folders are read in order, every frame, in the caller's thread; an unreadable image is
reported (``skipped``) and passed over; the end of a video or folder ends the iteration (``ended``).

Events are delivered to the optional ``on_event`` callback (called from the grabber thread for
cameras) and kept for ``poll_events()``.

Frames are ``numpy.uint8`` arrays of shape (H, W, 3), BGR (vision/__init__.py).

Example::

    with open_source("../shared/data/boards-webcam/frames/minta") as src:
        for frame in src:
            print(frame.index, frame.name, frame.image.shape)
"""

from __future__ import annotations

import collections
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from vision.errors import SourceClosed, SourceError, SourceSpecError
from vision.frames.images import decode_image, quiet_opencv

__all__ = [
    "CameraSource", "Frame", "FrameSource", "ImageFolderSource", "MemorySource", "SourceClosed",
    "SourceError", "SourceEvent", "VideoFileSource", "open_source", "IMAGE_SUFFIXES",
]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".ppm", ".pgm")


@dataclass(frozen=True)
class Frame:
    """One frame: ``image`` uint8 (H, W, 3) BGR; ``index`` its number in the source (0, 1, ...; for
    cameras it counts every grabbed frame, so gaps show frames skipped by newest-frame-wins);
    ``timestamp`` time.monotonic() seconds when it was grabbed; ``name`` the file name, if any."""

    image: np.ndarray
    index: int
    timestamp: float
    name: str | None = None


@dataclass(frozen=True)
class SourceEvent:
    """Something the operator should know: ``kind`` is ``opened``, ``lost``, ``reconnected``,
    ``skipped`` (an unreadable image) or ``ended``; ``message`` one line saying what happened."""

    kind: str
    message: str
    timestamp: float


class Capture(Protocol):
    """What the camera and video sources need of ``cv2.VideoCapture`` (a fake one satisfies it)."""

    def isOpened(self) -> bool: ...  # noqa: N802 -- OpenCV's names
    def read(self) -> tuple[bool, Any]: ...
    def release(self) -> None: ...
    def set(self, prop: int, value: float) -> bool: ...
    def get(self, prop: int) -> float: ...


EventCallback = Callable[[SourceEvent], None]


class FrameSource:
    """Base of every source: iteration, events, the closed state and the context manager."""

    #: one line naming the source, for messages
    description: str = "frame source"

    def __init__(self, on_event: EventCallback | None = None) -> None:
        self._closed = False
        self._on_event = on_event
        self._events: collections.deque[SourceEvent] = collections.deque(maxlen=256)
        self._events_lock = threading.Lock()

    # lifecycle -------------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release the source. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._release()

    def _release(self) -> None:
        """Subclass hook: free the device or file."""

    def _check_open(self) -> None:
        if self._closed:
            raise SourceClosed(f"{self.description} is closed; open a new source")

    def __enter__(self) -> FrameSource:
        self._check_open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # a forgotten source must not keep a camera or thread alive
        try:
            self.close()
        except Exception:  # noqa: BLE001 -- interpreter shutdown; nothing left to tell
            pass

    # frames ----------------------------------------------------------------------------------
    def read(self, timeout: float | None = None) -> Frame | None:
        """The next frame, or None when the source has ended (or, for a camera, when no new frame
        came within ``timeout`` seconds).

        :raises SourceClosed: when the source is closed.
        """
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        """Frames until the source ends or is closed (a live camera never ends by itself)."""
        self._check_open()
        while not self._closed:
            try:
                frame = self.read(timeout=0.5)
            except SourceClosed:  # closed by another thread between two frames: just stop
                return
            if frame is not None:
                yield frame
            elif self.ended:
                return

    @property
    def ended(self) -> bool:
        """True once a finite source has given its last frame."""
        return False

    # events ----------------------------------------------------------------------------------
    def _emit(self, kind: str, message: str) -> None:
        event = SourceEvent(kind, message, time.monotonic())
        with self._events_lock:
            self._events.append(event)
        if self._on_event is not None:
            try:
                self._on_event(event)
            except Exception:  # noqa: BLE001 -- a faulty callback must not kill the grabber thread
                pass  # the event is still kept for poll_events()

    def poll_events(self) -> list[SourceEvent]:
        """The events since the last call (oldest first), then forgets them."""
        with self._events_lock:
            out = list(self._events)
            self._events.clear()
        return out


# --- finite sources: read in the caller's thread -------------------------------------------------


class MemorySource(FrameSource):
    """Frames from memory: an iterable of images (uint8 (H, W, 3) BGR) -- rendered frames for the
    demo and the tests. ``loop=True`` repeats a finite sequence forever; ``fps`` paces ``read`` like a
    camera (None: as fast as asked)."""

    def __init__(
        self, frames: Iterable[np.ndarray], *, loop: bool = False, fps: float | None = None,
        on_event: EventCallback | None = None, description: str = "in-memory frames",
    ) -> None:
        super().__init__(on_event)
        self.description = description
        self._loop = loop
        self._frames: list[np.ndarray] | None = None
        if loop:
            self._frames = list(frames)
            if not self._frames:
                raise SourceSpecError("loop=True needs at least one frame")
        self._it: Iterator[np.ndarray] = iter(self._frames if self._frames is not None else frames)
        self._period = 1.0 / fps if fps else 0.0
        self._next_at = 0.0
        self._index = 0
        self._ended = False

    @property
    def ended(self) -> bool:
        return self._ended

    def read(self, timeout: float | None = None) -> Frame | None:
        self._check_open()
        if self._ended:
            return None
        if self._period:
            now = time.monotonic()
            if self._next_at > now:
                time.sleep(self._next_at - now)
            self._next_at = max(now, self._next_at) + self._period
        try:
            image = next(self._it)
        except StopIteration:
            if self._loop and self._frames:
                self._it = iter(self._frames)
                image = next(self._it)
            else:
                self._ended = True
                self._emit("ended", f"{self.description}: no more frames")
                return None
        frame = Frame(_check_image(image, self.description), self._index, time.monotonic())
        self._index += 1
        return frame


def _natural_key(path: Path) -> list[object]:
    """Sort key: names in order with their numbers compared as numbers (frame2 before frame10)."""
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", path.name)]


class ImageFolderSource(FrameSource):
    """The images of a folder (suffixes in ``IMAGE_SUFFIXES``), in natural name order; other files
    (a README, labels) are ignored; unreadable images are reported as ``skipped`` events and passed.

    :raises SourceError: when the folder does not exist or holds no image.
    """

    def __init__(self, folder: str | Path, *, on_event: EventCallback | None = None) -> None:
        super().__init__(on_event)
        self.folder = Path(folder)
        self.description = f"image folder {self.folder}"
        if not self.folder.is_dir():
            raise SourceError(f"{self.folder} is not a folder; pass a folder of images")
        self.paths = sorted(
            (p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file()),
            key=_natural_key,
        )
        if not self.paths:
            subs = sorted(p.name for p in self.folder.iterdir() if p.is_dir())
            named = ", ".join(subs[:3]) + (", ..." if len(subs) > 3 else "")
            hint = f"; it has {len(subs)} subfolders ({named}): pass one of them" if subs else ""
            raise SourceError(f"{self.folder} holds no image ({', '.join(IMAGE_SUFFIXES)}){hint}")
        self._pos = 0
        self._index = 0
        self.skipped: list[tuple[Path, str]] = []

    @property
    def ended(self) -> bool:
        return self._pos >= len(self.paths)

    def read(self, timeout: float | None = None) -> Frame | None:
        self._check_open()
        while self._pos < len(self.paths):
            path = self.paths[self._pos]
            self._pos += 1
            try:
                image = decode_image(path.read_bytes(), path.name)
            except OSError as exc:
                reason = str(exc) if isinstance(exc, SourceError) else f"{path.name}: {exc.strerror or exc}"
                self.skipped.append((path, reason))
                self._emit("skipped", f"skipped {reason}")
                continue
            frame = Frame(image, self._index, time.monotonic(), path.name)
            self._index += 1
            if self._pos == len(self.paths):
                self._emit("ended", f"{self.description}: all {len(self.paths)} images read")
            return frame
        return None


class VideoFileSource(FrameSource):
    """Every frame of a video file, in order; the end of the file ends the iteration cleanly.

    :raises SourceError: when the file is missing or OpenCV cannot open it.
    """

    def __init__(
        self, path: str | Path, *, capture_factory: Callable[[str], Capture] | None = None,
        on_event: EventCallback | None = None,
    ) -> None:
        super().__init__(on_event)
        self.path = Path(path)
        self.description = f"video {self.path}"
        if not self.path.is_file():
            raise SourceError(f"{self.path}: no such video file")
        factory = capture_factory or (lambda p: cv2.VideoCapture(p))
        with quiet_opencv():
            self._cap: Capture | None = factory(str(self.path))
        if not self._cap.isOpened():
            self._cap.release()
            self._cap = None
            raise SourceError(f"{self.path}: OpenCV cannot open this video; convert it to .mp4 or .avi")
        self.fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self._index = 0
        self._ended = False

    @property
    def ended(self) -> bool:
        return self._ended

    def read(self, timeout: float | None = None) -> Frame | None:
        self._check_open()
        if self._ended or self._cap is None:
            return None
        ok, image = self._cap.read()
        if not ok or image is None:
            self._ended = True
            self._emit("ended", f"{self.description}: end of video after {self._index} frames")
            return None
        frame = Frame(_check_image(image, self.description), self._index, time.monotonic())
        self._index += 1
        return frame

    def _release(self) -> None:
        cap, self._cap = getattr(self, "_cap", None), None
        if cap is not None:
            cap.release()


# --- live cameras: a grabber thread, newest frame wins ---------------------------------------------


class CameraSource(FrameSource):
    """A live camera: an index (0, 1, ...) or a device path (``/dev/video0``) through
    ``cv2.VideoCapture``, or any capture the ``capture_factory`` builds (the Pi camera adapter, a fake
    in tests). ``size`` (width, height) pixels and ``fps`` are requested from the device (it may pick
    the nearest it supports; ``actual_size`` says what it gave).

    A background thread grabs frames continuously and keeps only the newest; ``read`` returns the
    newest frame not returned before, waiting up to ``timeout`` seconds. After ``lost_after``
    consecutive failed grabs the camera is reported ``lost``, released and re-opened every
    ``retry_interval`` seconds until it is back (``reconnected``).

    :raises SourceError: when the camera cannot be opened at all at start (a camera that vanishes
        later is retried, not raised).
    """

    def __init__(
        self, device: int | str = 0, *, size: tuple[int, int] | None = None, fps: float | None = None,
        capture_factory: Callable[[int | str], Capture] | None = None, retry_interval: float = 1.0,
        lost_after: int = 5, on_event: EventCallback | None = None, description: str | None = None,
    ) -> None:
        super().__init__(on_event)
        self.device = device
        self.description = description or f"camera {device}"
        self.size, self.fps = size, fps
        self._factory = capture_factory or (lambda d: cv2.VideoCapture(d))
        self.retry_interval, self.lost_after = retry_interval, lost_after
        self.dropped = 0
        self.actual_size: tuple[int, int] | None = None
        self._cond = threading.Condition()
        self._latest: Frame | None = None
        self._returned = -1
        self._stop = threading.Event()
        self._cap: Capture | None = self._open()
        if self._cap is None:
            raise SourceError(
                f"{self.description} cannot be opened; check it is plugged in, or pass another index"
            )
        self._emit("opened", f"{self.description} opened at {self.actual_size}")
        self._thread = threading.Thread(target=self._grab_loop, name=f"tavla-grab-{device}", daemon=True)
        self._thread.start()

    def _open(self) -> Capture | None:
        try:
            with quiet_opencv():
                cap = self._factory(self.device)
        except Exception:  # noqa: BLE001 -- a backend refusing a device is "not there", retried later
            return None
        if not cap.isOpened():
            cap.release()
            return None
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, float(self.size[0]))
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, float(self.size[1]))
        if self.fps is not None:
            cap.set(cv2.CAP_PROP_FPS, float(self.fps))
        w, h = int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)), int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT))
        self.actual_size = (w, h) if w and h else self.size
        return cap

    def _grab_loop(self) -> None:
        index = 0
        failures = 0
        while not self._stop.is_set():
            cap = self._cap
            if cap is None:  # lost: try to re-open
                if self._stop.wait(self.retry_interval):
                    return
                cap = self._open()
                if cap is None:
                    continue
                self._cap = cap
                failures = 0
                self._emit("reconnected", f"{self.description} is back at {self.actual_size}")
            try:
                ok, image = cap.read()
            except Exception:  # noqa: BLE001 -- a driver error is a failed grab like any other
                ok, image = False, None
            if not ok or image is None or not isinstance(image, np.ndarray) or image.size == 0:
                failures += 1
                if failures >= self.lost_after:
                    self._emit("lost", f"{self.description} stopped sending frames; retrying every "
                               f"{self.retry_interval:g} s (check the cable)")
                    with self._cond:
                        self._cap = None
                    cap.release()
                else:
                    self._stop.wait(0.01)
                continue
            failures = 0
            if image.ndim == 2:
                image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
            frame = Frame(image, index, time.monotonic())
            index += 1
            with self._cond:
                if self._latest is not None and self._latest.index > self._returned:
                    self.dropped += 1  # never read: the newest frame wins
                self._latest = frame
                self._cond.notify_all()

    @property
    def connected(self) -> bool:
        """True while the camera delivers frames (False between ``lost`` and ``reconnected``)."""
        return self._cap is not None

    def read(self, timeout: float | None = None) -> Frame | None:
        self._check_open()
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while not self._closed:
                latest = self._latest
                if latest is not None and latest.index > self._returned:
                    self._returned = latest.index
                    return latest
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return None
                self._cond.wait(0.1 if remaining is None else min(remaining, 0.1))
        return None  # closed by another thread while waiting: the iteration simply ends

    def _release(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        thread = getattr(self, "_thread", None)
        if thread is not None and threading.current_thread() is not thread:
            thread.join(timeout=2.0)
        cap, self._cap = getattr(self, "_cap", None), None
        if cap is not None:
            cap.release()


class PiCameraCapture:
    """A ``cv2.VideoCapture``-like adapter over ``picamera2`` (imported lazily: it is an optional
    extra that exists only on a Raspberry Pi). ``size`` (width, height) pixels, ``fps`` frames/s.

    :raises SourceError: when picamera2 is not installed.
    """

    def __init__(self, camera_num: int = 0, size: tuple[int, int] = (1280, 720), fps: float | None = None):
        Picamera2 = _picamera2()  # noqa: N806 -- the library's class name
        self._size = size
        self._cam = Picamera2(camera_num)
        controls = {"FrameRate": float(fps)} if fps else {}
        # "RGB888" in libcamera's naming is stored B, G, R in memory: exactly OpenCV's BGR order.
        config = self._cam.create_video_configuration(
            main={"size": size, "format": "RGB888"}, controls=controls
        )
        self._cam.configure(config)
        self._cam.start()
        self._open = True

    def isOpened(self) -> bool:  # noqa: N802
        return self._open

    def read(self) -> tuple[bool, Any]:
        try:
            return True, self._cam.capture_array("main")
        except Exception:  # noqa: BLE001 -- report as a failed grab; CameraSource retries
            return False, None

    def release(self) -> None:
        if self._open:
            self._open = False
            try:
                self._cam.stop()
            finally:
                self._cam.close()

    def set(self, prop: int, value: float) -> bool:
        return False  # size and rate are fixed at configure time

    def get(self, prop: int) -> float:
        if prop == cv2.CAP_PROP_FRAME_WIDTH:
            return float(self._size[0])
        if prop == cv2.CAP_PROP_FRAME_HEIGHT:
            return float(self._size[1])
        return 0.0


def _picamera2() -> Any:
    """picamera2's ``Picamera2`` class, imported on first use.

    :raises SourceError: when picamera2 is not installed.
    """
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]
    except ImportError as exc:
        raise SourceError(
            "picamera2 is not installed: on a Raspberry Pi run `sudo apt install python3-picamera2` "
            "(or pip install 'tavla[picamera]'), or use a USB camera index"
        ) from exc
    return Picamera2


def _check_image(image: Any, where: str) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise SourceError(f"{where}: a frame is not a uint8 image array")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise SourceError(f"{where}: a frame has {image.shape[2]} channels; expected 3 (BGR)")
    return image


def open_source(
    spec: int | str | Path | Iterable[np.ndarray] | FrameSource,
    *,
    size: tuple[int, int] | None = None,
    fps: float | None = None,
    capture_factory: Callable[[Any], Capture] | None = None,
    on_event: EventCallback | None = None,
    retry_interval: float = 1.0,
) -> FrameSource:
    """Open whatever ``spec`` names:

    * an ``int`` or a string of digits (``0``, ``"1"``) -- a camera index (`CameraSource`);
    * a device path (``/dev/video0``) -- a camera (`CameraSource`);
    * ``"picamera"`` or ``"picamera:N"`` -- the Raspberry Pi camera module N through picamera2;
    * a folder -- its images in name order (`ImageFolderSource`);
    * a video file -- its frames (`VideoFileSource`); a single image file -- that one frame;
    * an iterable of images, or an open `FrameSource` -- passed through (`MemorySource`).

    ``size`` (width, height) pixels and ``fps`` apply to cameras.

    :raises SourceSpecError: when ``spec`` names nothing that exists (a ``ValueError`` too).
    :raises SourceError: when it exists but cannot be opened.
    """
    if isinstance(spec, FrameSource):
        return spec
    if isinstance(spec, bool):
        raise SourceSpecError(f"{spec!r} is not a source")
    if isinstance(spec, int) or (isinstance(spec, str) and spec.strip().isdigit()):
        return CameraSource(int(spec), size=size, fps=fps, capture_factory=capture_factory,
                            on_event=on_event, retry_interval=retry_interval)
    if isinstance(spec, str) and spec.startswith("picamera"):
        num = int(spec.partition(":")[2] or 0)
        if capture_factory is None:
            _picamera2()  # fail now with the install hint, not later as "cannot be opened"
        factory = capture_factory or (lambda _d: PiCameraCapture(num, size or (1280, 720), fps))
        return CameraSource(num, size=None, capture_factory=factory, on_event=on_event,
                            retry_interval=retry_interval, description=f"Pi camera {num}")
    if isinstance(spec, str | Path):
        path = Path(spec)
        if str(spec).startswith("/dev/"):
            return CameraSource(str(spec), size=size, fps=fps, capture_factory=capture_factory,
                                on_event=on_event, retry_interval=retry_interval)
        if path.is_dir():
            return ImageFolderSource(path, on_event=on_event)
        if path.is_file():
            if path.suffix.lower() in IMAGE_SUFFIXES:
                image = decode_image(path.read_bytes(), path.name)
                return MemorySource([image], on_event=on_event, description=f"image {path}")
            return VideoFileSource(path, capture_factory=capture_factory, on_event=on_event)
        raise SourceSpecError(
            f"{spec}: no such camera, video or folder; pass a camera index (0), a video file or a folder"
        )
    if isinstance(spec, Iterable):
        return MemorySource(spec, on_event=on_event)
    raise SourceSpecError(f"{spec!r} is not a source; pass a camera index, a video file or a folder")
