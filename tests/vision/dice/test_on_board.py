"""The dice on a board (vision.dice.on_board, vision.dice.board_faces): pips found, d6 layouts read in
any rotation, faces of printing and side faces refused, and -- on the project's renders and the real
labelled frames in ../shared/data -- rolls read right with no roll read wrong (issue 4 item 3;
RULES.md B15: the station asks the players rather than rule on a wrong roll, so precision first)."""

from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from tests.conftest import per_photo, shared_data
from tests.vision.dice.layouts import LAYOUTS
from vision.dice import on_board as bd
from vision.dice.board_faces import find_faces
from vision.dice.layout import Pip
from vision.reading import DieStatus
from vision.render.scene import random_spec, render
from vision.render.spec import BoardSpec, DieSpec

# pip layouts: tests/vision/dice/layouts.py


def _pips(value: int, centre: tuple[float, float], edge: float, angle: float) -> list[Pip]:
    step = 0.28 * edge
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    out = []
    for u, v in LAYOUTS[value]:
        x = centre[0] + step * (c * u - s * v)
        y = centre[1] + step * (s * u + c * v)
        out.append(Pip(x, y, 100.0, True, 0.9, (30.0, 128.0, 128.0), 1.5))
    return out


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("angle", [0.0, 23.0, 45.0, 71.0])
def test_every_face_reads_in_any_rotation(value: int, angle: float) -> None:
    faces = find_faces(_pips(value, (60.0, 50.0), 20.0, angle), (14.0, 20.0, 28.0))
    assert [len(f.members) for f in faces] == [value]
    assert math.dist(faces[0].centre, (60.0, 50.0)) < 1.0


def test_two_touching_dice_are_two_faces() -> None:
    pips = _pips(6, (40.0, 40.0), 20.0, 10.0) + _pips(2, (61.0, 44.0), 20.0, 10.0)
    faces = find_faces(pips, (14.0, 20.0, 28.0))
    assert sorted(len(f.members) for f in faces) == [2, 6]


def test_unlike_pips_make_no_face() -> None:
    """Pips of one face print alike: a strong dot and a faint one (a die's pip and the corner of its
    outline, a side-face pip) are no two."""
    a, b = _pips(2, (40.0, 40.0), 20.0, 0.0)
    faint = Pip(b.x, b.y, a.contrast / 2.5, True, 0.9, b.colour, 1.5)
    assert [len(f.members) for f in find_faces([a, faint], (14.0, 20.0, 28.0))] == [1, 1]


def test_a_refused_six_is_not_read_as_its_rows() -> None:
    pips = _pips(6, (40.0, 40.0), 20.0, 0.0)
    faces = find_faces(pips, (14.0, 20.0, 28.0), accept=lambda f: len(f.members) != 6)
    assert all(len(f.members) not in (2, 3) for f in faces)


def _dice_image(value: int, edge: int = 24) -> np.ndarray:
    img = np.full((120, 160, 3), (225, 228, 230), np.uint8)
    cv2.rectangle(img, (60, 40), (60 + edge, 40 + edge), (245, 245, 245), -1)
    for u, v in LAYOUTS[value]:
        x, y = 60 + edge / 2 + 0.28 * edge * u, 40 + edge / 2 + 0.28 * edge * v
        cv2.circle(img, (round(x), round(y)), max(2, round(0.09 * edge)), (20, 20, 20), -1)
    return img


def test_pips_are_found_and_lines_are_not() -> None:
    img = _dice_image(5)
    cv2.line(img, (5, 100), (150, 110), (40, 40, 40), 1)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    pips = bd.board_pips(lab, bd._sigmas(20.0))
    strong = [p for p in pips if p.contrast > 60]
    assert len(strong) == 5 and all(p.dark and 60 <= p.x <= 84 and 40 <= p.y <= 64 for p in strong)


