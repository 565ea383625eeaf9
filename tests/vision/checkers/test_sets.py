"""A pile left open by its own point is read at the count that completes its colour's set of fifteen
(vision.checkers.sets)."""

from __future__ import annotations

from vision.checkers.sets import complete_sets
from vision.checkers.stacks import StackReading
from vision.reading import DARK, LIGHT

_LIGHT_LAB = (230.0, 127.0, 148.0)
_DARK_LAB = (57.0, 143.0, 145.0)


def _stack(col: int, count: int, lab: tuple[float, float, float] | None, pile: tuple[int, ...] = (),
           pile_lab: tuple[float, float, float] | None = None) -> StackReading:
    return StackReading(col, True, count, lab, 0.8, pile=pile, pile_lab=pile_lab)


def test_a_vetoed_pile_takes_the_count_its_set_lacks() -> None:
    # a light head read as its column of four, its rings fitting piles of 12 or 15; one light single
    stacks = [_stack(0, 4, _LIGHT_LAB, (12, 15)), _stack(3, 1, _LIGHT_LAB)]
    out, names = complete_sets(stacks, [LIGHT, LIGHT], {}, {})
    assert [s.count for s in out] == [14, 1] and names == [LIGHT, LIGHT]


def test_a_pile_read_too_high_gives_back_what_the_set_has_too_many() -> None:
    stacks = [_stack(0, 14, _LIGHT_LAB, (14,)), _stack(3, 1, _LIGHT_LAB), _stack(5, 1, _LIGHT_LAB)]
    out, _ = complete_sets(stacks, [LIGHT] * 3, {}, {})
    assert [s.count for s in out] == [13, 1, 1]


def test_bar_and_trays_count_toward_the_set() -> None:
    stacks = [_stack(0, 4, _LIGHT_LAB, (9,))]
    out, _ = complete_sets(stacks, [LIGHT], {LIGHT: 1}, {LIGHT: 4})
    assert out[0].count == 10


def test_a_dark_head_read_empty_is_named_the_colour_not_on_the_board() -> None:
    # nardy's start: the light head read, the dark head on a dark point seen by its rims only
    stacks = [_stack(6, 0, None, (12, 15), _DARK_LAB), _stack(17, 15, _LIGHT_LAB, (15,))]
    out, names = complete_sets(stacks, [None, LIGHT], {}, {})
    assert (out[0].count, names[0]) == (15, DARK)
    assert out[0].colour_lab == _DARK_LAB


def test_no_count_is_forced_where_two_piles_could_take_it() -> None:
    stacks = [_stack(0, 5, _LIGHT_LAB, (7,)), _stack(1, 5, _LIGHT_LAB, (7,)), _stack(2, 3, _LIGHT_LAB)]
    out, _ = complete_sets(stacks, [LIGHT] * 3, {}, {})
    assert [s.count for s in out] == [5, 5, 3]


def test_a_shiny_column_read_as_a_pile_is_left_when_the_set_is_whole() -> None:
    # five on the point, ten elsewhere: a candidate of twelve would make more than fifteen
    stacks = [_stack(0, 5, _DARK_LAB, (12,)), _stack(1, 5, _DARK_LAB), _stack(2, 5, _DARK_LAB)]
    out, _ = complete_sets(stacks, [DARK] * 3, {}, {})
    assert [s.count for s in out] == [5, 5, 5]


def test_a_count_of_five_or_fewer_is_no_pile() -> None:
    # the set lacks three, but a pile holds six or more: 2 + 3 is no pile, so nothing changes
    stacks = [_stack(0, 2, _LIGHT_LAB, (7,)), _stack(1, 10, _LIGHT_LAB)]
    out, _ = complete_sets(stacks, [LIGHT, LIGHT], {}, {})
    assert [s.count for s in out] == [2, 10]
