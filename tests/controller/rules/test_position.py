"""Position value type: start position, derived figures, status flags (STYLE.md principle 7)."""

from __future__ import annotations

from controller.rules import Position, PositionStatus


def test_initial_position_rules_b2() -> None:
    p = Position.initial()
    assert p.me[23] == 2 and p.me[12] == 5 and p.me[7] == 3 and p.me[5] == 5
    assert p.me == p.opp
    assert p.off_me == 0 and p.off_opp == 0
    assert p.pip_count() == (167, 167)
    assert p.status() == PositionStatus.VALID and p.is_valid()


def test_swapped_passes_the_turn() -> None:
    me = (1,) + (0,) * 23 + (1,)
    opp = (0,) * 5 + (2,) + (0,) * 19
    p = Position(me, opp)
    assert p.swapped() == Position(opp, me)
    assert p.swapped().swapped() == p
    assert p.off_me == 13 and p.off_opp == 13
    assert p.pip_count() == (26, 12)
    assert p.point(1) == (1, 0) and p.point(19) == (0, 2) and p.point(25) == (1, 0)


def test_repr_rebuilds_the_value() -> None:
    p = Position.initial()
    assert eval(repr(p)) == p


def test_status_reports_impossible_readings_and_never_raises() -> None:
    sixteen = (16,) + (0,) * 24
    p = Position(sixteen, Position.initial().opp)
    assert p.status() & PositionStatus.TOO_MANY_ME
    shared = Position((1,) + (0,) * 24, (0,) * 23 + (1, 0))  # my point 1 is his point 24
    assert shared.status() == PositionStatus.SHARED_POINT
    negative = Position((-1,) + (0,) * 24, (0,) * 25)
    assert negative.status() & PositionStatus.NEGATIVE_COUNT
    assert Position((1, 2), (0,) * 25).status() & PositionStatus.BAD_LENGTH
    assert Position((0,) * 25, (0,) * 25).status() == PositionStatus.BOTH_FINISHED
    assert Position((0,) * 25, (16,) * 25).status() & PositionStatus.TOO_MANY_OPP


def test_game_over() -> None:
    assert not Position.initial().is_game_over()
    assert Position((0,) * 25, Position.initial().opp).is_game_over()
