"""Where the renderer (`vision.render.scene`) puts things on the board, in board units (see
`vision.render.geometry`): checker stacks, the bar, borne-off checkers, the cube and the dice."""

from __future__ import annotations

import math

import numpy as np

from vision.reading import LIGHT, DieStatus
from vision.render.geometry import BOARD_W, Layout
from vision.render.spec import BoardSpec, DieSpec, RenderError

__all__ = ["bar_positions", "cube_xy", "die_xy", "off_positions", "stack_positions"]

def stack_positions(lay: Layout, slot: int, count: int, pile: str = "layer") -> list[tuple[float, float]]:
    """Centres of ``count`` checkers on ``slot`` in drawing order (board units).

    The first five stand in a column from the point's base. With ``pile="layer"`` the rest are piled
    as a pyramid, the way players stack a tall point: four over the gaps of the first five, three over
    those, then two and one (5+4+3+2+1 = 15), each layer nudged sideways a little as hands leave it;
    with ``pile="beside"`` the sixth to tenth form a second column leaning beside the first (half over
    the neighbouring point, towards the middle of its half) and the eleventh to fifteenth over the
    seam between those two columns."""
    x, yb, d = lay.slot_column(slot)
    cd = lay.checker_d
    step = min(cd, lay.point_h * 1.2 / 5)
    out = []
    if pile == "layer":
        sizes, nudge = (5, 4, 3, 2, 1), (0.0, 0.06, 0.2, -0.2, 0.1)
        k = 0
        for layer, n in enumerate(sizes):
            for i in range(n):
                if k == count:
                    return out
                along = (i + 0.5 + 0.5 * layer) * step
                out.append((x + nudge[layer] * cd, yb + d * (along + cd * 0.04)))
                k += 1
        return out
    # lean towards the middle of the half the point lies in, never over the frame or the bar
    half = lay.half_x("right" if x > (lay.field[0] + lay.field[2]) / 2 else "left")
    toward = 1.0 if x < (half[0] + half[1]) / 2 else -1.0
    for k in range(count):
        col, i = divmod(k, 5)
        dx, da = ((0.0, 0.0), (0.55, 0.5), (0.27, 0.75))[col]
        out.append((x + toward * dx * cd, yb + d * ((i + 0.5 + da * (col > 0)) * step + cd * 0.04)))
    return out


def bar_positions(lay: Layout, colour: str, count: int, home: str) -> list[tuple[float, float]]:
    """Centres of ``count`` hit checkers of ``colour`` (board units): light's on the upper half of the
    bar, dark's on the lower (a convention of this renderer; readers must not rely on it), closing up
    when many; on a paper board (no bar) on the centre line between the two halves."""
    fx0, fy0, fx1, fy1 = lay.field
    mx = (fx0 + fx1) / 2
    my = (fy0 + fy1) / 2
    cd = lay.checker_d
    sign = -1 if colour == LIGHT else 1
    # a long row of hit checkers closes up (overlapping) rather than run off the board
    step = min(cd * 0.9, (my - fy0 - cd * 1.3) / max(1, count - 1)) if count > 1 else cd * 0.9
    return [(mx, my + sign * (cd * 0.75 + k * step)) for k in range(count)]


# Flat borne-off checkers in a row lie at most one diameter apart and at least this much of one
# (closer, a neighbour would hide more than a third of a checker's rim).
_FLAT_STEP_MIN = 0.6


