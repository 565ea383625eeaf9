"""RULES.md B18: a team match is three boards, two wins needed."""

from __future__ import annotations

import pytest

from controller.club.url import ClubError
from controller.director.board import Match
from controller.director.results import table, to_csv
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
    rounds = {4: {"round": 4, "pairings": [
        {"board": "1", "light": "Ana, A.", "dark": "Ion", "match_length": 5},
        {"board": "2", "light": "X", "dark": "Y", "match_length": 3}]}}
    matches = {"1": [Match("j", 0, "Ana, A.", "Ion", 5, (5, 2), "light")], "2": []}
    assert to_csv(table(rounds, matches)).splitlines() == [
        "round,board,light,dark,match_length,light_score,dark_score,winner",
        '4,1,"Ana, A.",Ion,5,5,2,"Ana, A."',
        "4,2,X,Y,3,,,",
    ]


def test_every_rounds_results_stay_when_the_next_round_starts():
    """The fresh user's report: after a round-2 command for board 1 the CSV held round 2's row only.
    Each match is a row: round 1's (here the station file's own pairing, in no round), round 2's
    played, round 3's pairing not played yet."""
    first = Match("j", 0, "Red 1", "Blue 1", 1, (1, 0), "light")
    second = Match("j", 90, "Ana", "Ion", 5, (2, 1), None)
    rounds = {2: {"round": 2, "pairings": [{"board": "1", "light": "Ana", "dark": "Ion", "match_length": 5}]},
              3: {"round": 3, "pairings": [{"board": "1", "light": "Bo", "dark": "Cy", "match_length": 3}]}}
    assert [list(r.values()) for r in table(rounds, {"1": [first, second]})] == [
        [2, "1", "Ana", "Ion", 5, 2, 1, ""],
        [3, "1", "Bo", "Cy", 3, "", "", ""],
        ["", "1", "Red 1", "Blue 1", 1, 1, 0, "Red 1"],
    ]
    # the same pairing in two rounds: the board's matches take them in order
    again = Match("j", 200, "Ana", "Ion", 5, (5, 0), "light")
    rounds[3] = rounds[2] | {"round": 3}
    rows = table(rounds, {"1": [first, second, again]})
    assert [(r["round"], r["light_score"], r["dark_score"]) for r in rows[:2]] == [(2, 2, 1), (3, 5, 0)]
