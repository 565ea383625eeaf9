"""Where a die lies relative to the board: the statuses that need board geometry.

:func:`die_status` is what a die reader knows of the die itself (``flat`` or ``cocked``); both
readers take it from here. The board reader knows
where the board, the bar, the roller's half and the checkers are; it describes them with plain arrays
(a :class:`BoardRegions`) and calls :func:`board_status` (one die) or :func:`apply_board_status` (all
dice of a frame). RULES.md B15 (backgammon) and N10 (long nardy): a die that is cocked, off the board,
on the wrong half, on the bar, or on or against a checker forces a re-throw of both dice.

All coordinates are pixels ``(x, y)`` of the same image the dice were read from.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.reading import DieReading, DieStatus

__all__ = ["BoardRegions", "apply_board_status", "board_status", "die_status"]


@dataclass(frozen=True)
class BoardRegions:
    """The board geometry a die's status depends on, as plain polygons and circles (image pixels).

    :param playing_area: Nx2 polygon of the playing surface (both halves, bar included, frame and
        bear-off trays excluded). A die whose centre lies outside it is ``off_board``.
    :param bars: polygons (each Nx2) of the bar (one, or two halves); empty when the board has none
        (a paper board). A die whose centre lies inside one is ``on_bar``.
    :param roller_half: Nx2 polygon of the half the dice must land on (the roller's right-hand half,
        RULES.md B15), or None when it is not known (then ``wrong_half`` is never given).
    :param checkers: Kx3 array of checker circles ``(x, y, radius)``. A die touching one (centre
        closer than the checker radius plus ``touch`` die edges) is ``on_checker``.
    :param touch: how close, in die edges beyond the checker's rim, counts as "against a checker".
    """

    playing_area: np.ndarray
    bars: tuple[np.ndarray, ...] = ()
    roller_half: np.ndarray | None = None
    checkers: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    touch: float = 0.55


def _inside(poly: np.ndarray, xy: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (float(xy[0]), float(xy[1])), False) >= 0


def die_status(cocked: bool) -> DieStatus:
    """The status of a die as its reader sees it, without the board: ``cocked`` (by
    :func:`vision.dice.tilt.is_cocked`) or ``flat``; :func:`board_status` adds the board's."""
    return DieStatus.COCKED if cocked else DieStatus.FLAT


def board_status(die: DieReading, regions: BoardRegions, die_size: float,
                 hidden: Callable[[], bool] | None = None) -> DieStatus:
    """The status of one die on a board, by precedence (the first that applies):

    ``off_board`` (centre outside the playing area) > ``on_bar`` > ``on_checker`` (touching a checker,
    or ``hidden`` says so) > ``cocked`` (from the die reader) > ``wrong_half`` (outside the roller's
    half) > ``flat``.

    :param die: a reading from either die reader (``image_xy`` in pixels; None -> as is).
    :param regions: the board geometry, in the same image's pixels.
    :param die_size: the die edge in pixels (scales the "against a checker" distance).
    :param hidden: the board reader's own look (asked only when no status above ``on_checker``
        applies): does the die lie on a checker it hides from the stack counter?
    :returns: the :class:`~vision.reading.DieStatus`.
    """
    if die.image_xy is None:
        return DieStatus(die.status)
    xy = die.image_xy
    if not _inside(regions.playing_area, xy):
        return DieStatus.OFF_BOARD
    if any(_inside(b, xy) for b in regions.bars):
        return DieStatus.ON_BAR
    if len(regions.checkers):
        c = regions.checkers
        d = np.hypot(c[:, 0] - xy[0], c[:, 1] - xy[1])
        if bool((d < c[:, 2] + regions.touch * die_size).any()):
            return DieStatus.ON_CHECKER
    if hidden is not None and hidden():
        return DieStatus.ON_CHECKER
    if DieStatus(die.status) == DieStatus.COCKED:
        return DieStatus.COCKED
    if regions.roller_half is not None and not _inside(regions.roller_half, xy):
        return DieStatus.WRONG_HALF
    return DieStatus.FLAT


def apply_board_status(
    dice: Sequence[DieReading], regions: BoardRegions, die_size: float
) -> list[DieReading]:
    """:func:`board_status` for every die; returns new readings (the inputs are frozen values)."""
    return [replace(d, status=board_status(d, regions, die_size)) for d in dice]