@pytest.mark.parametrize("value", range(1, 7))
def test_a_drawn_die_passes_its_checks(value: int) -> None:
    lab = cv2.cvtColor(_dice_image(value), cv2.COLOR_BGR2LAB)
    sigmas = bd._sigmas(20.0)
    pips = bd.board_pips(lab, sigmas)
    faces = find_faces(pips, (14.0, 20.0, 28.0), bd._accept(lab, pips, sigmas[0], 20.0))
    assert [len(f.members) for f in faces] == [value]


def test_a_speck_smaller_than_a_pip_is_no_one() -> None:
    """A one's pip is a pip's size; a speck of dust on a black point is deep but tiny, so its blob
    keeps little strength at the pip scale: no die (an empty board read a one; RULES.md B15 -- the
    station would rule on a roll nobody made)."""
    img = np.full((120, 160, 3), (30, 30, 30), np.uint8)
    img[60, 80] = (200, 200, 200)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    sigmas = bd._sigmas(20.0)
    pips = bd.board_pips(lab, sigmas)
    assert pips  # the speck is a blob at the small scale ...
    assert not find_faces(pips, (14.0, 20.0, 28.0), bd._accept(lab, pips, sigmas[0], 20.0))  # ... no one


def test_a_six_whose_middle_pips_blur_away_is_no_lower_face() -> None:
    """A small six in a soft JPEG keeps a third of its middle pips' contrast: its corners make a
    perfect four and its sides perfect twos. The faint middle pips on those faces' bare places and
    rims refuse them: the six is read as six or not at all."""
    img = np.full((120, 160, 3), (225, 228, 230), np.uint8)
    cv2.rectangle(img, (60, 40), (84, 64), (245, 245, 245), -1)
    for u, v in LAYOUTS[6]:
        x, y = 72 + 0.28 * 24 * u, 52 + 0.28 * 24 * v
        grey = 20 if v else 150  # the middle pair faint
        cv2.circle(img, (round(x), round(y)), 2, (grey, grey, grey), -1)
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    sigmas = bd._sigmas(20.0)
    pips = bd.board_pips(lab, sigmas)
    faces = find_faces(pips, (14.0, 20.0, 28.0), bd._accept(lab, pips, sigmas[0], 20.0))
    assert all(len(f.members) == 6 for f in faces)


def _small_die(value: int, edge: int, pip: float) -> np.ndarray:
    """A die of ``edge`` px whose pips are ``pip`` edges in radius, drawn 8 times finer and reduced
    (the anti-aliased pips of a render)."""
    s = 8
    img = np.full((120 * s, 160 * s, 3), (225, 228, 230), np.uint8)
    cv2.rectangle(img, (60 * s, 40 * s), ((60 + edge) * s, (40 + edge) * s), (245, 245, 245), -1)
    for u, v in LAYOUTS[value]:
        x, y = 60 + edge / 2 + 0.28 * edge * u, 40 + edge / 2 + 0.28 * edge * v
        cv2.circle(img, (round(x * s), round(y * s)), round(pip * edge * s), (20, 20, 20), -1, cv2.LINE_AA)
    return cv2.resize(img, (160, 120), interpolation=cv2.INTER_AREA)


def test_a_small_six_with_large_pips_reads() -> None:
    """A small six whose pips are large for it (those of a column nearly touch): each pip's
    isolation ring reaches into its neighbours on the face, which are no stroke; the face reads
    (the demo's renders lost a six on a die 14-17 px across this way)."""
    r, value = 13.4, 6
    lab = cv2.cvtColor(_small_die(value, 14, 0.12), cv2.COLOR_BGR2LAB)
    sigmas = bd._sigmas(r)
    pips = bd.board_pips(lab, sigmas)
    faces = find_faces(pips, tuple(e * r for e in bd._EDGES_OF_RADIUS), bd._accept(lab, pips, sigmas[0], r),
                       bd._ONE_ROUND)
    assert [len(f.members) for f in faces] == [value]


