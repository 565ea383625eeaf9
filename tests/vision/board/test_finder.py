"""The field finder (`vision.board.finder`): a long side drawn tilted by a cut corner is put back on the
points' bases; a column of five is no pile (issue 4: "perspective rims", "stacks of any height");
the finalists' judges (a plain bar, sharp triangle outlines) tell a true field from a shifted one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.conftest import shared_data
from vision.board.finder import (
    _BAR_PLAIN_TIE,
    _bar_uniformity,
    _frame_rows,
    _inside_frame,
    _outline_contrast,
    _plain_share,
    _straighten_sides,
    colour_gradient,
    find_board,
)
from vision.board.geometry import point_centres_u
from vision.render.scene import Camera, render, starting_spec


def _work_lab(image: np.ndarray) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = 480 / max(h, w)
    work = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(work, cv2.COLOR_BGR2LAB), work.shape[1] / w


def test_a_side_tilted_by_a_cut_corner_is_put_on_the_bases() -> None:
    """The found field's top-left corner pulled down 6 % of the height: the top side is put back
    on the points' bases, the rendered field's top side (measured: within 0.8 work pixels; the
    found field itself may lie a few pixels off, so the truth is the reference)."""
    r = render(starting_spec("wood"), size=(960, 540), view="rectified", camera=Camera(), seed=1)
    geom = find_board(r.image)
    assert geom is not None and geom.bar is not None
    lab, scale = _work_lab(r.image)
    quad = np.float32(geom.corners) * scale
    truth = np.float32(r.regions["field"]) * scale
    gap = (geom.bar[1] - geom.bar[0]) / geom.size[0]
    tilted = quad.copy()
    height = float(np.linalg.norm(quad[3] - quad[0]))
    tilted[0] += (quad[3] - quad[0]) / height * 0.06 * height  # top-left corner pulled down
    fixed = _straighten_sides(lab, tilted, gap)
    assert np.abs(fixed[:2] - truth[:2]).max() < 0.015 * height, (fixed, truth)


def test_a_side_on_its_bases_is_left_alone() -> None:
    r = render(starting_spec("paper"), size=(960, 540), view="rectified", camera=Camera(), seed=2)
    geom = find_board(r.image)
    assert geom is not None
    lab, scale = _work_lab(r.image)
    quad = np.float32(geom.corners) * scale
    gap = 0.0 if geom.bar is None else (geom.bar[1] - geom.bar[0]) / geom.size[0]
    assert np.abs(_straighten_sides(lab, quad, gap) - quad).max() < 1.0


def test_rows_along_the_bases_are_no_frame() -> None:
    """A side moves inward only over rows that look like a frame (one colour along their length);
    rows along the bases, where two triangle colours alternate and checkers stand, do not."""
    wood, black, white = (120.0, 150.0, 170.0), (20.0, 128.0, 128.0), (230.0, 128.0, 128.0)
    red = (60.0, 170.0, 150.0)
    frame = np.tile(np.float32(wood), (4, 23, 1))
    # the points' axes (triangles alternating, checkers on some) and between them (the two mixed)
    axes = np.float32([white, black, red, black, white, red, white, black, white, black, red, black])
    row = np.empty((23, 3), np.float32)
    row[0::2], row[1::2] = axes, 0.5 * (axes[1:] + axes[:-1])
    bases = row[None].repeat(4, axis=0)
    assert _frame_rows(_plain_share(frame))
    assert not _frame_rows(_plain_share(bases))
    assert _frame_rows(_plain_share(frame[:0]))  # no rows passed over


def test_a_side_is_not_moved_onto_the_checkers_along_the_bases() -> None:
    """test6 (boards-real): a walnut board whose bottom row holds white checkers beside white
    points and red ones on black points along the bases; the bottom side was put one checker in,
    on their tops (those checkers then not counted). It lies on the bases, near y = 625 px."""
    image = cv2.imread(str(shared_data("boards-real") / "test6.jpg"))
    geom = find_board(image)
    assert geom is not None
    bottom = np.float32(geom.corners)[2:, 1]
    assert (bottom > 610).all() and (bottom < 640).all(), geom.corners


def _found_quad(style: str, seed: int) -> tuple[np.ndarray, float, np.ndarray]:
    """A rendered board's found field: (work-image Lab, bar share, field quad TL TR BR BL in work
    pixels)."""
    r = render(starting_spec(style), size=(960, 540), view="rectified", camera=Camera(), seed=seed)
    geom = find_board(r.image)
    assert geom is not None and geom.bar is not None
    lab, scale = _work_lab(r.image)
    return lab, (geom.bar[1] - geom.bar[0]) / geom.size[0], np.float32(geom.corners) * scale


def _moved(quad: np.ndarray, unit: np.ndarray) -> np.ndarray:
    """The quad whose corners are ``unit`` (float (4, 2)) in ``quad``'s own unit square."""
    hmg = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), quad.astype(np.float32))
    return cv2.perspectiveTransform(np.float32(unit).reshape(-1, 1, 2), hmg).reshape(4, 2)


