"""Move-generator truth from data files (STYLE.md principle 6): tests/data/perft/*.perft.

The files were written from gnubg by tests/data/perft/generate.py; these tests need no gnubg.
Each case must give exactly gnubg's set of result Position IDs, each with gnubg's notation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.formats import format_play, position_from_id, position_id
from controller.rules import ALL_ROLLS, Position, legal_plays

PERFT = Path(__file__).resolve().parents[2] / "data" / "perft"


def read_cases(name: str) -> list[tuple[str, int, int, dict[str, str], str]]:
    """``(position ID, d1, d2, {result ID: notation}, comment)`` for each case of a .perft file."""
    cases: list[tuple[str, int, int, dict[str, str], str]] = []
    lines = [ln for ln in (PERFT / name).read_text().splitlines() if ln and not ln.startswith("#")]
    i = 0
    while i < len(lines):
        head, _, why = lines[i].partition(" ; ")
        word, pid, _dice, d1, d2, _plays, n = head.split()
        assert word == "position", lines[i]
        rows = dict(line.split("\t") for line in lines[i + 1 : i + 1 + int(n)])
        assert len(rows) == int(n), f"{name}: duplicate result in case {head}"
        cases.append((pid, int(d1), int(d2), rows, why))
        i += 1 + int(n)
    return cases


def mine(pid: str, d1: int, d2: int) -> dict[str, str]:
    plays = legal_plays(position_from_id(pid), d1, d2)
    return {position_id(p.result): format_play(p) for p in plays}


@pytest.mark.parametrize("name", ["opening.perft", "cases.perft"])
def test_perft_files_match_exactly(name: str) -> None:
    cases = read_cases(name)
    assert len(cases) >= 21
    for pid, d1, d2, expected, why in cases:
        assert mine(pid, d1, d2) == expected, f"{pid} {d1}-{d2} ({why})"


def test_perft_files_cover_the_interesting_kinds() -> None:
    kinds = {why for *_, why in read_cases("cases.perft")}
    for kind in ("no play", "bar entry", "bear off with a higher die", "hit on the way", "one die only"):
        assert kind in kinds


def test_perft_opening_depth_one_447_and_3_1_has_16() -> None:
    cases = read_cases("opening.perft")
    assert sum(len(rows) for *_, rows, _why in cases) == 447
    assert [len(rows) for pid, d1, d2, rows, _ in cases if (d1, d2) == (3, 1)] == [16]


def test_perft_opening_depth_two_202782() -> None:
    start = Position.initial()
    total = 0
    for d1, d2 in ALL_ROLLS:
        for play in legal_plays(start, d1, d2):
            reply = play.result.swapped()
            total += sum(len(legal_plays(reply, e1, e2)) for e1, e2 in ALL_ROLLS)
    assert total == 202_782