def test_a_two_with_one_unlike_pip_is_no_one() -> None:
    """A two whose pips print unlike (one by a shadow, one blurred) is no face of two; neither pip is
    then a one: a one's pip stands alone, with no round like blob a diagonal away."""
    a, b = _pips(2, (40.0, 40.0), 20.0, 30.0)
    faint = Pip(b.x, b.y, a.contrast / 1.8, True, 0.9, b.colour, 1.5)
    assert find_faces([a, faint], (14.0, 20.0, 28.0), one_round=0.6) == []
    corner = Pip(b.x, b.y, a.contrast / 1.8, True, 0.35, b.colour, 1.5)  # a shadow's corner
    assert [len(f.members) for f in find_faces([a, corner], (14.0, 20.0, 28.0), one_round=0.6)] == [1]


def test_a_die_too_small_for_the_input_is_not_read() -> None:
    """Below the resolution floor a six's pips may have merged into a lower face's: nothing is read."""
    lab = cv2.cvtColor(_dice_image(2), cv2.COLOR_BGR2LAB)
    sigmas = bd._sigmas(20.0)
    pips = bd.board_pips(lab, sigmas)
    edges = (14.0, 20.0, 28.0)
    assert find_faces(pips, edges, bd._accept(lab, pips, sigmas[0], 20.0, min_edge=30.0)) == []
    assert len(find_faces(pips, edges, bd._accept(lab, pips, sigmas[0], 20.0, min_edge=15.0))) == 1


def test_a_dim_view_is_brought_to_a_normal_exposure() -> None:
    """A dark frame's pips lose contrast with the light: the view is brightened to the exposure the
    contrast floors are set for, a bright one left as it is (real webcam frames at 40 % light: 0/28
    rolls read before, 28/28 after -- tests/vision/dice/test_on_board_robustness.py)."""
    img = _dice_image(5)
    dim = cv2.convertScaleAbs(img, alpha=0.4)
    grey = cv2.cvtColor(bd._exposed(dim), cv2.COLOR_BGR2GRAY)
    assert abs(float(np.percentile(grey, bd._BRIGHT_PCT)) - bd._EXPOSED) < 6
    assert bd._exposed(img) is img


# --- renders: every value, three board styles, both views ------------------------------------------

RENDER_CASES = [
    (style, view, seed, pair)
    for style in ("paper", "wood", "tournament")
    for view in ("rectified", "perspective")
    for seed, pair in enumerate([(1, 2), (3, 4), (5, 6), (6, 1), (2, 5), (4, 3)])
]


def _render_rolls(cases: list) -> tuple[int, int, list[str]]:
    from vision.reader import read_board

    right, wrong, notes = 0, 0, []
    for style, view, seed, (a, b) in cases:
        spec = random_spec(seed, style=style, with_dice=False)
        spec = BoardSpec(**{**spec.__dict__, "dice": (DieSpec(a), DieSpec(b))})
        image = render(spec, size=(960, 540), view=view, seed=seed).image
        got = sorted(d.value for d in read_board(image).dice)
        if got == sorted((a, b)):
            right += 1
        elif got and not set(got) <= {a, b} or len(got) > 2:
            wrong += 1
            notes.append(f"{style} {view} seed {seed}: want {sorted((a, b))} got {got}")
    return right, wrong, notes


def test_rendered_rolls_sample() -> None:
    """18 rendered rolls (3 styles x 2 views x 3 seeds). Measured 15:00 UTC: 16 right, none wrong."""
    right, wrong, notes = _render_rolls([c for c in RENDER_CASES if c[2] < 3])
    assert right >= 15, notes
    assert wrong == 0, notes


