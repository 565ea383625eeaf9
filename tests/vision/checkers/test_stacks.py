"""Checker counting on a drawn, already rectified board: stacks of every height, colours learned."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board.geometry import POINT_PX, BoardGeometry
from vision.board.view import colour_gradient
from vision.checkers.stacks import (
    _RING_N,
    _SHIFT_STEP,
    _SQUARE_BETTER,
    StackReading,
    _base_reach,
    _between_shifts,
    _chain,
    _colour_run,
    _gap_bare,
    _outline_fits,
    _reach,
    _stack_step,
    count_stacks,
    drop_third_colour,
    name_colours,
    ring_scores,
    ring_scores_at_pixels,
)
from vision.reading import DARK, LIGHT

W = 12 * POINT_PX
H = 13 * POINT_PX
FIELD = (205, 225, 235)  # cream, BGR
POINTS = ((40, 40, 170), (45, 45, 45))  # red and near-black triangles
LIGHT_BGR, DARK_BGR = (235, 240, 240), (30, 30, 30)


def _geometry() -> BoardGeometry:
    cols = tuple((i + 0.5) * POINT_PX for i in range(12))
    corners = ((0.0, 0.0), (float(W), 0.0), (float(W), float(H)), (0.0, float(H)))
    return BoardGeometry(np.eye(3), (W, H), cols, None, (W, H), 1.0, corners)


def _board(stacks: dict[tuple[int, bool], tuple[str, int]]) -> np.ndarray:
    img = np.full((H, W, 3), FIELD, np.uint8)
    tip = int(0.42 * H)
    for i in range(12):
        x0, x1 = i * POINT_PX, (i + 1) * POINT_PX
        for top in (True, False):
            colour = POINTS[(i + (0 if top else 1)) % 2]
            base_y, tip_y = (0, tip) if top else (H - 1, H - 1 - tip)
            tri = np.array([[x0, base_y], [x1, base_y], [(x0 + x1) // 2, tip_y]], np.int32)
            cv2.fillConvexPoly(img, tri, colour, lineType=cv2.LINE_AA)
    r = int(0.45 * POINT_PX)
    for (col, top), (name, count) in stacks.items():
        fill = LIGHT_BGR if name == LIGHT else DARK_BGR
        for k in range(count):
            cy = r + 1 + 2 * r * k if top else H - 2 - r - 2 * r * k
            cx = int((col + 0.5) * POINT_PX)
            cv2.circle(img, (cx, cy), r, fill, -1, lineType=cv2.LINE_AA)
            cv2.circle(img, (cx, cy), r, (170, 170, 170), 2, lineType=cv2.LINE_AA)  # the rim
    return img


def _grad(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)
    gx = cv2.Sobel(lab[:, :, 0], cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lab[:, :, 0], cv2.CV_32F, 0, 1, ksize=3)
    return gx, gy


def test_ring_score_is_high_on_a_disc_and_low_beside_it() -> None:
    img = np.full((100, 100, 3), 200, np.uint8)
    cv2.circle(img, (50, 50), 14, (20, 20, 20), -1, lineType=cv2.LINE_AA)
    gx, gy = _grad(img)
    on = ring_scores(gx, gy, np.array([50.0]), np.array([50.0]), 14.0)[0]
    off = ring_scores(gx, gy, np.array([62.0]), np.array([50.0]), 14.0)[0]
    assert on >= 0.9 and off < 0.5


def test_ring_score_is_low_on_a_straight_edge() -> None:
    img = np.full((100, 100, 3), 200, np.uint8)
    img[:, 50:] = 30
    gx, gy = _grad(img)
    assert ring_scores(gx, gy, np.array([50.0]), np.array([50.0]), 14.0)[0] < 0.4


@pytest.mark.parametrize("height", [1, 2, 3, 4, 5, 6])
def test_stacks_of_every_height_in_both_rows(height: int) -> None:
    want = {
        (1, True): (LIGHT, height), (6, True): (DARK, 2), (3, False): (DARK, height), (10, False): (LIGHT, 1)
    }
    got = count_stacks(_board(want), _geometry())
    counts = {(s.column, s.top): s.count for s in got}
    for key, (_, n) in want.items():
        assert counts[key] == n, key
    assert sum(counts.values()) == sum(n for _, n in want.values())


def test_dark_checkers_on_dark_points_are_counted() -> None:
    # column 1 of the top row and column 0 of the bottom row carry the near-black triangles
    want = {(1, True): (DARK, 3), (0, False): (DARK, 2), (4, False): (LIGHT, 4)}
    got = count_stacks(_board(want), _geometry())
    counts = {(s.column, s.top): s.count for s in got}
    assert counts[(1, True)] == 3 and counts[(0, False)] == 2 and counts[(4, False)] == 4


def test_colours_are_named_by_lightness() -> None:
    want = {(0, True): (LIGHT, 2), (5, True): (DARK, 3), (8, False): (LIGHT, 1), (2, False): (DARK, 1)}
    stacks = count_stacks(_board(want), _geometry())
    names = name_colours(stacks)
    by_key = {(s.column, s.top): n for s, n in zip(stacks, names, strict=True)}
    for key, (name, _) in want.items():
        assert by_key[key] == name
    assert all(n is None for s, n in zip(stacks, names, strict=True) if s.count == 0)


def test_one_colour_on_the_board_is_one_name() -> None:
    stacks = [StackReading(0, True, 2, (200.0, 128.0, 128.0), 1.0), StackReading(1, True, 0, None, 1.0),
              StackReading(2, False, 3, (205.0, 127.0, 129.0), 1.0)]
    assert name_colours(stacks) == [LIGHT, None, LIGHT]


def test_one_colour_in_uneven_light_is_one_name() -> None:
    """A lamp to one side: a light stack in the shade looks far darker than one in full light, but
    the bare points beside it are as much darker; compared in the field's average light, one name."""
    stacks = [StackReading(4, True, 1, (238.0, 127.0, 149.0), 1.0, light=1.1),
              StackReading(5, False, 2, (183.0, 128.0, 145.0), 1.0, light=0.85)]
    assert name_colours(stacks) == [LIGHT, LIGHT]
    # the same two colours in one light are two
    even = [StackReading(s.column, s.top, s.count, s.colour_lab, 1.0) for s in stacks]
    assert name_colours(even) == [LIGHT, DARK]


