"""Board layout and camera model for the renderer (`vision.render.scene`): where everything lies.

Two coordinate frames:

* **board units** -- the canonical rectified board: the outer edge of the board (frame included) runs
  from ``(0, 0)`` to ``(BOARD_W, board_h)`` with ``BOARD_W = 1000``; x to the right, y down. Slots
  follow DESIGN.md: 0-11 along the bottom edge right to left, 12-23 along the top edge left to right.
* **canvas pixels** -- the image the board is drawn on (a similarity of board units).

The camera (`Camera`) is a pinhole looking at the board plane; the board-to-image map is therefore a
homography (Hartley & Zisserman, "Multiple View Geometry", ch. 2, planar homography of a world plane).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.errors import RenderError

BOARD_W = 1000.0

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Layout:
    """The board's parts in board units (see module docstring).

    ``field`` is the playing area inside the frame (bar included); ``bar`` the bar's x-extent or None
    (paper boards have none); ``trays`` the off trays as (rect, side) with side ``"left"``/``"right"``;
    ``point_w``/``point_h`` the size of one point's triangle; ``checker_d`` a checker's diameter.
    """

    style: str
    board_h: float
    field: Rect
    bar: tuple[float, float] | None
    trays: tuple[tuple[Rect, str], ...]
    point_w: float
    point_h: float
    checker_d: float

    @property
    def outer(self) -> Rect:
        return (0.0, 0.0, BOARD_W, self.board_h)

    def slot_column(self, slot: int) -> tuple[float, float, int]:
        """``(x, y_base, direction)`` of slot 0-23: the column centre x, the y of the point's base (the
        frame edge) and +1 when the point grows downward (top row), -1 upward (bottom row)."""
        if not 0 <= slot <= 23:
            raise RenderError(f"slot {slot} is outside 0-23")
        fx0, fy0, fx1, fy1 = self.field
        bar_w = 0.0 if self.bar is None else self.bar[1] - self.bar[0]
        if slot < 12:  # bottom row, right to left
            col = slot
            x = fx1 - (col + 0.5) * self.point_w - (bar_w if col >= 6 else 0.0)
            return x, fy1, -1
        col = slot - 12  # top row, left to right
        x = fx0 + (col + 0.5) * self.point_w + (bar_w if col >= 6 else 0.0)
        return x, fy0, 1

    def point_centre(self, slot: int) -> tuple[float, float]:
        """Centre of the slot's checker column (half-way along the triangle), board units."""
        x, yb, d = self.slot_column(slot)
        return x, yb + d * self.point_h / 2

    def point_quad(self, slot: int) -> np.ndarray:
        """The slot's region (its triangle's bounding rectangle, base to tip), shape (4, 2) float64."""
        x, yb, d = self.slot_column(slot)
        hw = self.point_w / 2
        yt = yb + d * self.point_h
        return np.array([[x - hw, yb], [x + hw, yb], [x + hw, yt], [x - hw, yt]], dtype=np.float64)

    def half_x(self, side: str) -> tuple[float, float]:
        """x-extent of the left or right half of the playing area (bar excluded), board units."""
        fx0, _, fx1, _ = self.field
        if self.bar is None:
            mid = (fx0 + fx1) / 2
            return (fx0, mid) if side == "left" else (mid, fx1)
        return (fx0, self.bar[0]) if side == "left" else (self.bar[1], fx1)


def layout_for(style: str) -> Layout:
    """The layout of a ``"paper"``, ``"wood"`` or ``"tournament"`` board.

    Proportions follow the boards in ../shared/data: paper boards (boards-webcam) have a thin frame
    and no bar or trays; wooden and tournament boards have a bar and a tray on each side.

    :raises RenderError: (a ``ValueError``) for an unknown style.
    """
    if style == "paper":
        board_h = 0.70 * BOARD_W
        frame = 0.045 * BOARD_W
        field = (frame, frame, BOARD_W - frame, board_h - frame)
        pw = (field[2] - field[0]) / 12
        ph = 0.42 * (field[3] - field[1])
        return Layout(style, board_h, field, None, (), pw, ph, 0.82 * pw)
    if style in ("wood", "tournament"):
        board_h = 0.72 * BOARD_W
        frame = 0.028 * BOARD_W
        tray = 0.075 * BOARD_W
        bar = 0.055 * BOARD_W
        fx0, fx1 = frame + tray + frame * 0.6, BOARD_W - frame - tray - frame * 0.6
        field = (fx0, frame, fx1, board_h - frame)
        pw = (fx1 - fx0 - bar) / 12
        mid = (fx0 + fx1) / 2
        trays = (
            ((frame, frame, frame + tray, board_h - frame), "left"),
            ((BOARD_W - frame - tray, frame, BOARD_W - frame, board_h - frame), "right"),
        )
        ph = 0.40 * (field[3] - field[1])
        return Layout(style, board_h, field, (mid - bar / 2, mid + bar / 2), trays, pw, ph, 0.9 * pw)
    raise RenderError(f"unknown board style {style!r}: use 'paper', 'wood' or 'tournament'")