@pytest.mark.slow
def test_rendered_rolls() -> None:
    """36 rendered rolls (3 styles x 2 views x 6 seeds, every value twice or more). Measured 15:00 UTC:
    29 right, 1 read wrong (a four against a checker read as a one: its other pips lie where
    checkers' rims are not searched), 6 unread (dice against checkers)."""
    right, wrong, notes = _render_rolls(RENDER_CASES)
    assert right >= 27, notes
    assert wrong <= 1, notes


# --- real labelled frames (../shared/data; skipped when absent) -----------------------------------


def _roll(folder, label: dict) -> tuple[str, str] | None:
    """(verdict, note) for one labelled photo's roll: ``right``, ``wrong`` (other values, or dice read
    on a board with none) or ``missed`` (nothing read); None when the photo's roll is not scored
    (occluded, no board, or a die its labellers were unsure of)."""
    from vision.reader import read_board

    dice = label.get("dice", [])
    want = sorted(d["value"] for d in dice if d.get("sure") and d.get("value"))
    if label.get("occluded") or label.get("board") is False or len(want) != len(dice):
        return None
    got = sorted(d.value for d in read_board(cv2.imread(str(folder / label["image"]))).dice)
    note = f"{label['image']}: want {want} got {got}"
    if not want:
        return ("wrong" if got else "right"), note
    if got == want:
        return "right", note
    return ("wrong" if got else "missed"), note


def _real_rolls(folder_name: str, every: int = 1) -> tuple[int, int, int, list[str]]:
    folder = shared_data(folder_name)
    right = wrong = scored = 0
    notes = []
    for line in (folder / "labels.jsonl").read_text().splitlines()[::every]:
        label = json.loads(line)
        verdict = _roll(folder, label)
        if verdict is None:
            continue
        if not label.get("dice"):
            wrong += verdict[0] == "wrong"  # a die read on a board with none is a wrong roll too
            continue
        scored += 1
        right += verdict[0] == "right"
        if verdict[0] == "wrong":
            wrong += 1
            notes.append(verdict[1])
    return right, wrong, scored, notes


@pytest.mark.slow
def test_webcam_rolls_sample() -> None:
    """boards-webcam, every second labelled frame: 14 rolls, all right, no die on the frames without."""
    right, wrong, scored, notes = _real_rolls("boards-webcam", every=2)
    assert wrong == 0, notes
    assert right >= scored - 1, notes


@pytest.mark.slow
def test_webcam_rolls() -> None:
    """boards-webcam: white dice 10-20 px on a white paper board. Measured: 28/28 rolls right, none
    wrong, no die read on the 9 frames without dice."""
    right, wrong, scored, notes = _real_rolls("boards-webcam")
    assert scored == 28
    assert wrong == 0, notes
    assert right >= 27, notes


# Measured misreadings on the photos added to boards-real (issue 14): remove a mark when the reader
# learns that photo.
_ROLL_XFAILS = {
    "test12.jpg": "small dice on a walnut board with logos: 4-6 read as no dice",
}


@pytest.mark.parametrize("label", per_photo("boards-real", _ROLL_XFAILS))
def test_tournament_rolls(label: dict | None) -> None:
    """boards-real: small black dice on broadcast frames, translucent dice, empty boards: each scored
    roll is read exactly, and no die is read on a board without any."""
    folder = shared_data("boards-real")
    assert label is not None
    verdict = _roll(folder, label)
    if verdict is not None:
        assert verdict[0] == "right", verdict[1]


def test_statuses_on_the_board() -> None:
    """A die on the bar of a wooden board is found and ``on_bar`` (RULES.md B15); every status:
    tests/vision/dice/test_on_board_status.py."""
    from vision.reader import read_board

    spec = random_spec(4, style="wood", with_dice=False)
    spec = BoardSpec(**{**spec.__dict__, "dice": (DieSpec(5, DieStatus.ON_BAR), DieSpec(3))})
    r = render(spec, size=(960, 540), view="rectified", seed=4)
    got = {d.value: d.status for d in read_board(r.image).dice}
    truth = {d.value: d.status for d in r.truth.dice}
    assert got == truth