def off_positions(
    lay: Layout, colour: str, count: int, home: str, pose: str = "edge"
) -> list[tuple[float, float, bool]]:
    """Where borne-off checkers lie: ``(x, y, on_edge)``, board units, in drawing order.

    On boards with trays they lie in the home side's tray (light in its bottom half, dark in its top
    half, from the tray's end towards its middle): with ``pose="edge"`` standing on edge in a row (the
    tournament way), with ``pose="flat"`` as a row of discs, touching or, when many, overlapping a
    little. On a board without trays (paper) they lie flat on the table beside the home board, in two
    rows of discs side by side, whatever ``pose``.

    :raises RenderError: when ``count`` flat checkers do not fit (more than 10 in half a tray).
    """
    cd = lay.checker_d
    bottom = colour == LIGHT
    sign = -1.0 if bottom else 1.0
    if lay.trays and pose == "edge":
        (tx0, ty0, tx1, ty1), _ = next(t for t in lay.trays if t[1] == home)
        slab = cd * 0.22
        tx = (tx0 + tx1) / 2
        if bottom:
            return [(tx, ty1 - cd * 0.3 - k * slab * 1.05, True) for k in range(count)]
        return [(tx, ty0 + cd * 0.3 + k * slab * 1.05, True) for k in range(count)]
    if lay.trays:
        (tx0, ty0, tx1, ty1), _ = next(t for t in lay.trays if t[1] == home)
        xs = [(tx0 + tx1) / 2]
        y0 = ty1 - cd * 0.6 if bottom else ty0 + cd * 0.6
        room = (ty1 - ty0) / 2 - cd * 0.7
    else:
        out = 1.0 if home == "right" else -1.0
        edge = BOARD_W if home == "right" else 0.0
        xs = [edge + out * cd * 0.6, edge + out * cd * 1.62]
        y0 = lay.board_h - cd * 0.6 if bottom else cd * 0.6
        room = lay.board_h / 2 - cd * 0.7
    per_row = -(-count // len(xs)) if count else 0
    step = cd if per_row <= 1 else min(cd, room / (per_row - 1))
    if step < _FLAT_STEP_MIN * cd:
        raise RenderError(f"{count} flat borne-off checkers do not fit beside this board; use pose 'edge'")
    return [(xs[k // per_row], y0 + sign * (k % per_row) * step, False) for k in range(count)]


def cube_xy(lay: Layout, position: str, home: str = "right") -> tuple[float, float]:
    """Centre of the cube: on the bar (or beside a paper board) when centred; otherwise at the owner's
    edge (bottom or top) of the tray away from the home side (the home side's tray holds the borne-off
    checkers), or beside a paper board on that side."""
    fx0, fy0, fx1, fy1 = lay.field
    cd = lay.checker_d
    away = "left" if home == "right" else "right"
    beside = -cd * 0.9 if away == "left" else BOARD_W + cd * 0.9
    if position == "centre":
        if lay.bar is not None:
            return (lay.bar[0] + lay.bar[1]) / 2, (fy0 + fy1) / 2
        return beside, lay.board_h / 2
    if lay.trays:
        (tx0, ty0, tx1, ty1), _ = next(t for t in lay.trays if t[1] == away)
        return (tx0 + tx1) / 2, (ty1 - cd if position == "bottom" else ty0 + cd)
    return beside, (lay.board_h * (0.8 if position == "bottom" else 0.2))


def die_xy(lay: Layout, spec: BoardSpec, d: DieSpec, rng: np.random.Generator,
            taken: list[tuple[float, float]], checkers: list[tuple[float, float]]) -> tuple[float, float]:
    fx0, fy0, fx1, fy1 = lay.field
    cd = lay.checker_d
    right = "right" if spec.roller == "bottom" else "left"
    wrong = "left" if right == "right" else "right"
    my = (fy0 + fy1) / 2
    for _ in range(200):
        if d.status in (DieStatus.FLAT, DieStatus.WRONG_HALF, DieStatus.COCKED):
            hx0, hx1 = lay.half_x(right if d.status != DieStatus.WRONG_HALF else wrong)
            x = rng.uniform(hx0 + cd, hx1 - cd)
            y = my + rng.uniform(-0.9, 0.9) * (my - fy0 - lay.point_h) * 0.8
        elif d.status == DieStatus.ON_BAR:
            assert lay.bar is not None
            x = (lay.bar[0] + lay.bar[1]) / 2
            y = rng.uniform(fy0 + cd * 1.5, fy1 - cd * 1.5)
        elif d.status == DieStatus.OFF_BOARD:
            y = rng.uniform(lay.board_h * 0.2, lay.board_h * 0.8)
            x = -cd * 1.1 if rng.random() < 0.5 else BOARD_W + cd * 1.1
        else:  # ON_CHECKER
            hx0, hx1 = lay.half_x(right)
            mine = [c for c in checkers if hx0 <= c[0] <= hx1] or checkers
            if not mine:
                raise RenderError("a die 'on_checker' needs a checker on the board")
            x, y = mine[int(rng.integers(len(mine)))]
        if all(math.hypot(x - a, y - b) > cd * 1.1 for a, b in taken) or d.status == DieStatus.ON_CHECKER:
            return float(x), float(y)
    return float(x), float(y)
