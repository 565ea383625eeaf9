"""The real match records in ../shared/data/matches (third-party, never copied here): all 55 files
import, every game's score reproduces, and exactly the planted illegal plays are reported.

The figures are the folder's README's: 55 files, the GammonView illegal plays with their game and
move numbers, seven rolls followed by no play and the opponent's ``Wins`` (rolls then
resignations), FIBS ``Illegal play`` markers after which the position cannot be followed.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from controller.formats.matchfile import read_record
from controller.formats.replay import MatchReplay, PlayNote, ProblemKind, Roll, replay_match
from tests.conftest import shared_data


@cache
def _replays() -> dict[str, MatchReplay]:
    root = shared_data("matches")
    files = sorted(
        p for p in root.rglob("*") if p.suffix in (".mat", ".txt", ".sgf") and p.name != "SOURCE.txt"
    )
    return {p.name: replay_match(read_record(p)) for p in files}


@pytest.mark.slow
def test_all_files_import_and_every_score_reproduces() -> None:
    replays = _replays()
    games = [g for r in replays.values() for g in r.games]
    assert len(replays) == 55
    assert len(games) == 323  # 305 in the .mat/.txt files, 18 in the .sgf files
    assert sum(g.score_ok for g in games) == 323
    assert sum(g.followed for g in games) == 320  # three FIBS games lose the position
    assert sum(r.plays for r in replays.values()) == 12697


def test_exactly_the_planted_illegal_plays_are_reported() -> None:
    found = [
        (name, p.game, p.move, r.record.players[p.player], p.text)
        for name, r in _replays().items()
        for p in r.illegal_plays
    ]
    assert found == [
        ("gammonview-analysis-01.mat", 1, 11, "PlayerA", "13: 14/10 13/12"),
        ("gammonview-analysis-04.mat", 2, 20, "PlayerA", "65: 14/8 15/10 6/8"),
        ("gammonview-analysis-04.mat", 3, 9, "PlayerB", "63: 13/9 13/7"),
        ("gammonview-analysis-04.mat", 3, 15, "PlayerA", "41: 7/1"),
        ("gammonview-analysis-05.mat", 12, 10, "PlayerB", "33: 13/3 7/4"),
    ]


def test_no_other_findings_than_the_lost_fibs_positions() -> None:
    others = [
        (name, p.game, p.move)
        for name, r in _replays().items()
        for p in r.problems
        if p.kind is not ProblemKind.ILLEGAL_PLAY
    ]
    assert others == [("bglib-13.txt", 11, 24), ("bglib-13.txt", 17, 24), ("bglib-13.txt", 18, 13)]
    kinds = {p.kind for r in _replays().values() for p in r.problems}
    assert kinds == {ProblemKind.ILLEGAL_PLAY, ProblemKind.LOST_POSITION}


def test_rolls_then_resignations() -> None:
    empty, unplayed = 0, 0
    for replay in _replays().values():
        for game, recorded in zip(replay.games, replay.record.games, strict=True):
            if game.roll_then_resign:
                last = [a for a in recorded.actions if isinstance(a, Roll)][-1]
                if last.note is PlayNote.UNPLAYED:
                    unplayed += 1
                else:
                    empty += 1
    assert (empty, unplayed) == (7, 4)  # README: seven; Backgammon Studio's "????" four more


def test_match_results_and_partial_records() -> None:
    replays = _replays()
    assert replays["bglib-16.txt"].resumed_at == (0, 2)  # README: one FIBS match resumed at 0-2
    assert [n for n, r in replays.items() if r.resumed_at] == ["bglib-16.txt"]
    assert replays["bglib-05.txt"].games[-1].end.value == "forfeit"  # "Wins 100 points"
    unfinished = sorted(n for n, r in replays.items() if r.record.length > 0 and r.winner is None)
    assert unfinished == ["bglab-08.txt", "bglab-10.txt", "bglab-14.txt", "bglab-18.txt"]  # Galaxy
    for name, r in replays.items():
        for game in r.record.games:
            if game.match_won:
                assert r.winner == game.winner, name


def test_sgf_copies_replay_like_their_mat_files() -> None:
    replays = _replays()
    pairs = [
        ("gnubg-scripts-01.txt", "gnubg-scripts-02.sgf"),
        ("gnubg-scripts-03.txt", "gnubg-scripts-04.sgf"),
        ("gnubg-scripts-05.txt", "gnubg-scripts-06.sgf"),
        ("gnubgparser-01.mat", "gnubgparser-02.sgf"),
    ]
    for mat_name, sgf_name in pairs:
        mat, sgf = replays[mat_name], replays[sgf_name]
        assert mat.final_score == sgf.final_score
        assert [(g.end, g.value, g.cube, g.plays) for g in mat.games] == [
            (g.end, g.value, g.cube, g.plays) for g in sgf.games
        ]
        assert [(g.score, g.winner, g.points) for g in mat.record.games] == [
            (g.score, g.winner, g.points) for g in sgf.record.games
        ]


def test_folder_is_not_copied_into_the_repository() -> None:
    repo = Path(__file__).resolve().parents[3]
    assert not list((repo / "tests").rglob("bglib-*")) and not list((repo / "tests").rglob("gammonview-*"))
