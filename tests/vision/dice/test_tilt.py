"""The one cocked test of both dice readers (vision.dice.tilt.is_cocked; RULES.md B15, N10: a cocked
die forces a re-throw): a four's or five's corner pips foreshortened from a square, a side face's
pips beside the top face, and where the readers' limits differ (the board's rectified top view
trusts the pips alone, a photo only with the die's outline)."""

from __future__ import annotations

import math

import pytest

from tests.vision.dice.layouts import LAYOUTS
from vision.dice.board_faces import find_faces
from vision.dice.layout import Pip
from vision.dice.tilt import BOARD_COCK, PHOTO_COCK, is_cocked, side_face_pips


def _pips(value: int, centre: tuple[float, float], edge: float, angle: float,
          squash: float = 1.0) -> list[Pip]:
    """A face's pips, its rows ``squash``ed (a face tilted about its rows' axis), turned by ``angle``."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for u, v in LAYOUTS[value]:
        u, v = 0.28 * edge * u, 0.28 * edge * v * squash
        out.append(Pip(centre[0] + c * u - s * v, centre[1] + s * u + c * v, 100.0, True, 0.9,
                       (30.0, 128.0, 128.0), 1.5))
    return out


def _board_verdict(pips: list[Pip], input_edge: float = 24.0) -> bool:
    faces = find_faces(pips, (17.0, 24.0, 34.0))
    assert len(faces) == 1
    f = faces[0]
    return is_cocked(f.centre, [pips[i] for i in f.members], f.edge, BOARD_COCK, input_edge=input_edge)


@pytest.mark.parametrize("value", [4, 5])
@pytest.mark.parametrize("angle", [0.0, 30.0, 63.0])
def test_a_tilted_face_is_cocked_and_a_square_one_flat(value: int, angle: float) -> None:
    """A cocked die's top face, tilted by t about an edge, shows its corner pips as a rectangle of
    aspect 1/cos t; a flat die's as a square (vision.dice.tilt.corner_aspect)."""
    for squash, cocked in ((1.0, False), (0.95, False), (0.75, True), (0.6, True)):
        assert _board_verdict(_pips(value, (60.0, 50.0), 24.0, angle, squash)) == cocked, (squash, angle)


def test_other_faces_are_not_judged_by_their_pips() -> None:
    """A six's columns stand closer than its rows on many real dice, and ones to threes have no
    square of corner pips: their pips say nothing of a tilt."""
    for value in (1, 2, 3, 6):
        assert not _board_verdict(_pips(value, (60.0, 50.0), 24.0, 20.0, 0.75))


def test_a_die_too_small_for_its_corner_square_is_not_judged_by_it() -> None:
    """Below ``grid_min_edge`` input px the pips' centres are too coarse to tell a square."""
    squashed = _pips(4, (60.0, 50.0), 24.0, 0.0, 0.6)
    assert _board_verdict(squashed, input_edge=BOARD_COCK.grid_min_edge)
    assert not _board_verdict(squashed, input_edge=BOARD_COCK.grid_min_edge - 1.0)


def test_a_photo_does_not_trust_the_pips_alone() -> None:
    """In a photo the corner squares of flat dice are foreshortened by the lens and the dice's make:
    without the die's outline showing a side face, a squashed four is no cocked die."""
    pips = _pips(4, (60.0, 50.0), 24.0, 0.0, 0.6)
    assert not is_cocked((60.0, 50.0), pips, 24.0, PHOTO_COCK)


def _side(centre: tuple[float, float], edge: float, angles: list[float], contrast: float = 90.0,
          dark: bool = True) -> list[Pip]:
    """Blobs 0.7 edges from the centre at ``angles`` (degrees): a side face's pips when together."""
    return [Pip(centre[0] + 0.7 * edge * math.cos(math.radians(a)),
                centre[1] + 0.7 * edge * math.sin(math.radians(a)), contrast, dark, 0.9) for a in angles]


def test_a_side_face_beside_the_top_face_is_cocked() -> None:
    top = _pips(3, (60.0, 50.0), 24.0, 0.0)
    assert side_face_pips((60.0, 50.0), top, 24.0, _side((60.0, 50.0), 24.0, [80.0, 100.0]))
    assert is_cocked((60.0, 50.0), top, 24.0, BOARD_COCK, others=_side((60.0, 50.0), 24.0, [80.0, 100.0]))
    # the photo reader has the die's outline for that, not its blobs
    assert not is_cocked((60.0, 50.0), top, 24.0, PHOTO_COCK, others=_side((60.0, 50.0), 24.0, [80.0, 100.0]))


@pytest.mark.parametrize("why", ["one", "around", "faint", "other polarity"])
def test_blobs_that_are_no_side_face_are_not(why: str) -> None:
    """One blob, blobs on both sides (a neighbour's pips, printing round the die), faint ones or
    ones of the other polarity are no side face."""
    c = (60.0, 50.0)
    top = _pips(3, c, 24.0, 0.0)
    others = {"one": _side(c, 24.0, [90.0]), "around": _side(c, 24.0, [0.0, 180.0]),
              "faint": _side(c, 24.0, [80.0, 100.0], contrast=40.0),
              "other polarity": _side(c, 24.0, [80.0, 100.0], dark=False)}[why]
    assert not side_face_pips(c, top, 24.0, others)