@dataclass(frozen=True)
class Camera:
    """Where the camera looks from, relative to straight down on the board's centre.

    ``tilt_deg``: rotation about the board's horizontal axis (0 = straight down; 20-35 is a camera on
    a stand at the side); ``yaw_deg``: about the board's vertical axis; ``roll_deg``: rotation in the
    image plane (90 or -90 gives a portrait board, the long side vertical); ``fill``: fraction of the
    image's limiting side the board spans (0-1); ``shift``: board centre offset as a fraction of the
    image size (x, y); ``focal``: focal length in units of the board width (smaller = wider angle,
    stronger perspective).
    """

    tilt_deg: float = 0.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    fill: float = 0.86
    shift: tuple[float, float] = (0.0, 0.0)
    focal: float = 1.4

    @classmethod
    def random(cls, rng: np.random.Generator, portrait: bool = False) -> Camera:
        """A plausible camera over a table: tilt up to 30 deg, small yaw and roll (portrait adds 90)."""
        roll = float(rng.uniform(-8, 8)) + (90.0 if portrait else 0.0) * (1 if rng.random() < 0.5 else -1)
        return cls(
            tilt_deg=float(rng.uniform(-30, 30)),
            yaw_deg=float(rng.uniform(-10, 10)),
            roll_deg=roll,
            fill=float(rng.uniform(0.72, 0.9)),
            shift=(float(rng.uniform(-0.04, 0.04)), float(rng.uniform(-0.04, 0.04))),
            focal=float(rng.uniform(1.1, 2.0)),
        )


def camera_homography(
    camera: Camera, board_h: float, size: tuple[int, int], extent: Rect | None = None
) -> np.ndarray:
    """The 3x3 homography (float64) taking board units to pixels of an image of ``size`` (w, h).

    The board's outer rectangle is scaled so its projection spans ``camera.fill`` of the image and is
    centred (plus ``camera.shift``). ``extent`` is unused by the projection itself; it is accepted so
    callers can document what region they warp.
    """
    del extent
    w, h = size
    cx, cy = BOARD_W / 2, board_h / 2
    t, yw, r = (math.radians(a) for a in (camera.tilt_deg, camera.yaw_deg, camera.roll_deg))
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    ry = np.array([[math.cos(yw), 0, math.sin(yw)], [0, 1, 0], [-math.sin(yw), 0, math.cos(yw)]])
    rz = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    rot = rz @ ry @ rx
    dist = camera.focal * BOARD_W
    corners = np.array([[0, 0], [BOARD_W, 0], [BOARD_W, board_h], [0, board_h]], dtype=np.float64)

    def project(pts: np.ndarray) -> np.ndarray:
        p3 = np.column_stack([pts[:, 0] - cx, pts[:, 1] - cy, np.zeros(len(pts))]) @ rot.T
        z = p3[:, 2] + dist
        return np.column_stack([p3[:, 0] / z, p3[:, 1] / z]) * dist

    proj = project(corners)
    span = proj.max(axis=0) - proj.min(axis=0)
    scale = camera.fill * min(w / span[0], h / span[1])
    centre = (proj.max(axis=0) + proj.min(axis=0)) / 2
    dst = (proj - centre) * scale + np.array([w / 2 + camera.shift[0] * w, h / 2 + camera.shift[1] * h])
    import cv2  # local: keeps this module importable for pure geometry checks

    return cv2.getPerspectiveTransform(corners.astype(np.float32), dst.astype(np.float32)).astype(np.float64)


def rectified_homography(board_h: float, size: tuple[int, int], fill: float = 0.9) -> np.ndarray:
    """Similarity (3x3 float64) from board units to a top view of ``size`` (w, h), board centred."""
    w, h = size
    s = fill * min(w / BOARD_W, h / board_h)
    return np.array(
        [[s, 0, (w - s * BOARD_W) / 2], [0, s, (h - s * board_h) / 2], [0, 0, 1]], dtype=np.float64
    )


def apply_h(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Map points of shape (N, 2) through a 3x3 homography; returns (N, 2) float64."""
    p = np.asarray(pts, dtype=np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ hom.T
    return q[:, :2] / q[:, 2:3]