@pytest.mark.parametrize("style", ["wood", "tournament"])
def test_a_bar_laid_over_two_points_is_not_plain(style: str) -> None:
    """A field whose far half sits two points too far out still alternates (the pattern's period is
    two points), but its "bar" then covers two points: far less uniform than the true bar's, by more
    than the finalists' tie (vision.board.finder._BAR_PLAIN_TIE)."""
    lab, gap, quad = _found_quad(style, 1)
    pw = (1.0 - gap) / 12.0
    wide = 1.0 + 2.0 * pw
    wrong = _moved(quad, np.float32([[0, 0], [wide, 0], [wide, 1], [0, 1]]))
    wrong_gap = 1.0 - (1.0 - gap) / wide  # the halves keep their width; the bar takes the rest
    plain, covered = _bar_uniformity(lab, quad, gap), _bar_uniformity(lab, wrong, wrong_gap)
    assert plain > 0.9 and covered < plain - _BAR_PLAIN_TIE, (plain, covered)


@pytest.mark.parametrize("style", ["wood", "tournament", "paper"])
def test_the_triangles_outline_is_sharpest_where_the_points_are(style: str) -> None:
    """The outline contrast (edge energy on the model triangles over the model shifted half a
    point) is clearly above 1 on the found field and falls when the field is a quarter point off."""
    r = render(starting_spec(style), size=(960, 540), view="rectified", camera=Camera(), seed=2)
    geom = find_board(r.image)
    assert geom is not None
    lab, scale = _work_lab(r.image)
    work = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    mag = cv2.GaussianBlur(colour_gradient(work), (5, 5), 1.2)
    gap = 0.0 if geom.bar is None else (geom.bar[1] - geom.bar[0]) / geom.size[0]
    quad = np.float32(geom.corners) * scale
    q = 0.25 * (1.0 - gap) / 12.0
    off = _moved(quad, np.float32([[q, 0], [1 + q, 0], [1 + q, 1], [q, 1]]))
    on_c, off_c = _outline_contrast(mag, quad, gap), _outline_contrast(mag, off, gap)
    assert on_c > 1.5 and off_c < on_c, (on_c, off_c)


_TURNS = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}


def _turned_back(xy: np.ndarray, degrees: int, size: tuple[int, int]) -> np.ndarray:
    """Points (N, 2) of an image turned clockwise by ``degrees``, in the upright image of ``size``."""
    w, h = size
    x, y = xy[:, 0], xy[:, 1]
    if degrees == 90:
        return np.stack([y, h - 1 - x], axis=1)
    if degrees == 180:
        return np.stack([w - 1 - x, h - 1 - y], axis=1)
    return np.stack([w - 1 - y, x], axis=1)


