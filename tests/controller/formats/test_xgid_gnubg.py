"""gnubg reads Tavla's XGIDs as eXtreme Gammon defines them, whoever is on roll (the board, the
scores, the cube and the dice of 40 positions of a game, half with the top player O on roll).

XG's definition (eXtreme Gammon 2 user manual, "XGID", https://www.extremegammon.com/extremegammon2.pdf;
summarised in :mod:`controller.formats.xgid`): the board is always drawn from the bottom player X's
side, and field 4 says who is on roll (1 X, -1 the top player O); the scores are X's then O's and
the cube position is 1 for X, -1 for O. gnubg's ``set xgid`` turns an XGID into its own Position ID
(the player on roll's view) and Match ID (who rolled, the scores, the cube owner), so every field
of ours can be checked against gnubg's reading with the top player on roll as well as the bottom.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import tempfile
from pathlib import Path

from controller.formats.match_id import match_from_id
from controller.formats.matchfile import read_record
from controller.formats.position_id import position_id
from controller.formats.record import PlayNote, Roll
from controller.formats.replay import apply_recorded
from controller.formats.xgid import Xgid, xgid_text
from controller.rules import Position
from tests.controller.formats.gnubg_real import gnubg_path
from tests.controller.formats.test_record_strategies import FIXTURES

_SCRIPT = r"""
import json, os
import gnubg
gnubg.command("set display off")
gnubg.command("new match 7")
out = []
for xgid in json.load(open(os.environ["TAVLA_XGIDS"])):
    gnubg.command("set xgid " + xgid)
    out.append([gnubg.positionid(), gnubg.matchid()])
json.dump(out, open(os.environ["TAVLA_GNUBG_OUT"], "w"))
"""


def _positions() -> list[Position]:
    """The position before every roll of a real-style game, from the roller's side."""
    record = read_record(FIXTURES / "fibs_style.mat")
    positions = []
    for game in record.games:
        sides = [Position.initial().me, Position.initial().opp]
        for a in game.actions:
            if isinstance(a, Roll) and a.note is PlayNote.MOVES:
                before = Position(sides[a.player], sides[1 - a.player])
                positions.append(before)
                after = apply_recorded(before, a.steps)
                if after is None:
                    break
                sides[a.player], sides[1 - a.player] = after.me, after.opp
    return positions


def _gnubg_read(xgids: list[str]) -> list[tuple[str, str]]:
    exe = gnubg_path()
    with tempfile.TemporaryDirectory() as tmp:
        script, ids, out = Path(tmp, "x.py"), Path(tmp, "ids.json"), Path(tmp, "out.json")
        script.write_text(_SCRIPT)
        ids.write_text(json.dumps(xgids))
        env = dict(os.environ, TAVLA_XGIDS=str(ids), TAVLA_GNUBG_OUT=str(out), HOME=tmp)
        subprocess.run([exe, "-t", "-q", "-r", "-p", str(script)], stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120, env=env, check=False)
        assert out.exists(), "gnubg did not finish reading the XGIDs"
        return [(p, m) for p, m in json.loads(out.read_text())]


def test_gnubg_reads_our_xgid_with_either_player_on_roll() -> None:
    rng = random.Random(19)
    cases = []
    for i, position in enumerate(_positions()[:40]):
        x_on_roll = i % 2 == 0
        fields = {"dice": f"{rng.randint(1, 6)}{rng.randint(1, 6)}", "score_x": rng.randint(0, 6),
                  "score_o": rng.randint(0, 6), "match_length": 7, "cube_log": rng.randint(0, 2)}
        fields["cube_position"] = 0 if fields["cube_log"] == 0 else rng.choice((1, -1))
        cases.append(Xgid.from_position(position, x_on_roll=x_on_roll, **fields))
    assert {c.turn for c in cases} == {1, -1}
    read = _gnubg_read([xgid_text(c) for c in cases])
    assert len(read) == len(cases)
    for case, (pos_id, mid) in zip(cases, read, strict=True):
        m = match_from_id(mid)
        on_roll = m.dice_owner
        mine, theirs = (case.score_x, case.score_o) if case.turn == 1 else (case.score_o, case.score_x)
        assert pos_id == position_id(case.position()), xgid_text(case)
        assert (m.score[on_roll], m.score[1 - on_roll]) == (mine, theirs), xgid_text(case)
        assert sorted(m.dice) == sorted(int(d) for d in case.dice)
        assert m.cube_value == 2 ** case.cube_log
        if case.cube_position == 0:
            assert m.cube_owner is None
        else:  # 1 X owns it, -1 O: the player on roll owns it when the position names him
            assert m.cube_owner == (on_roll if case.cube_position == case.turn else 1 - on_roll)


def test_the_xg_manual_example_is_the_opening_position_x_on_roll() -> None:
    from controller.formats.xgid import parse_xgid

    x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
    assert x.turn == 1 and x.dice == "52" and x.match_length == 0 and x.crawford_jacoby == 3
    assert x.position() == Position.initial()
