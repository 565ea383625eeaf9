"""Calibrate on a board whose layout is known (the opening position, or an empty board).

:func:`calibrate_known` finds the field (:func:`vision.board.calibration.calibrate`), reads the board,
checks the reading against the layouts the caller says it may be in (vision knows no rules: the
controller gives the opening position in every legal seating, RULES.md B2 and N2, as plain
``(colour, count)`` per slot), and, when one matches exactly, learns the board's look from the
pixels it now knows (:func:`vision.board.appearance.learn`). When none matches it refuses, naming
the points that disagree with the nearest layout (:class:`vision.errors.LayoutMismatch`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.board import appearance
from vision.board.calibration import Calibration, calibrate
from vision.board.view import FieldView
from vision.checkers.stacks import count_stacks
from vision.errors import CalibrationError, LayoutMismatch
from vision.reading import BoardReading

__all__ = ["EMPTY", "Layout", "Learned", "calibrate_known", "describe_slot", "mismatches"]

# 24 ``(colour, count)`` by slot (DESIGN.md slots); colour None where the count is 0.
Layout = tuple[tuple[str | None, int], ...]
EMPTY: Layout = ((None, 0),) * 24

_WHAT_TO_DO = ("set the board up as said, take hands and dice cups off it, light it evenly "
               "or re-aim the camera, then calibrate again")


@dataclass(frozen=True)
class Learned:
    """A calibration made on a known layout: ``calibration`` (with its learned appearance),
    ``layout`` (the index of the layout it matched), ``reading`` (the board as read)."""

    calibration: Calibration
    layout: int
    reading: BoardReading


def describe_slot(slot: int) -> str:
    """``slot 5 (bottom row, 7th from the left)``: a slot as a player finds it on the board."""
    top = slot >= 12
    n = slot - 11 if top else 12 - slot
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n if n < 20 else n % 10, "th")
    return f"slot {slot} ({'top' if top else 'bottom'} row, {n}{suffix} from the left)"


def _cell(colour: str | None, count: int) -> str:
    return "empty" if not count else f"{count} {colour}"


def mismatches(layout: Layout, reading: BoardReading) -> list[tuple[int, tuple[str | None, int],
                                                                   tuple[str | None, int]]]:
    """The points where ``reading`` differs from ``layout``: ``(slot, expected, read)`` each."""
    out = []
    for p in reading.points:
        want = layout[p.slot]
        got = (p.colour if p.count else None, p.count)
        if got[1] != want[1] or (want[1] and got[0] != want[0]):
            out.append((p.slot, want, got))
    return out


def calibrate_known(image: np.ndarray, layouts: Sequence[Layout], what: str = "the known layout") -> Learned:
    """Calibrate on ``image`` (BGR uint8 (H, W, 3)) showing one of ``layouts`` (either seating of
    the opening position, say), and learn the board's look from it.

    ``what`` names the layout in messages (``"the opening position"``).

    :raises CalibrationError: when no board is found.
    :raises LayoutMismatch: when the reading matches none of ``layouts`` (the nearest one's
        disagreeing points in the message and ``points``), a hand covers the board, or a checker
        is read on the bar.
    """
    if not layouts or any(len(lay) != 24 for lay in layouts):
        raise CalibrationError("a layout is 24 (colour, count) pairs, one per slot")
    from vision.reader import read_board

    calib = calibrate(image)
    if calib is None:
        raise CalibrationError(f"no board found: {_WHAT_TO_DO}")
    reading = read_board(image, calib)
    if reading.occluded:
        raise LayoutMismatch(f"something covers the board (a hand, a dice cup): {_WHAT_TO_DO}")
    found = [mismatches(lay, reading) for lay in layouts]
    best = min(range(len(layouts)), key=lambda i: len(found[i]))
    if found[best]:
        bad = found[best]
        listed = "; ".join(f"{describe_slot(s)}: expected {_cell(*want)}, read {_cell(*got)}"
                           for s, want, got in bad[:6])
        more = f" (and {len(bad) - 6} more)" if len(bad) > 6 else ""
        verb = "points differ" if len(bad) > 1 else "point differs"
        raise LayoutMismatch(f"the board does not show {what}: {len(bad)} {verb} -- {listed}{more}; "
                             f"{_WHAT_TO_DO}", tuple(bad))
    if any(reading.bar.values()):
        on_bar = ", ".join(f"{n} {c}" for c, n in reading.bar.items() if n)
        raise LayoutMismatch(f"{on_bar} read on the bar, where {what} has none: {_WHAT_TO_DO}")
    layout = layouts[best]
    geom = calib.geometry
    view = FieldView.of_frame(image, geom)
    stacks = count_stacks(view, geom, calib.checker_radius or None)
    discs: dict[str, list[tuple[float, float, float]]] = {}
    for st in stacks:
        slot = 12 + st.column if st.top else 11 - st.column
        colour, count = layout[slot]
        if colour is None or not count:
            continue
        discs.setdefault(colour, []).extend(_disc_colours(view.lab, st.centres, st.radius))
    model = appearance.learn(image, view.lab, geom, layout, discs)
    return Learned(replace(calib, appearance=model), best, reading)


def _disc_colours(lab: np.ndarray, centres: Sequence[tuple[float, float]],
                  r: float) -> list[tuple[float, float, float]]:
    """Each disc's median Lab over the square of half-side 0.45 ``r`` at its centre (as the stacks'
    own colour is measured, :func:`vision.checkers.stacks.count_stacks`)."""
    h, w = lab.shape[:2]
    k = max(2, int(0.45 * r))
    out = []
    for x, y in centres:
        xi, yi = int(round(x)), int(round(y))
        patch = lab[max(0, yi - k): min(h, yi + k + 1), max(0, xi - k): min(w, xi + k + 1)].reshape(-1, 3)
        if len(patch):
            med = np.median(patch, axis=0)
            out.append((float(med[0]), float(med[1]), float(med[2])))
    return out
