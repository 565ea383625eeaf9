"""A round's result table and its CSV (the ``csv`` module: quoting names with commas is its job)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

COLUMNS = ("round", "board", "light", "dark", "match_length", "light_score", "dark_score", "winner")


def rows(round_no: int | None, boards: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per board (its page JSON, controller.director.board): who played, the score, the winner's
    name (empty while it is played)."""
    out = []
    for b in boards:
        score = b.get("score") or {}
        winner = b.get("winner")
        out.append({
            "round": "" if round_no is None else round_no,
            "board": b["board"],
            "light": b["light"],
            "dark": b["dark"],
            "match_length": score.get("match_length", ""),
            "light_score": score.get("light", ""),
            "dark_score": score.get("dark", ""),
            "winner": b[winner] if winner in ("light", "dark") else "",
        })
    return out


def to_csv(table: list[dict[str, Any]]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return buf.getvalue()
