"""RULES.md B18: a team match is three boards, two wins needed."""

from __future__ import annotations

import pytest

from controller.club.url import ClubError
from controller.director.results import rows, to_csv
from controller.director.team import TeamMatch, score

MATCH = TeamMatch.parse("Reds:Blues:1,2,3")


def test_b18_two_board_wins_decide_the_team_match():
    s = score(MATCH, {"1": "light", "2": "dark", "3": None})
    assert (s.home_wins, s.away_wins, s.winner) == (1, 1, None)
    s = score(MATCH, {"1": "light", "2": "dark", "3": "light"})
    assert (s.home_wins, s.away_wins, s.winner) == (2, 1, "Reds")


def test_b18_decided_as_soon_as_a_team_has_two():
    s = score(MATCH, {"1": "dark", "2": "dark"})
    assert s.winner == "Blues" and s.by_board[2] == ("3", None)


@pytest.mark.parametrize("bad", ["Reds:Blues:1,2", "Reds:Blues:1,1,2", ":Blues:1,2,3", "Reds-Blues"])
def test_b18_a_team_match_is_three_distinct_boards(bad):
    with pytest.raises(ClubError, match="B18"):
        TeamMatch.parse(bad)


def test_round_results_as_csv_quote_names_with_commas():
    table = rows(4, [{"board": "1", "light": "Ana, A.", "dark": "Ion", "winner": "light",
                      "score": {"light": 5, "dark": 2, "match_length": 5}},
                     {"board": "2", "light": "X", "dark": "Y", "winner": None, "score": None}])
    assert to_csv(table).splitlines() == [
        "round,board,light,dark,match_length,light_score,dark_score,winner",
        '4,1,"Ana, A.",Ion,5,5,2,"Ana, A."',
        "4,2,X,Y,,,,",
    ]
