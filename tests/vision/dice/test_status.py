"""The one die status of both readers (vision.dice.status; RULES.md B15, N10): the die's own
(flat or cocked) and the board's, by precedence, with the board reader's look for a hidden checker
asked only when nothing above it applies."""

from __future__ import annotations

import numpy as np

from vision.dice.status import BoardRegions, apply_board_status, board_status, die_status
from vision.reading import DieReading, DieStatus

_FIELD = np.array([[0, 0], [200, 0], [200, 100], [0, 100]], np.float32)
_BAR = np.array([[95, 0], [105, 0], [105, 100], [95, 100]], np.float32)


def _die(x: float, y: float, cocked: bool = False) -> DieReading:
    return DieReading(3, (x, y), die_status(cocked), 0.9)


def test_the_die_s_own_status() -> None:
    assert die_status(False) == DieStatus.FLAT
    assert die_status(True) == DieStatus.COCKED


def test_board_statuses_by_precedence() -> None:
    checkers = np.array([[40.0, 50.0, 8.0]], np.float32)
    regions = BoardRegions(_FIELD, (_BAR,), None, checkers, touch=0.5)
    assert board_status(_die(250, 50, cocked=True), regions, 10.0) == DieStatus.OFF_BOARD
    assert board_status(_die(100, 50, cocked=True), regions, 10.0) == DieStatus.ON_BAR
    assert board_status(_die(50, 50, cocked=True), regions, 10.0) == DieStatus.ON_CHECKER
    assert board_status(_die(150, 50, cocked=True), regions, 10.0) == DieStatus.COCKED
    assert board_status(_die(150, 50), regions, 10.0) == DieStatus.FLAT
    half = BoardRegions(_FIELD, (_BAR,), np.array([[105, 0], [200, 0], [200, 100], [105, 100]], np.float32))
    assert [d.status for d in apply_board_status([_die(30, 50), _die(150, 50)], half, 10.0)] == [
        DieStatus.WRONG_HALF, DieStatus.FLAT]


def test_the_hidden_checker_look_is_asked_only_when_it_decides() -> None:
    asked: list[bool] = []

    def hidden() -> bool:
        asked.append(True)
        return True

    regions = BoardRegions(_FIELD, (_BAR,))
    assert board_status(_die(100, 50), regions, 10.0, hidden) == DieStatus.ON_BAR
    assert not asked
    assert board_status(_die(150, 50, cocked=True), regions, 10.0, hidden) == DieStatus.ON_CHECKER
    assert asked == [True]
    assert board_status(_die(150, 50, cocked=True), regions, 10.0, lambda: False) == DieStatus.COCKED