def test_no_dice_on_an_empty_board() -> None:
    from vision.reader import read_board

    spec = BoardSpec(points=((None, 0),) * 24, style="wood", cube_position=None)
    assert read_board(render(spec, size=(960, 540), view="perspective", seed=5).image).dice == ()


def _status_renders(status: DieStatus) -> list[list[tuple[int, DieStatus]]]:
    from vision.reader import read_board

    out = []
    for style in ("wood", "paper", "tournament"):
        for view in ("rectified", "perspective"):
            for seed in (11, 12):
                spec = random_spec(seed, style=style, with_dice=False)
                spec = BoardSpec(**{**spec.__dict__, "dice": (DieSpec(4, status), DieSpec(2))})
                image = render(spec, size=(960, 540), view=view, seed=seed).image
                out.append([(d.value, d.status) for d in read_board(image).dice])
    return out


@pytest.mark.slow
def test_cocked_dice_are_told_and_flat_ones_are_not() -> None:
    """A cocked die's top face is tilted: a four's corner pips make a foreshortened square, not a
    square (vision.dice.tilt.corner_aspect), or a side face's pips show beside it (RULES.md B15/N10:
    a re-throw). 12 renders each (3 styles x 2 views x 2 seeds), measured 17:30 UTC: 9 of 12 cocked
    fours read cocked -- every one read (2 unread on paper, 1 on a checker); before, 4 of 12 and 5
    read flat -- and no flat die read cocked (a false re-throw call is the worse error)."""
    flat = [s for dice in _status_renders(DieStatus.FLAT) for _, s in dice]
    assert DieStatus.COCKED not in flat
    cocked = [(v, s) for dice in _status_renders(DieStatus.COCKED) for v, s in dice]
    assert sum(1 for v, s in cocked if (v, s) == (4, DieStatus.COCKED)) >= 9
    assert (4, DieStatus.FLAT) not in cocked
    assert all(v == 4 for v, s in cocked if s == DieStatus.COCKED)


def _on_checker_statuses(seeds: tuple[int, ...]) -> list[DieStatus | None]:
    """The status read for a four rendered lying on a checker (None: unread), over three board
    styles, both views and ``seeds``."""
    from vision.reader import read_board

    out: list[DieStatus | None] = []
    for style in ("wood", "paper", "tournament"):
        for view in ("rectified", "perspective"):
            for seed in seeds:
                spec = random_spec(seed, style=style, with_dice=False)
                spec = BoardSpec(**{**spec.__dict__, "dice": (DieSpec(4, DieStatus.ON_CHECKER), DieSpec(2))})
                image = render(spec, size=(960, 540), view=view, seed=seed).image
                fours = [d.status for d in read_board(image).dice if d.value == 4]
                out.append(DieStatus(fours[0]) if fours else None)
    return out


def test_a_die_on_a_checker_is_on_checker() -> None:
    """A die lying on a stack's last checker hides it from the stack counter: it sits where the
    stack's next checker would, with that checker's colour round it (RULES.md B15: on a checker, a
    re-throw). Seed 11, 3 styles x 2 views: measured 16:05 UTC 5 of 6 read, all on_checker (before:
    read flat or cocked)."""
    got = _on_checker_statuses((11,))
    read = [s for s in got if s is not None]
    assert all(s == DieStatus.ON_CHECKER for s in read), got
    assert len(read) >= 4, got


@pytest.mark.slow
def test_dice_on_checkers_are_on_checker() -> None:
    """Seeds 11-13: measured 16:05 UTC 10 of 18 fours read, all 10 on_checker (before: 0 of 10)."""
    got = _on_checker_statuses((11, 12, 13))
    read = [s for s in got if s is not None]
    assert all(s == DieStatus.ON_CHECKER for s in read), got
    assert len(read) >= 9, got
