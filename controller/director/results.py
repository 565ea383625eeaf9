"""The rounds' result table and its CSV (the ``csv`` module: quoting names with commas is its job).

Every match a board played is a row (controller.director.board.Match), none is dropped when the next
round starts. A match belongs to the round whose pairing for its board names the same players and
length -- the board's matches in their order taking the rounds' pairings in theirs -- and a
pairing no match answers yet is a row with no score; a match of no round (a station file's own
pairing, say) has an empty round.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from controller.director.board import Match

COLUMNS = ("round", "board", "light", "dark", "match_length", "light_score", "dark_score", "winner")


def _pairing(p: dict[str, Any]) -> tuple[str, str, int]:
    return p["light"].strip(), p["dark"].strip(), int(p.get("match_length", 0))


def _row(round_no: int | str, board: str, light: str, dark: str, length: int,
         m: Match | None) -> dict[str, Any]:
    return {
        "round": round_no, "board": board, "light": light, "dark": dark, "match_length": length,
        "light_score": m.score[0] if m else "", "dark_score": m.score[1] if m else "",
        "winner": (light if m.winner == "light" else dark) if m and m.winner else "",
    }


def table(rounds: Mapping[int, dict[str, Any]], matches: Mapping[str, list[Match]]) -> list[dict[str, Any]]:
    """The rows: each round in its order, its pairings in theirs; then the matches of no round, by
    board. ``rounds``: the round commands by number; ``matches``: each board's matches in order."""
    taken: dict[int, dict[str, Match]] = {n: {} for n in rounds}
    rest: list[tuple[str, Match]] = []
    for board, ms in matches.items():
        wanted = [(n, _pairing(p)) for n, r in sorted(rounds.items()) for p in r["pairings"]
                  if str(p["board"]) == board]
        at = 0  # the next of the board's pairings a match may answer
        for m in ms:
            hit = next((i for i in range(at, len(wanted)) if wanted[i][1] == m.pairing), None)
            if hit is None:
                rest.append((board, m))
                continue
            taken[wanted[hit][0]][board] = m
            at = hit + 1
    out = []
    for n, r in sorted(rounds.items()):
        for p in r["pairings"]:
            board = str(p["board"])
            light, dark, length = _pairing(p)
            out.append(_row(n, board, light, dark, length, taken[n].get(board)))
    out += [_row("", b, m.light, m.dark, m.match_length, m) for b, m in rest]
    return out


def to_csv(table: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return buf.getvalue()
