"""`tavla dice` takes the board reader's dice from a photo of a game in play (controller.cli.dice):
also when that reading counts more checkers of a colour than a set has (a misread stack does not make
the board's dice wrong), and when a hand covers part of the board (the whole-photo reader takes its
rims, hinge and lettering for dice)."""

from __future__ import annotations

import numpy as np
import pytest

from vision.reading import LIGHT, BoardReading, DieReading, FrameStatus, PointReading

pytest.importorskip("cv2")


@pytest.mark.parametrize("status,taken", [(FrameStatus.OK, True), (FrameStatus.TOO_MANY_CHECKERS, True),
                                          (FrameStatus.OCCLUDED, True),
                                          (FrameStatus.NO_BOARD, False), (FrameStatus.TOO_DARK, False)])
def test_board_dice_are_taken_from_a_board_in_play(monkeypatch: pytest.MonkeyPatch, status: FrameStatus,
                                                   taken: bool) -> None:
    import vision.reader
    from controller.cli import dice

    # sixteen light singles: more than a set has, and a game in play
    points = tuple(PointReading(i, (0.0, 0.0), LIGHT if i < 16 else None, int(i < 16)) for i in range(24))
    die = DieReading(4, (10.0, 10.0))
    reading = BoardReading(True, points=points, dice=(die,), status=status)
    monkeypatch.setattr(vision.reader, "read_board", lambda frame: reading)
    _points_show(monkeypatch, 24)
    got, cube = dice._board_dice(np.zeros((8, 8, 3), np.uint8))
    assert got == ([die] if taken else None)
    assert cube is None  # no cube was read


@pytest.mark.parametrize("in_play", [True, False])
def test_photo_dice_asks_the_board_reader_first(monkeypatch: pytest.MonkeyPatch, in_play: bool) -> None:
    # the function `tavla dice` (and its bench row) runs: the board's dice, else the whole photo's,
    # told where the board reader saw the cube
    import vision.dice.photo
    from controller.cli import dice

    board_die, photo_die = DieReading(4, (10.0, 10.0)), DieReading(2, (30.0, 5.0))
    seen: list[object] = []
    monkeypatch.setattr(dice, "_board_dice", lambda frame: ([board_die] if in_play else None, (7.0, 8.0)))

    def whole(frame: np.ndarray, cube_xy: tuple[float, float] | None = None) -> list[DieReading]:
        seen.append(cube_xy)
        return [photo_die]

    monkeypatch.setattr(vision.dice.photo, "find_dice", whole)
    got = dice.photo_dice(np.zeros((8, 8, 3), np.uint8))
    assert got == ([board_die] if in_play else [photo_die])
    assert seen == ([] if in_play else [(7.0, 8.0)])


def _points_show(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """The board search sees ``n`` of the points' triangles in any photo."""
    import vision.board.finder

    monkeypatch.setattr(vision.board.finder, "field_triangles", lambda frame: np.zeros((n, 6)))


@pytest.mark.parametrize("n,searched", [(0, False), (2, False), (3, True), (20, True)])
def test_a_photo_whose_points_do_not_show_is_not_searched_for_a_board(
        monkeypatch: pytest.MonkeyPatch, n: int, searched: bool) -> None:
    # a game in play leaves 9 or more points bare: without a third of those in view there is none,
    # and the board reader is not run (no game, no cube)
    import vision.reader
    from controller.cli import dice

    calls: list[object] = []
    monkeypatch.setattr(vision.reader, "read_board", lambda frame: calls.append(frame) or BoardReading(False))
    _points_show(monkeypatch, n)
    assert dice._board_dice(np.zeros((8, 8, 3), np.uint8)) == (None, None)
    assert len(calls) == int(searched)


def test_a_grey_photo_goes_to_the_board_reader_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    import vision.reader
    from controller.cli import dice

    calls: list[object] = []
    monkeypatch.setattr(vision.reader, "read_board", lambda frame: calls.append(frame) or BoardReading(False))
    _points_show(monkeypatch, 0)
    dice._board_dice(np.zeros((8, 8), np.uint8))
    assert len(calls) == 1


def _covered() -> list:
    """(set, label) params, one per labelled photo under a hand, in boards-real and boards-webcam."""
    from tests.conftest import per_photo

    return [pytest.param(name, *p.values, id=f"{name}-{p.id}", marks=p.marks)
            for name in ("boards-real", "boards-webcam")
            for p in per_photo(name, {}, keep=lambda lab: bool(lab.get("occluded")))]


@pytest.mark.parametrize("name,lab", _covered())
def test_covered_boards_give_no_die_that_is_not_there(name: str, lab: object) -> None:
    """A photo of a game under a hand: `tavla dice` gives only dice the photo holds (the board reader's;
    the whole-photo reader took checkers' rims, hinges and a broadcast's cards for dozens of dice)."""
    from collections import Counter

    from controller.cli.dice import photo_dice
    from tests.conftest import shared_data
    from vision.frames.images import load_image

    root = shared_data(name)
    assert isinstance(lab, dict)
    got = Counter(d.value for d in photo_dice(load_image(root / lab["image"])))
    want = Counter(d["value"] for d in lab.get("dice", []))
    assert not got - want, (lab["image"], got, want)
