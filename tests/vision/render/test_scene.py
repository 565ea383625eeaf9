"""The board renderer's ground truth is self-consistent for every style, set-up, view, stack height
and die status (issue 4 item 7): counts as described, every image_xy inside the image and on its own
point, dice where their status says, the same seed giving the same image."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.reading import DARK, LIGHT, DieStatus, FrameStatus
from vision.render.draw import PALETTES, VARIANTS
from vision.render.geometry import apply_h, layout_for
from vision.render.scene import (
    BoardSpec,
    Camera,
    DieSpec,
    RenderError,
    light_point_to_slot,
    random_spec,
    render,
    stack_positions,
    starting_spec,
)

SMALL = (640, 360)


def _inside(quad: np.ndarray, xy: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(quad.astype(np.float32), (float(xy[0]), float(xy[1])), False) >= 0


def _check_truth(r, spec: BoardSpec) -> None:
    truth = r.truth
    w, h = truth.image_size
    assert r.image.shape == (h, w, 3) and r.image.dtype == np.uint8
    assert truth.board_found and len(truth.points) == 24
    assert [p.slot for p in truth.points] == list(range(24))
    assert truth.counts() == spec.points
    for p in truth.points:
        x, y = p.image_xy
        assert 0 <= x < w and 0 <= y < h, p
        assert _inside(r.point_quads[p.slot], p.image_xy)
        others = [s for s in range(24) if s != p.slot and _inside(r.point_quads[s], p.image_xy)]
        assert others == [], (p.slot, others)
    assert truth.has_bar == (spec.style != "paper")


@pytest.mark.parametrize("style", ["paper", "wood", "tournament"])
@pytest.mark.parametrize("home", ["right", "left"])
@pytest.mark.parametrize("view", ["rectified", "perspective"])
def test_starting_position_truth(style: str, home: str, view: str) -> None:
    spec = starting_spec(style, home, dice=(DieSpec(3), DieSpec(5)))
    r = render(spec, size=SMALL, view=view, seed=7)
    _check_truth(r, spec)
    totals = {LIGHT: 0, DARK: 0}
    for colour, n in r.truth.counts():
        if colour:
            totals[colour] += n
    assert totals == {LIGHT: 15, DARK: 15}
    # RULES.md B3: light's 6-point holds five, in the home board on the chosen side
    six = r.truth.points[light_point_to_slot(6, home)]
    assert (six.colour, six.count) == (LIGHT, 5)
    centre_x = r.board_corners[:, 0].mean()
    assert (six.image_xy[0] > centre_x) == (home == "right") or view == "perspective"


def test_slot_order_follows_design() -> None:
    """DESIGN.md: slots 0-11 along the bottom right to left, 12-23 along the top left to right."""
    r = render(starting_spec("wood"), size=SMALL, view="rectified", seed=0)
    xy = np.array([p.image_xy for p in r.truth.points])
    assert np.all(np.diff(xy[:12, 0]) < 0) and np.all(np.diff(xy[12:, 0]) > 0)
    assert np.all(xy[:12, 1] > xy[12:, 1].max())


@pytest.mark.parametrize("count", range(16))
@pytest.mark.parametrize("style,pile", [("paper", "layer"), ("wood", "beside"), ("tournament", "layer")])
@pytest.mark.parametrize("view", ["rectified", "perspective"])
def test_stack_heights(count: int, style: str, pile: str, view: str) -> None:
    pts = [(None, 0)] * 24
    pts[3] = (DARK, count) if count else (None, 0)
    pts[20] = (LIGHT, count) if count else (None, 0)
    spec = BoardSpec(points=tuple(pts), style=style, pile=pile, cube_position=None)
    cam = Camera(tilt_deg=15, roll_deg=-4)
    r = render(spec, size=(960, 540), view=view, camera=cam, seed=count, lighting=0, noise=0)
    _check_truth(r, spec)
    lay = layout_for(style)
    pal = PALETTES[style]
    for slot, colour in ((3, DARK), (20, LIGHT)):
        pos = stack_positions(lay, slot, count, pile)
        assert len(pos) == count
        if count:
            # the checker drawn last lies on top: its centre shows the checker's colour, and it is
            # still within the point's half of the board
            (x, y), = apply_h(r.homography, np.array([pos[-1]]))
            got = r.image[int(round(y)), int(round(x))].astype(int)
            assert np.abs(got - np.array(pal[colour])).max() < 40, (got, pal[colour])
            field = lay.field
            mid = (field[1] + field[3]) / 2
            assert all((py > mid) == (slot < 12) for _, py in pos)


@pytest.mark.parametrize("status", list(DieStatus))
@pytest.mark.parametrize("view", ["rectified", "perspective"])
def test_every_die_status(status: DieStatus, view: str) -> None:
    spec = random_spec(11, style="wood", with_dice=False)
    spec = BoardSpec(**{**spec.__dict__, "dice": (DieSpec(4, status), DieSpec(2))})
    r = render(spec, size=SMALL, view=view, seed=3)
    _check_truth(r, spec)
    d = r.truth.dice[0]
    assert (d.value, d.status) == (4, status)
    w, h = r.truth.image_size
    x, y = d.image_xy
    assert 0 <= x < w and 0 <= y < h
    board_xy = apply_h(np.linalg.inv(r.homography), np.array([d.image_xy]))[0]
    lay = layout_for("wood")
    fx0, fy0, fx1, fy1 = lay.field
    on_board = 0 <= board_xy[0] <= 1000 and 0 <= board_xy[1] <= lay.board_h
    if status == DieStatus.OFF_BOARD:
        assert not on_board
    else:
        assert fx0 <= board_xy[0] <= fx1 and fy0 <= board_xy[1] <= fy1
    if status in (DieStatus.FLAT, DieStatus.COCKED, DieStatus.ON_CHECKER):
        assert board_xy[0] > lay.bar[1]  # the bottom roller's right-hand half (RULES.md B15)
    if status == DieStatus.WRONG_HALF:
        assert board_xy[0] < lay.bar[0]
    if status == DieStatus.ON_BAR:
        assert lay.bar[0] <= board_xy[0] <= lay.bar[1]
    if status == DieStatus.ON_CHECKER:
        centres = [c for s, (_, n) in enumerate(spec.points) for c in stack_positions(lay, s, n, spec.pile)]
        assert min(np.hypot(cx - board_xy[0], cy - board_xy[1]) for cx, cy in centres) < 1e-6


def test_paper_board_die_on_bar_is_refused() -> None:
    spec = BoardSpec(
        points=starting_spec("paper").points, style="paper", dice=(DieSpec(3, DieStatus.ON_BAR),)
    )
    with pytest.raises(RenderError, match="no bar"):
        render(spec, size=SMALL)


@pytest.mark.parametrize(
    "change,match",
    [
        ({"style": "marble"}, "style"),
        ({"home": "top"}, "home"),
        ({"points": ((LIGHT, 16),) + ((None, 0),) * 23}, "0-15"),
        ({"points": ((LIGHT, 10), (LIGHT, 6)) + ((None, 0),) * 22}, "at most 15"),
        ({"points": ((None, 2),) + ((None, 0),) * 23}, "colour"),
        ({"points": ((None, 0),) * 23}, "24"),
        ({"dice": (DieSpec(7),)}, "1-6"),
        ({"cube_value": 3}, "cube_value"),
    ],
)
def test_impossible_specs_are_refused(change: dict, match: str) -> None:
    spec = BoardSpec(**{**starting_spec("wood").__dict__, **change})
    with pytest.raises(RenderError, match=match):
        render(spec, size=SMALL)
    assert issubclass(RenderError, ValueError)


def test_same_seed_same_image_other_seed_other_image() -> None:
    spec = random_spec(5, style="tournament")
    a = render(spec, size=SMALL, seed=9, blur=0.8, occluder="hand")
    b = render(spec, size=SMALL, seed=9, blur=0.8, occluder="hand")
    c = render(spec, size=SMALL, seed=10, blur=0.8, occluder="hand")
    assert np.array_equal(a.image, b.image) and a.truth == b.truth
    assert not np.array_equal(a.image, c.image)


def test_hand_occluder_marks_truth_occluded() -> None:
    spec = starting_spec("paper")
    r = render(spec, size=SMALL, seed=2, occluder="hand")
    assert r.truth.occluded and r.truth.status == FrameStatus.OCCLUDED
    assert r.hand_mask is not None and r.hand_mask.shape == (SMALL[1], SMALL[0])
    board = np.zeros_like(r.hand_mask)
    cv2.fillConvexPoly(board, r.board_corners.astype(np.int32), 255)
    assert np.count_nonzero(r.hand_mask & board) > 0.01 * np.count_nonzero(board)
    clear = render(spec, size=SMALL, seed=2)
    assert not clear.truth.occluded and clear.hand_mask is None


def test_portrait_camera_turns_the_board() -> None:
    spec = starting_spec("wood")
    r = render(spec, size=(720, 1280), camera=Camera(roll_deg=90, tilt_deg=10), seed=1)
    _check_truth(r, spec)
    span = r.board_corners.max(axis=0) - r.board_corners.min(axis=0)
    assert span[1] > span[0]  # the long side runs down the image


def test_bar_off_and_cube_truth() -> None:
    pts = list(starting_spec("wood").points)
    pts[light_point_to_slot(6)] = (LIGHT, 1)  # 4 light off, 2 light... keep 15 a side
    spec = BoardSpec(points=tuple(pts), bar={LIGHT: 2}, off={LIGHT: 2, DARK: 0}, style="wood",
                     cube_value=8, cube_position="bottom")
    r = render(spec, size=SMALL, view="rectified", seed=0)
    assert r.truth.bar == {LIGHT: 2} and r.truth.off == {LIGHT: 2}
    assert r.truth.cube.value == 8 and r.truth.cube.position == "bottom"
    cx, cy = r.truth.cube.image_xy
    assert cy > r.board_corners[:, 1].mean()
    js = r.truth.to_json()
    assert js["cube"]["value"] == 8 and len(js["points"]) == 24


def test_noise_lighting_and_blur_change_pixels_not_truth() -> None:
    spec = starting_spec("paper")
    clean = render(spec, size=SMALL, view="rectified", seed=4, lighting=0, noise=0)
    rough = render(spec, size=SMALL, view="rectified", seed=4, lighting=0.8, noise=8, blur=1.5, glare=0.7,
                   jpeg_quality=50)
    assert clean.truth == rough.truth
    diff = np.abs(clean.image.astype(int) - rough.image.astype(int))
    assert diff.mean() > 3


def test_checker_colours_override_and_top_roller() -> None:
    """Black checkers on black points (boards-real) and the top player's roll, whose right-hand half
    is the left of the rectified view (RULES.md B15)."""
    pts = [(None, 0)] * 24
    pts[1] = (DARK, 3)
    spec = BoardSpec(points=tuple(pts), style="tournament", checker_colours=((90, 200, 230), (20, 20, 20)),
                     roller="top", dice=(DieSpec(6),), cube_position=None)
    r = render(spec, size=SMALL, view="rectified", seed=0, lighting=0, noise=0)
    lay = layout_for("tournament")
    (x, y), = apply_h(r.homography, np.array([stack_positions(lay, 1, 3)[-1]]))
    assert np.abs(r.image[int(y), int(x)].astype(int) - 20).max() < 25
    die_x = apply_h(np.linalg.inv(r.homography), np.array([r.truth.dice[0].image_xy]))[0, 0]
    assert die_x < lay.bar[0]


@pytest.mark.parametrize("n", [1, 3, 8, 15])
def test_bar_checkers_stay_on_the_bar(n: int) -> None:
    from vision.render.scene import bar_positions

    lay = layout_for("wood")
    for colour in (LIGHT, DARK):
        pos = bar_positions(lay, colour, n, "right")
        assert len(pos) == n
        for x, y in pos:
            assert lay.bar[0] <= x <= lay.bar[1] and lay.field[1] < y < lay.field[3]
        mid = (lay.field[1] + lay.field[3]) / 2
        assert all((y < mid) == (colour == LIGHT) for _, y in pos)


@pytest.mark.parametrize("style,variant", [(s, v) for s in VARIANTS for v in range(len(VARIANTS[s]) + 1)])
def test_every_look_renders_with_consistent_truth(style: str, variant: int) -> None:
    spec = random_spec(variant + 3, style=style, variant=variant)
    r = render(spec, size=SMALL, seed=variant)
    _check_truth(r, spec)
    with pytest.raises(RenderError, match="variant"):
        render(BoardSpec(**{**spec.__dict__, "variant": len(VARIANTS[style]) + 1}), size=SMALL)


def test_clutter_stands_beside_the_board_not_on_it() -> None:
    spec = random_spec(2, style="tournament")
    cam = Camera(tilt_deg=4, fill=0.6)
    plain = render(spec, size=SMALL, camera=cam, seed=5, noise=0, lighting=0)
    busy = render(spec, size=SMALL, camera=cam, seed=5, noise=0, lighting=0, clutter=True)
    assert plain.truth == busy.truth
    # (the board itself resamples a little differently: a wider canvas is warped)
    diff = np.abs(plain.image.astype(int) - busy.image.astype(int)).max(axis=2)
    changed = (diff > 60).astype(np.uint8)
    board = np.zeros_like(changed)
    cv2.fillConvexPoly(board, np.round(busy.board_corners).astype(np.int32), 1)
    assert changed.sum() > 500  # something was added ...
    assert (changed & board).sum() < 0.01 * changed.sum()  # ... beside the board


@pytest.mark.parametrize("style", ["paper", "wood"])
def test_regions_hold_what_lies_there(style: str) -> None:
    spec = BoardSpec(points=starting_spec(style).points, style=style,
                     dice=(DieSpec(2, DieStatus.ON_BAR),) if style == "wood" else (DieSpec(2),))
    r = render(spec, size=SMALL, seed=1)
    assert set(r.regions) == ({"field", "bar", "tray_left", "tray_right"} if style == "wood" else {"field"})
    for p in r.truth.points:
        assert _inside(r.regions["field"], p.image_xy)
    if style == "wood":
        assert _inside(r.regions["bar"], r.truth.dice[0].image_xy)


@pytest.mark.parametrize("style", ["paper", "wood"])
@pytest.mark.parametrize("home", ["right", "left"])
def test_cube_lies_away_from_the_borne_off_checkers(style: str, home: str) -> None:
    from vision.render.scene import cube_xy, off_positions

    lay = layout_for(style)
    for position in ("bottom", "top", "centre"):
        cx, cy = cube_xy(lay, position, home)
        for colour in (LIGHT, DARK):
            for x, y, _ in off_positions(lay, colour, 15, home):
                assert np.hypot(cx - x, cy - y) > lay.checker_d, (position, colour)


@pytest.mark.parametrize("style", ["paper", "wood", "tournament"])
def test_random_specs_hold_fifteen_a_side(style: str) -> None:
    for seed in range(40):
        spec = random_spec(seed, style=style, variant=None, max_stack=int(5 + seed % 11))
        spec.validate()
        for colour in (LIGHT, DARK):
            on_points = sum(n for c, n in spec.points if c == colour)
            assert on_points + spec.bar.get(colour, 0) + spec.off.get(colour, 0) == 15
        assert max(n for _, n in spec.points) <= 5 + seed % 11
        if style == "paper":
            assert not spec.bar  # no bar to put them on


def test_straight_camera_sees_a_centred_rectangle_and_a_turned_one_turns_the_slots() -> None:
    from vision.render.geometry import camera_homography

    lay = layout_for("wood")
    h = camera_homography(Camera(fill=0.8), lay.board_h, (1280, 720))
    c = apply_h(h, np.array([[0, 0], [1000, 0], [1000, lay.board_h], [0, lay.board_h]]))
    assert np.allclose(c[0, 1], c[1, 1]) and np.allclose(c[0, 0], c[3, 0])  # axis-aligned
    assert np.allclose(c.mean(axis=0), (640, 360))
    assert np.isclose(c[:, 1].max() - c[:, 1].min(), 0.8 * 720)  # height-limited
    r = render(starting_spec("wood"), size=SMALL, camera=Camera(roll_deg=180), seed=0)
    _check_truth(r, r.spec)
    # turned half round: slot 0 (bottom-right in the rectified view) is now top-left in the image
    x0, y0 = r.truth.points[0].image_xy
    assert x0 < SMALL[0] / 2 and y0 < SMALL[1] / 2


@pytest.mark.parametrize("count", range(16))
@pytest.mark.parametrize("style,pose", [("wood", "edge"), ("tournament", "flat"), ("paper", "flat")])
def test_off_every_count(count: int, style: str, pose: str) -> None:
    """0-15 borne off of a side: truth as asked, every checker in the home side's tray (or beside a
    paper board), none overlapping another by more than 40 % of a diameter; flat rows that cannot fit
    half a tray are refused."""
    from vision.render.scene import off_positions
    from vision.render.spec import RenderError as SpecError

    lay = layout_for(style)
    for colour, home in ((LIGHT, "right"), (DARK, "left")):
        if pose == "flat" and lay.trays and count > 10:
            with pytest.raises(SpecError, match="do not fit"):
                off_positions(lay, colour, count, home, pose)
            continue
        spots = off_positions(lay, colour, count, home, pose)
        assert len(spots) == count
        for x, y, on_edge in spots:
            assert on_edge == (pose == "edge" and bool(lay.trays))
            if lay.trays:
                (tx0, ty0, tx1, ty1), _ = next(t for t in lay.trays if t[1] == home)
                assert tx0 <= x <= tx1 and ty0 <= y <= ty1
                assert (y > (ty0 + ty1) / 2) == (colour == LIGHT)  # light's half is the bottom
            else:
                assert (x > 1000) == (home == "right")
        if not (pose == "edge" and lay.trays):
            for i, (x, y, _) in enumerate(spots):
                for x2, y2, _ in spots[i + 1 :]:
                    assert np.hypot(x - x2, y - y2) >= 0.6 * lay.checker_d - 1e-6
    if pose == "flat" and lay.trays and count > 10:
        return
    spec = random_spec(count, style, off={LIGHT: count}, bar={})
    spec = BoardSpec(**{**spec.__dict__, "off_pose": pose})
    r = render(spec, size=SMALL, view="rectified", seed=count)
    assert r.truth.off == ({LIGHT: count} if count else {})
    _check_truth(r, spec)


@pytest.mark.parametrize("value", [2, 4, 8, 16, 32, 64])
@pytest.mark.parametrize("face", ["dark_on_light", "light_on_dark", "logo"])
def test_cube_every_value_truth(value: int, face: str) -> None:
    spec = BoardSpec(**{**starting_spec("tournament").__dict__, "cube_value": value, "cube_face": face,
                        "cube_angle": 7.0 * value, "cube_position": "bottom"})
    r = render(spec, size=SMALL, view="rectified", seed=1)
    assert r.truth.cube is not None
    assert r.truth.cube.value == (None if face == "logo" else value)
    x, y = r.truth.cube.image_xy
    inside = r.regions["tray_left"]
    assert cv2.pointPolygonTest(inside.astype(np.float32), (float(x), float(y)), False) >= 0


def test_bad_off_pose_and_cube_face_are_refused() -> None:
    with pytest.raises(RenderError, match="off_pose"):
        render(BoardSpec(**{**starting_spec().__dict__, "off_pose": "heap"}), size=SMALL)
    with pytest.raises(RenderError, match="cube_face"):
        render(BoardSpec(**{**starting_spec().__dict__, "cube_face": "mirror"}), size=SMALL)