@pytest.mark.parametrize(("name", "degrees"), [("test1.jpg", 180), ("test2.jpg", 270)])
def test_a_turned_photo_shows_the_upright_field(name: str, degrees: int) -> None:
    """boards-real photos turned in the image: the field found lies within a third of a point of the
    upright photo's at every corner. (test1 turned 180 degrees: one row of tips mostly under
    checkers gave a column spacing 1.5 columns wide, and a bar-less field over both trays won;
    test2 turned 270 degrees: its triangles' field, one row under dice cups, was not offered.)"""
    image = cv2.imread(str(shared_data("boards-real") / name))
    upright = find_board(image)
    turned = find_board(cv2.rotate(image, _TURNS[degrees]))
    assert upright is not None and turned is not None and turned.bar is not None
    truth = np.float32(upright.corners)
    got = _turned_back(np.float32(turned.corners), degrees, (image.shape[1], image.shape[0]))
    point = float(np.linalg.norm(truth[1] - truth[0])) / 12.5
    err = np.linalg.norm(truth[:, None] - got[None], axis=2).min(axis=1).max()
    assert err < point / 3, (truth.tolist(), got.tolist())


def _gamma(image: np.ndarray, gamma: float) -> np.ndarray:
    lut = np.clip((np.arange(256) / 255.0) ** gamma * 255.0, 0, 255).astype(np.uint8)
    return cv2.LUT(image, lut)


def _turned(image: np.ndarray, degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """``image`` turned by ``degrees`` about its centre (edges replicated), and the 2x3 matrix."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    return cv2.warpAffine(image, matrix, (w, h), borderMode=cv2.BORDER_REPLICATE), matrix


@pytest.mark.parametrize(("name", "retake"), [("test6.jpg", "darker"), ("test6.jpg", "turned"),
                                              ("test3.jpg", "brighter")])
def test_the_field_holds_when_the_photo_is_retaken(name: str, retake: str) -> None:
    """boards-real photos taken another way, as `bench robustness` does: the field found lies within
    a third of a point of the untouched photo's at every corner. (test6 darker, gamma 1.8: no
    outline stood out and a completed outline was taken over the points' triangles; test6 turned 4
    degrees: a stray tip in the bar hid it from the triangles' columns; test3 brighter, gamma 0.6:
    a field running off the photo had its side moved out over the rows the warp repeats.)"""
    image = cv2.imread(str(shared_data("boards-real") / name))
    upright = find_board(image)
    assert upright is not None
    truth = np.float32(upright.corners)
    if retake == "turned":
        other, matrix = _turned(image, -4.0)
        truth = cv2.transform(truth.reshape(-1, 1, 2), matrix).reshape(4, 2)
    else:
        other = _gamma(image, 1.8 if retake == "darker" else 0.6)
    got = find_board(other)
    assert got is not None
    point = float(np.linalg.norm(truth[1] - truth[0])) / 12.5
    err = np.linalg.norm(truth[:, None] - np.float32(got.corners)[None], axis=2).min(axis=1).max()
    assert err < point / 3, (truth.tolist(), got.corners)


def test_rows_beyond_the_image_are_marked() -> None:
    """_rows_inside: a view reaching a tenth of its height beyond the image's top edge has its
    first rows marked outside, the rest inside."""
    from vision.board.finder import _rows_inside

    shape = (100, 200, 3)
    # the view (120 x 60) maps onto x 0..200, y -10..90 of the image
    src = np.float32([[0, -10], [200, -10], [200, 90], [0, 90]])
    hmg = cv2.getPerspectiveTransform(src, np.float32([[0, 0], [120, 0], [120, 60], [0, 60]]))
    inside = _rows_inside(hmg, np.arange(5, 120, 10), 60, shape)
    assert not inside[:5].any() and inside[7:].all()


def _written_colour_gradient(bgr: np.ndarray) -> np.ndarray:
    """Di Zenzo's magnitude as its formula reads, per channel (the reference for the fast one)."""
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = [cv2.Sobel(lab[:, :, c], cv2.CV_32F, 1, 0, ksize=3) for c in range(3)]
    gy = [cv2.Sobel(lab[:, :, c], cv2.CV_32F, 0, 1, ksize=3) for c in range(3)]
    jxx = sum(g * g for g in gx)
    jyy = sum(g * g for g in gy)
    jxy = sum(a * b for a, b in zip(gx, gy, strict=True))
    lam = 0.5 * (jxx + jyy + np.sqrt((jxx - jyy) ** 2 + 4.0 * jxy * jxy))
    return np.sqrt(lam).astype(np.float32)