def test_empty_board_has_no_checkers() -> None:
    got = count_stacks(_board({}), _geometry())
    assert all(s.count == 0 for s in got) and len(got) == 24


def test_a_stack_whose_first_checker_shows_no_rim_is_counted_whole() -> None:
    """A dark checker on a dark point at the base, its rim lost in the frame's shadow (boards-real:
    black on black, gold on gold): the checkers in line above it stand on something."""
    want = {(1, True): (DARK, 3), (4, False): (DARK, 3), (8, True): (LIGHT, 2)}
    img = _board(want)
    r = int(0.45 * POINT_PX)
    for col, top in ((1, True), (4, False)):  # the first checker: no rim, the point's own colour
        cy = r + 1 if top else H - 2 - r
        cv2.circle(img, (int((col + 0.5) * POINT_PX), cy), r + 2, POINTS[(col + (0 if top else 1)) % 2], -1)
    got = {(s.column, s.top): s.count for s in count_stacks(img, _geometry()) if s.count}
    assert got == {(1, True): 3, (4, False): 3, (8, True): 2}


def test_an_empty_board_reads_no_checker_at_the_bases() -> None:
    assert not any(s.count for s in count_stacks(_board({}), _geometry()))


def _lab(img: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(img, cv2.COLOR_BGR2LAB).astype(np.float32)


def _bare_colours(img: np.ndarray) -> np.ndarray:
    """The drawn board's bare colours (both triangle colours and the field), Lab float (3, 3)."""
    bgr = np.array([[POINTS[0], POINTS[1], FIELD]], np.uint8)
    return _lab(bgr)[0]


def test_a_column_with_its_first_gap_bare_holds_no_pile() -> None:
    """The notches beside the gap between a column's first two checkers show the board unless a
    sixth checker rests over that gap (the pile's second layer)."""
    r = int(0.45 * POINT_PX)
    img = _board({(3, True): (LIGHT, 5)})
    cx = (3 + 0.5) * POINT_PX
    pair = [(cx, float(r + 1)), (cx, float(3 * r + 1))]
    light = tuple(float(v) for v in _lab(np.array([[LIGHT_BGR]], np.uint8))[0, 0])
    assert _gap_bare(_lab(img), pair, light, _bare_colours(img), float(r))
    piled = img.copy()
    cv2.circle(piled, (int(cx), 2 * r + 1), r, LIGHT_BGR, -1, lineType=cv2.LINE_AA)
    assert not _gap_bare(_lab(piled), pair, light, _bare_colours(img), float(r))


def test_a_checker_of_the_points_colour_leaves_the_pile_open() -> None:
    """Dark checkers on a dark point: the notches look like the stack, so they cannot veto a pile."""
    r = int(0.45 * POINT_PX)
    img = _board({(1, True): (DARK, 5)})  # column 1 of the top row: a near-black point
    cx = (1 + 0.5) * POINT_PX
    pair = [(cx, float(r + 1)), (cx, float(3 * r + 1))]
    dark = tuple(float(v) for v in _lab(np.array([[POINTS[1]]], np.uint8))[0, 0])
    assert not _gap_bare(_lab(img), pair, dark, _bare_colours(img)[[1]], float(r))


@pytest.mark.parametrize("offset", [0.0, 0.6])
def test_a_hinge_on_the_bar_is_an_upright_rectangle_not_a_checker(offset: float) -> None:
    """A case's hinge lies on the bar as an upright rectangle nearly as wide as the bar and longer
    than a checker is wide (the ring may find its disc toward one end, ``offset`` radii along): a
    rectangle's outline explains its edges far better than a circle's; a checker's circle stays the
    better fit."""
    r = 0.42 * POINT_PX
    x0, x1 = 60 - int(0.9 * r), 60 + int(0.9 * r)  # a dark bar 1.8 radii wide
    img = np.full((200, 120, 3), (200, 215, 220), np.uint8)
    img[:, x0:x1] = (40, 35, 30)
    disc = img.copy()
    cv2.rectangle(img, (60 - int(0.7 * r), 100 - int(1.5 * r)), (60 + int(0.7 * r), 100 + int(1.5 * r)),
                  (90, 180, 200), -1)  # brass
    cv2.circle(disc, (60, 100), int(r), (90, 180, 200), -1, lineType=cv2.LINE_AA)
    inner = (x0 + 0.2 * r, x1 - 0.2 * r)
    for picture, rectangle, along in ((img, True, offset), (disc, False, 0.0)):
        gx, gy = colour_gradient(_lab(cv2.GaussianBlur(picture, (3, 3), 0)))
        square, circle = _outline_fits(gx, gy, (60.0, 100.0 + along * r), r, inner)
        assert (square >= circle + _SQUARE_BETTER) == rectangle, (rectangle, square, circle)


def test_a_gold_checker_in_the_light_is_still_gold() -> None:
    """Metallic checkers swing in lightness from shadow to glare far more than in hue: a gold checker
    as light as the white ones (nearer them in plain Lab) keeps the gold ones' name."""
    gold = [(102.0, 138.0, 160.0), (114.0, 136.0, 160.0), (124.0, 135.0, 165.0), (138.0, 134.0, 165.0),
            (174.0, 130.0, 169.0)]
    white = [(190.0, 129.0, 128.0), (196.0, 128.0, 129.0), (206.0, 127.0, 130.0)]
    stacks = [StackReading(i, True, 1, c, 1.0) for i, c in enumerate(gold + white)]
    assert name_colours(stacks) == [DARK] * len(gold) + [LIGHT] * len(white)


@pytest.mark.parametrize("overhang", [4, 8, 10])
def test_a_dark_checker_overhanging_the_fields_end_is_counted(overhang: int) -> None:
    """A dark checker on the outer dark point, pushed against the frame: its rim beyond the field's
    end is out of the rectified view, and it is judged on the rim it shows."""
    img = _board({(4, False): (LIGHT, 2)})
    r = int(0.45 * POINT_PX)
    cx, cy = int(0.5 * POINT_PX) - overhang, H - 2 - r  # column 0 of the bottom row: near-black
    cv2.circle(img, (cx, cy), r, DARK_BGR, -1, lineType=cv2.LINE_AA)
    cv2.circle(img, (cx, cy), r, (170, 170, 170), 2, lineType=cv2.LINE_AA)
    counts = {(s.column, s.top): s.count for s in count_stacks(img, _geometry()) if s.count}
    assert counts == {(0, False): 1, (4, False): 2}


def _stacks_of(colours: list[tuple[float, float, float]]) -> list[StackReading]:
    """One checker a stack; the last is known by its rim alone."""
    return [StackReading(i % 12, i < 12, 1, c, 1.0, ((16.0 + 32 * (i % 12), 16.0),), 13.0,
                         rim_only=i == len(colours) - 1)
            for i, c in enumerate(colours)]


def test_a_disc_known_by_its_rim_in_a_third_colour_is_no_checker() -> None:
    """A set has two colours: a disc of its point's own colour (judged by its rim alone) whose colour
    is neither of the two the other stacks show is something else (a die's glow on a black point)."""
    white, gold, black = (196.0, 128.0, 129.0), (120.0, 136.0, 163.0), (14.0, 130.0, 125.0)
    stacks = _stacks_of([white, white, gold, gold, gold, black])
    got = drop_third_colour(stacks)
    assert [s.count for s in got] == [1, 1, 1, 1, 1, 0]
    # black checkers shown elsewhere (on points of the other colour): a black one on a black point stays
    stacks = _stacks_of([white, white, black, black, black, black])
    assert [s.count for s in drop_third_colour(stacks)] == [1] * 6
    # one colour shown: the other may stand only on points of its own colour
    stacks = _stacks_of([white, white, white, black])
    assert [s.count for s in drop_third_colour(stacks)] == [1] * 4


@pytest.mark.parametrize("shape", [(7, 24), (3, 5, 16), (2, 1, 8), (4, 10)])
def test_ring_counts_equal_numpys_sum(shape: tuple[int, ...]) -> None:
    """The ring score's count of true samples is numpy's bool sum, on any last axis."""
    from vision.checkers.stacks import _count_true

    flags = np.random.default_rng(len(shape)).random(shape) > 0.5
    assert np.array_equal(_count_true(flags), flags.sum(axis=-1))
    assert np.array_equal(_count_true(flags[..., ::2]), flags[..., ::2].sum(axis=-1))  # not contiguous


def test_a_frame_read_in_part_with_its_own_look_reads_as_in_full() -> None:
    """Read in part with the field's measures of the same frame (the incremental reader's
    FieldLook), the points read again come out as the full reading's, and the look is its own."""
    from vision.board.calibration import calibrate
    from vision.board.view import FieldView
    from vision.checkers.stacks import count_stacks_kept
    from vision.render.scene import Camera, random_spec, render

    img = render(random_spec(3, style="wood"), size=(960, 540), camera=Camera(tilt_deg=5), seed=3).image
    calib = calibrate(img)
    assert calib is not None and calib.checker_radius
    geom, r = calib.geometry, calib.checker_radius
    full, look = count_stacks_kept(FieldView.of_frame(img, geom), geom, r)
    assert sum(s.count for s in full) > 0
    only = {(2, True), (3, True), (8, False)}
    # the unread points from a reading of nothing: only the points read can match the full one
    blank = [StackReading(s.column, s.top, 0, None, 0.0) for s in full]
    part, again = count_stacks_kept(FieldView.of_frame(img, geom), geom, r, only, blank, look)
    for s, p, b in zip(full, part, blank, strict=True):
        assert p == (s if (s.column, s.top) in only else b)
    assert np.array_equal(again.along, look.along) and np.array_equal(again.lights, look.lights)

def test_a_stack_is_not_run_into_the_field_beyond_its_tip_where_it_is_the_stacks_colour() -> None:
    """Four grey checkers on a dark point, the field beyond the point's tip shaded to their grey
    there and cream elsewhere (the bar's shadow over the points beside it, as on boards-real
    test1): the stack's colour run does not go on over the shaded field -- four, not five or six."""
    grey = (150, 150, 150)
    img = _board({})
    r = int(0.45 * POINT_PX)
    cx = int(5.5 * POINT_PX)
    img[8 * r + 2 : H // 2, cx - int(0.6 * POINT_PX) : cx + int(0.6 * POINT_PX)] = grey
    for k in range(4):
        cy = r + 1 + 2 * r * k
        cv2.circle(img, (cx, cy), r, grey, -1, lineType=cv2.LINE_AA)
        cv2.circle(img, (cx, cy), r, (90, 90, 90), 2, lineType=cv2.LINE_AA)
    got = {(s.column, s.top): s.count for s in count_stacks(img, _geometry())}
    assert got[(5, True)] == 4


def test_a_sliver_of_the_stacks_colour_past_its_last_checker_is_no_checker() -> None:
    """A colour run bridges short gaps (the faint edge between touching checkers), but past a gap
    the colour must run on as far as a gap may be long: a sliver beyond the last checker's rim (its
    shadow on a wooden field, boards-real test6) is not part of the stack; the next checker's body
    after a faint edge is."""
    r = 14.0
    blue, field = (120.0, 150.0, 90.0), (200.0, 128.0, 140.0)
    lab = np.tile(np.float32(field), (400, 20, 1))
    lab[0:112] = blue  # four checkers from the base (y 0) on, their shared edges too faint to see
    lab[56:60] = field  # ... but one: a gap of four rows, bridged
    lab[118:126] = blue  # past a gap of six rows after the last one's rim, a sliver of eight
    bare = np.float32([field, (40.0, 128.0, 128.0)])
    run = _colour_run(lab, [(10.0, r)], blue, bare, r, True)
    assert run == 112.0


def test_a_tall_piles_overlapping_layers_run_on_past_bands_narrower_than_a_gap() -> None:
    """A tall pile's upper layers overlap, each showing a band of the stack's colour narrower than a
    gap may be long, one after another: their rows are summed over the bridged gaps, so the run
    goes on to the pile's last band (a lone sliver past the last checker still does not count)."""
    r = 14.0
    blue, field = (120.0, 150.0, 90.0), (200.0, 128.0, 140.0)
    lab = np.tile(np.float32(field), (400, 20, 1))
    lab[0:56] = blue  # two checkers from the base
    for top in range(59, 59 + 4 * 12, 12):
        lab[top : top + 9] = blue  # four bands of 9 rows (a gap may be 9), 3 rows apart
    bare = np.float32([field, (40.0, 128.0, 128.0)])
    run = _colour_run(lab, [(10.0, r)], blue, bare, r, True)
    assert run == 59 + 3 * 12 + 9.0


def test_a_piles_reach_is_followed_as_the_light_falls_off_along_it() -> None:
    """A tall pile's discs grow lighter from the frame's shadow at its base to the open field: the
    reach over them follows lightness drifting past the same-stack bound (hue unchanged), and
    stops at a disc of another hue."""
    d = 30.0
    ys = np.arange(0.0, 200.0, 2.0)
    score = np.zeros_like(ys)
    inside = np.tile(np.float32([180.0, 128.0, 145.0]), (ys.size, 1))
    for k, y in enumerate(range(16, 140, 14)):  # a ring every half diameter, 6 lighter each time
        score[ys == y] = 0.9
        inside[ys == y] = (180.0 + 6 * k, 128.0, 145.0)
    xs = np.zeros_like(ys)
    start = int(np.flatnonzero(ys == 16)[0])
    assert _reach(score, ys, d, 190.0, inside, xs, start) == 128.0
    inside[ys >= 72] = (200.0, 128.0, 185.0)  # another hue from there on: the pile ends before it
    assert _reach(score, ys, d, 190.0, inside, xs, start) == 58.0


def test_a_column_is_chained_as_the_light_falls_off_along_it() -> None:
    """A column of five from the frame's shadow at the base to the open field: each checker a
    little lighter than the one before, past the same-stack bound from the first to the last; the
    chain runs to the fifth, and stops before a disc of another hue."""
    d = 30.0
    ys = np.arange(0.0, 200.0, 2.0)
    score = np.zeros_like(ys)
    inside = np.tile(np.float32([120.0, 128.0, 145.0]), (ys.size, 1))
    for k, y in enumerate(range(14, 150, 30)):  # five discs a diameter apart, 9 lighter each
        score[ys == y] = 0.9
        inside[ys == y] = (177.0 + 9 * k, 128.0, 145.0)
    xs = np.zeros_like(ys)
    assert len(_chain(score, ys, d, 190.0, inside, xs)) == 5
    inside[ys == 134] = (213.0, 128.0, 185.0)
    assert len(_chain(score, ys, d, 190.0, inside, xs)) == 4


def test_a_piles_reach_steps_from_a_layers_checker_to_the_columns_next_whole_one() -> None:
    """The sixth checker lies over the gap between the first two and covers the second: the next
    whole ring is the column's third, one and a half steps on -- a little more than one and a half
    diameters where the peaks fall a sample or two apart; the reach gets there, and no further
    than a ring two diameters on."""
    d = 27.0
    ys = np.arange(0.0, 200.0, 2.0)
    score = np.zeros_like(ys)
    inside = np.tile(np.float32([190.0, 128.0, 145.0]), (ys.size, 1))
    xs = np.zeros_like(ys)
    for y in (26, 68, 96, 124):  # the sixth over the gap, then the column's third to fifth
        score[ys == y] = 1.0
    start = int(np.flatnonzero(ys == 26)[0])
    assert _reach(score, ys, d, 190.0, inside, xs, start) == 124.0
    score[:] = 0.0
    score[(ys == 26) | (ys == 80)] = 1.0
    assert _reach(score, ys, d, 190.0, inside, xs, start) == 26.0


def test_median_gap_is_numpys() -> None:
    """A column's median gap, taken in Python, is np.median's of np.diff, bit for bit."""
    from vision.checkers.stacks import _median_gap

    rng = np.random.default_rng(5)
    for n in (2, 3, 4, 5, 6):
        for _ in range(200):
            column = sorted((rng.random(n) * 200.0).tolist())
            assert _median_gap(column) == float(np.median(np.diff(column)))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("r", [5.0, 7.5, 11.3])
def test_ring_scores_at_pixels_equal_ring_scores(seed: int, r: float) -> None:
    """The whole-pixel gather (trays' flat-disc search) gives ring_scores' very values, rings cut by
    the view's edges included."""
    rng = np.random.default_rng(seed)
    h, w = 60, 90
    gx = rng.normal(0, 20, (h, w)).astype(np.float32)
    gy = rng.normal(0, 20, (h, w)).astype(np.float32)
    xs = rng.integers(0, w, 400)
    ys = rng.integers(0, h, 400)
    want = ring_scores(gx, gy, xs.astype(np.float64), ys.astype(np.float64), r)
    got = ring_scores_at_pixels(gx, gy, xs, ys, r)
    assert np.array_equal(got, want)
    assert len(ring_scores_at_pixels(gx, gy, xs[:0], ys[:0], r)) == 0


def test_a_column_steps_by_its_rows_measured_step() -> None:
    """Checkers wider than the ring's diameter stand 1.29 ring diameters apart: one diameter's
    search (to 1.2) loses the column after its first; the row's measured step finds all five."""
    d = 28.0
    ys = np.arange(0.0, 220.0, 2.0)
    score = np.zeros_like(ys)
    for y in (14, 50, 86, 122, 158):  # 36 px apart: 1.29 d
        score[ys == y] = 0.9
    inside = np.tile(np.float32([200.0, 128.0, 128.0]), (ys.size, 1))
    xs = np.zeros_like(ys)
    assert len(_chain(score, ys, d, 200.0, inside, xs)) == 1
    assert len(_chain(score, ys, d, 200.0, inside, xs, step=_stack_step([np.full(4, 36.0)], d))) == 5


def test_a_rows_step_is_its_chains_median_gap_when_enough_and_plausible() -> None:
    d = 28.0
    assert _stack_step([np.array([32.0, 30.0]), np.array([34.0])], d) == 32.0
    assert _stack_step([np.array([32.0, 30.0])], d) == d  # too few gaps
    assert _stack_step([], d) == d
    assert _stack_step([np.full(5, 40.0)], d) == d  # over 1.3 diameters: no stack's step


def test_a_disc_between_two_candidate_centres_is_placed_between_them() -> None:
    """The ring scores of five centres 4 px apart peaking equally at two neighbours put the disc
    midway; a clear peak stays; the grid's end stays where it is."""
    cols = np.array([100.0])
    scores = np.array([[[0.2, 0.5, 0.8, 0.8, 0.5], [0.2, 0.5, 0.9, 0.5, 0.2], [0.1, 0.2, 0.3, 0.5, 0.9]]])
    arg = scores.argmax(axis=2)
    x = _between_shifts(scores, arg, cols)[0]
    assert x[0] == pytest.approx(100.0 + 0.5 * _SHIFT_STEP)
    assert x[1] == pytest.approx(100.0)
    assert x[2] == pytest.approx(100.0 + 2 * _SHIFT_STEP)


def test_base_reach_is_the_share_of_the_ring_inside_the_base_line() -> None:
    """A disc clear of the base shows its whole ring; one whose rim crosses the base line shows the
    part inside it (the rest at half credit); one centred on the line shows too little to score."""
    r = 14.0
    reach = _base_reach(np.array([2 * r, r, 0.5 * r, 0.0]), r)
    assert reach[0] == reach[1] == 1.0  # (a disc resting on the base touches it, no more)
    hidden = 7  # the samples from 45 to 135 degrees lie beyond a line half a radius from the centre
    assert reach[2] == pytest.approx((_RING_N - hidden) / (_RING_N - 0.5 * hidden))
    assert reach[3] == 0.0
    assert np.all(np.diff(_base_reach(np.linspace(0.0, 2 * r, 29), r)) >= 0)
