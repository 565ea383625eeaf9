"""``wrong_half`` from the camera to the ruling (RULES.md B15: each player rolls in the half on his
right; a die on the other half forces a re-throw of both).

The board reader gives each die's place, not who rolled (vision/dice/on_board.py): a die rendered on
the roller's left-hand half is read ``flat`` at its place, :func:`controller.game.events.board_seen` gives
it the slot nearest it, and :func:`controller.game.rulings.rethrow` -- told which half the roller must use,
as controller.game.turns does from the seating -- rules the re-throw."""

from __future__ import annotations

import pytest

from controller.game.events import board_seen
from controller.game.rulings import Settings, rethrow
from vision.reader import read_board
from vision.reading import DieStatus
from vision.render.scene import render
from vision.render.spec import BoardSpec, DieSpec, starting_spec


def _ruling(style: str, view: str, roller: str, statuses: tuple[DieStatus, DieStatus]) -> str | None:
    """The re-throw ruling's reason (None: the roll stands) for a four and a two rendered with
    ``statuses`` and rolled by the player at the ``roller`` edge, on the opening position (its
    stacks of at most five leave the field's middle clear: a die the renderer lays against a
    checker is read ``on_checker``, rightly, which would hide the half's ruling)."""
    spec = starting_spec(style)
    spec = BoardSpec(**{**spec.__dict__, "roller": roller,
                        "dice": (DieSpec(4, statuses[0]), DieSpec(2, statuses[1]))})
    seen = board_seen(read_board(render(spec, size=(960, 540), view=view, seed=11).image))
    assert sorted(d.value for d in seen.dice) == [2, 4], seen.dice
    # the player at the bottom edge rolls in the right half (controller.geometry)
    ruling = rethrow(seen.dice, Settings(), roller_right=roller == "bottom")
    return None if ruling is None else ruling.reason


@pytest.mark.parametrize("roller", ["bottom", "top"])
@pytest.mark.parametrize("view", ["rectified", "perspective"])
@pytest.mark.parametrize("style", ["wood", "paper", "tournament"])
def test_dice_on_the_wrong_half_are_rethrown(style: str, view: str, roller: str) -> None:
    """Both dice on the roller's left-hand half: re-throw (they must land on his right); one of them
    there: re-throw (the dice lie on both halves); both on his right: the roll stands."""
    wrong, flat = DieStatus.WRONG_HALF, DieStatus.FLAT
    both = _ruling(style, view, roller, (wrong, wrong))
    assert both is not None and "roller's right" in both
    one = _ruling(style, view, roller, (wrong, flat))
    assert one is not None and "both halves" in one
    assert _ruling(style, view, roller, (flat, flat)) is None