@pytest.mark.parametrize("seed", range(3))
def test_colour_gradient_is_its_formula_bit_for_bit(seed: int) -> None:
    rng = np.random.default_rng(seed)
    bgr = cv2.GaussianBlur(rng.integers(0, 256, (47, 61, 3), dtype=np.uint8), (5, 5), 1.5)
    bgr[10:20, 5:40] = (30, 200, 90)  # flat patches: zero gradients, the sums' signed zeros
    got, want = colour_gradient(bgr[3:, 1:]), _written_colour_gradient(bgr[3:, 1:])
    assert got.dtype == np.float32 and np.array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))
    # the Lab conversion handed in (find_board's own) gives the same bits
    given = colour_gradient(bgr[3:, 1:], cv2.cvtColor(bgr[3:, 1:], cv2.COLOR_BGR2LAB))
    assert np.array_equal(given, got) and np.array_equal(np.signbit(given), np.signbit(got))


def _sleeve(image: np.ndarray, field: np.ndarray, across: float, down: float) -> np.ndarray:
    """``image`` with a navy sleeve laid over the field's top-left (TL TR BR BL ``field``): from
    beyond the frame over ``across`` of the field's width and ``down`` of its height."""
    tl, tr, br, bl = np.float32(field)

    def at(u: float, v: float) -> np.ndarray:
        top, bottom = tl + (tr - tl) * u, bl + (br - bl) * u
        return top + (bottom - top) * v

    poly = np.array([at(-0.1, -0.2), at(across, -0.2), at(across, down), at(-0.1, down)], np.int32)
    out = image.copy()
    cv2.fillPoly(out, [poly], (80, 40, 30))
    return out


# (tournament boards whose sleeve leaves the pattern under the score's gate: the field's own tips
# were the only evidence of it; without them the finder took another quad, five or more points off)
@pytest.mark.parametrize("seed", [2, 12])
def test_a_field_under_a_sleeve_stands_on_its_tips(seed: int) -> None:
    """A sleeve over a quarter of the field and checkers on the bases hide the pattern (every field
    the triangle stage offers scores under the gate); the field is still found from its triangles'
    tips, within half a point at every corner."""
    from vision.board.finder import _MIN_SCORE, _pattern_scores
    from vision.board.triangles import field_candidates
    from vision.render.scene import random_spec

    spec = random_spec(seed, style="tournament", max_stack=5, with_dice=False)
    r = render(spec, size=(1280, 720), view="perspective", camera=Camera(tilt_deg=10, fill=0.8), seed=seed)
    truth = np.float32(r.regions["field"])
    image = _sleeve(r.image, truth, 0.5, 0.55)
    lab, _ = _work_lab(image)
    fields = field_candidates(lab)
    assert fields
    assert all(float(np.mean(_pattern_scores(lab, q, 12, (g,))[0])) < _MIN_SCORE for q, g in fields)
    geom = find_board(image)
    assert geom is not None
    point = float(np.linalg.norm(truth[1] - truth[0])) / 12.5
    err = np.linalg.norm(truth[:, None] - np.float32(geom.corners)[None], axis=2).min(axis=1).max()
    assert err < 0.5 * point


def _strip_below(image: np.ndarray, field: np.ndarray, board: np.ndarray, gap: float) -> np.ndarray:
    """``image`` with a strip of black and white blocks (a score strip, a broadcast's overlay) laid
    just below the board's frame (``board``, its outer corners), each block one point wide under a
    point of ``field`` (TL TR BR BL; bar share ``gap``): beyond the frame, the colours alternate from
    point to point as the triangles' bases do."""
    hmg = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), np.float32(field))
    at_board = cv2.perspectiveTransform(np.float32(board).reshape(-1, 1, 2), np.linalg.inv(hmg)).reshape(4, 2)
    v0 = float(at_board[2:, 1].max()) + 0.005
    v1 = v0 + 0.05  # (within the tenth of the height beyond each side that _refine_bases searches)
    pw = (1.0 - gap) / 12.0
    out = image.copy()
    for k, u in enumerate(point_centres_u(gap)):
        block = np.float32([[u - pw / 2, v0], [u + pw / 2, v0], [u + pw / 2, v1], [u - pw / 2, v1]])
        corners = cv2.perspectiveTransform(block.reshape(-1, 1, 2), hmg).reshape(4, 2)
        cv2.fillPoly(out, [np.int32(np.rint(corners))], (30, 30, 30) if k % 2 else (235, 235, 235))
    return out


