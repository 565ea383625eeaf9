"""The board printout of `tavla run` (controller.station.board_text / dice_text): the columns carry the
on-roll player's point numbers 1-24, the same numbers as moves and "movable points"; a legend explains
``*``; more than two dice-like marks are not printed as a roll."""

from __future__ import annotations

from rich.console import Console

from controller.game.effects import Show
from controller.geometry import Seating
from controller.station import ConsolePrinter, board_text, dice_text


def _start_slots(seating: Seating) -> tuple[tuple[str | None, int], ...]:
    slots: list[tuple[str | None, int]] = [(None, 0)] * 24
    for player, colour in ((0, "light"), (1, "dark")):
        for point, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            slots[seating.slot(player, point)] = (colour, n)
    return tuple(slots)


def _rows(text: str) -> list[list[str]]:
    return [line.replace("|", " ").split() for line in text.splitlines()]


def test_columns_are_the_on_roll_players_points_and_stars_sit_on_the_movable_points():
    seating = Seating.for_home("backgammon", "bottom-right")
    for player in (0, 1):
        movable = (24, 13, 8, 6)
        view = Show(
            "t",
            _start_slots(seating),
            on_roll=player,
            movable=movable,
            movable_slots=tuple(seating.slot(player, p) for p in movable),
            light_home="bottom-right",
        )
        text = board_text(view).plain
        rows = _rows(text)
        top_numbers, top_cells, bottom_cells, bottom_numbers = rows[0], rows[1], rows[2], rows[3]
        who = "light" if player == 0 else "dark"
        assert top_numbers.pop() == f"{who}'s"  # each board names whose numbers it shows
        numbers = [int(x) for x in top_numbers + bottom_numbers]
        assert sorted(numbers) == list(range(1, 25))
        # every starred cell is a movable point under the number printed above / below it
        starred = set()
        for labels, line in ((top_numbers, text.splitlines()[1]), (bottom_numbers, text.splitlines()[2])):
            cells = [line[1 + 5 * i + (3 if i >= 6 else 0) :][:4] for i in range(12)]
            starred |= {int(labels[i]) for i, c in enumerate(cells) if c.endswith("*")}
        assert starred == set(movable), (player, text)
        assert "numbers: the points 1-24 of the player named beside them" in text
        assert "* = a checker there can move" in text
        assert top_cells and bottom_cells


def test_unknown_seating_says_the_numbers_are_camera_slots():
    view = Show("t", tuple([(None, 0)] * 24))
    text = board_text(view).plain
    assert "camera slots 0-23" in text
    assert sorted(int(x) for x in _rows(text)[0] + _rows(text)[3]) == list(range(24))


def test_more_than_two_dice_marks_are_not_a_roll():
    assert dice_text((1, 2, 1, 1, 1, 1, 3, 3)) == "8 dice-like marks, none trusted"
    assert dice_text((3, 1)) == "3-1" and dice_text(()) == "none seen" and dice_text((4,)) == "4"
    console = Console(record=True, width=200)
    ConsolePrinter(console, boards=False).show(Show("t", tuple([(None, 0)] * 24), dice=(1, 2, 1, 1, 3)))
    out = console.export_text()
    assert "dice 5 dice-like marks, none trusted" in out and "1-2-1" not in out
