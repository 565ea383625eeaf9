"""gnubg imports the .mat files we write, and scores their games as our replay does.

The real gnubg runs its own ``import mat`` (:mod:`tests.controller.formats.gnubg_real`); skipped
with a clear message when gnubg is not installed.
"""

from __future__ import annotations

from pathlib import Path

from controller.formats.mat import write_mat
from controller.formats.matchfile import read_record
from controller.formats.record import Game, MatchRecord
from controller.formats.replay import canonical_record, replay_match
from tests.controller.formats.gnubg_real import run_gnubg
from tests.controller.formats.test_record_strategies import FIXTURES
from tests.controller.formats.test_replay import _random_game


def _gnubg_games(paths: list[Path]) -> list[list[list[object]]]:
    dumps = run_gnubg([{"path": str(p)} for p in paths])
    return [[[g["info"].get("score-X"), g["info"].get("score-O"), g["info"].get("winner"),
              g["info"].get("points-won")] for g in dump["games"]] for dump in dumps]


def _ours(record: MatchRecord) -> list[list[object]]:
    return [[g.score[0], g.score[1], "XO"[g.winner] if g.winner is not None else None,
             g.points if g.winner is not None else None] for g in record.games]


def test_gnubg_imports_our_mat_files(tmp_path: Path) -> None:
    records = []
    paths = []
    for name in ("fibs_style.mat", "galaxy_style.txt", "studio_style.txt", "gnubg_style.sgf"):
        record = canonical_record(read_record(FIXTURES / name))
        path = tmp_path / (Path(name).stem + ".mat")
        path.write_text(write_mat(record))
        records.append(record)
        paths.append(path)
    # whole games to the last checker, so gnubg scores singles, gammons and backgammons itself
    for seed in range(4):
        actions, winner = _random_game(seed, double_at=seed + 3)
        probe = replay_match(MatchRecord(25, ("Ann", "Bob"), (Game(1, (0, 0), actions, winner, 1),)))
        value = probe.games[0].value
        assert value is not None
        record = canonical_record(MatchRecord(25, ("Ann", "Bob"), (Game(1, (0, 0), actions, winner, value),)))
        path = tmp_path / f"random-{seed}.mat"
        path.write_text(write_mat(record))
        records.append(record)
        paths.append(path)
    assert _gnubg_games(paths) == [_ours(r) for r in records]