@pytest.mark.parametrize("seed", [2, 12])
def test_a_field_on_its_tips_keeps_its_bases_inside_the_frame(seed: int) -> None:
    """dices6 (boards-real): a field on its tips alone (a sleeve over the pattern) whose bottom frame
    has a strip that alternates point to point below it; the bases' refinement put the bottom side
    on that strip, beyond the frame (0.8-0.9 points too low, here and on the photo). Rows parted
    from the field by a band of frame lie outside the board: the bottom corners stay within a
    fifth of a point of the rendered field's."""
    from vision.render.scene import random_spec

    spec = random_spec(seed, style="tournament", max_stack=5, with_dice=False)
    r = render(spec, size=(1280, 720), view="perspective", camera=Camera(tilt_deg=10, fill=0.8), seed=seed)
    truth = np.float32(r.regions["field"])
    bare = find_board(r.image)
    assert bare is not None and bare.bar is not None
    gap = (bare.bar[1] - bare.bar[0]) / bare.size[0]
    image = _strip_below(_sleeve(r.image, truth, 0.5, 0.55), truth, np.float32(r.board_corners), gap)
    geom = find_board(image)
    assert geom is not None
    point = float(np.linalg.norm(truth[1] - truth[0])) / 12.5
    err = np.linalg.norm(truth[2:, None] - np.float32(geom.corners)[None], axis=2).min(axis=1)
    assert (err < 0.2 * point).all(), (truth.tolist(), geom.corners)


def test_alternating_rows_beyond_a_frame_band_are_dropped() -> None:
    """_inside_frame: of the alternating rows (ordered from outside the field inward), those a band
    of plain (frame) rows parts from the rows further in are dropped; a gap of rows that are not
    plain (checkers on the bases) parts nothing."""
    plain = np.full(20, 0.2)
    plain[4:7] = 0.9  # a frame band, rows 4-6
    rows = np.array([1, 2, 3, 7, 8, 9, 12, 13])
    # a top side: the outside is row 0, the field below
    assert _inside_frame(rows, plain).tolist() == [7, 8, 9, 12, 13]
    # a bottom side: the outside is the last row, the field above
    assert _inside_frame(rows[::-1], plain).tolist() == [3, 2, 1]
    # no frame band: every row stays
    assert _inside_frame(rows, np.full(20, 0.2)).tolist() == rows.tolist()
    assert _inside_frame(rows[:0], plain).size == 0


def test_field_triangles_are_the_searchs_own_and_leave_it_unchanged() -> None:
    """:func:`field_triangles` counts the triangles the search itself finds (its working copy, its
    detector), and the search that follows on the same photo, taking them from the last call,
    finds the same field as a search on its own; a tray shows none."""
    from vision.board import finder
    from vision.board.triangles import find_triangles

    board = render(starting_spec("wood"), size=(960, 540), camera=Camera(), seed=2).image
    tray = np.full((540, 960, 3), (40, 90, 30), np.uint8)
    cv2.rectangle(tray, (400, 200), (460, 260), (240, 240, 240), -1)
    for img in (board, tray):
        work, lab = finder._work_lab(img)
        want = find_triangles(lab)
        got = finder.field_triangles(img)
        assert np.array_equal(got, want)
        again = finder.find_board_view(img)
        finder._last_triangles.__dict__.clear()  # a search with nothing kept
        alone = finder.find_board_view(img)
        assert (again is None) == (alone is None) == (img is tray)
        if again is not None and alone is not None:
            assert np.array_equal(again[0].corners, alone[0].corners)
    assert len(finder.field_triangles(board)) >= 9 and len(finder.field_triangles(tray)) == 0
