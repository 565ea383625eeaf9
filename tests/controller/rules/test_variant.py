"""Variant base and registry (STYLE.md principle 2); backgammon scoring of RULES.md B9."""

from __future__ import annotations

import pytest

from controller.rules import VARIANTS, Backgammon, Position, Variant, register_variant


def side(**points: int) -> tuple[int, ...]:
    counts = [0] * 25
    for name, n in points.items():
        counts[24 if name == "bar" else int(name[1:]) - 1] = n
    return tuple(counts)


def test_backgammon_is_registered_and_plays_like_the_core() -> None:
    v = VARIANTS["backgammon"]()
    assert isinstance(v, Backgammon) and v.checkers == 15 and v.hitting and v.has_cube
    assert v.start_position() == Position.initial()
    assert len(v.legal_plays(v.start_position(), 3, 1)) == 16
    assert repr(v) == "Backgammon()"


def test_result_multiple_single_gammon_backgammon_rules_b9() -> None:
    v = Backgammon()
    done = (0,) * 25
    assert v.result_multiple(Position(done, side(p6=3))) == 1  # loser bore off 12
    assert v.result_multiple(Position(done, side(p6=15))) == 2  # none off, all home
    assert v.result_multiple(Position(done, side(p6=14, p20=1))) == 3  # one in the winner's home
    assert v.result_multiple(Position(done, side(p6=14, bar=1))) == 3  # one on the bar
    with pytest.raises(ValueError, match="not over"):
        v.result_multiple(Position.initial())


def test_register_refuses_nameless_and_clashing_variants() -> None:
    class Nameless(Variant):
        pass

    class Clash(Backgammon):
        name = "backgammon"

    with pytest.raises(ValueError):
        register_variant(Nameless)
    with pytest.raises(ValueError, match="taken"):
        register_variant(Clash)
    assert register_variant(Backgammon) is Backgammon  # re-registering the same class is harmless
