"""The SGF properties Tavla carries without reading them: comments and gnubg's analysis.

gnubg writes its analysis into the nodes of a match: ``A`` (the candidate plays and their
equities), ``DA`` (the cube decision), ``LU`` (luck), ``MR``, ``BM``/``DO``/``GB``/``GW``/``DC``
(its marks), and ``GS`` (each game's statistics) on the root. A record keeps them as
:data:`~controller.formats.record.Props` so an ``.sgf`` written back holds them all; a ``.mat`` file
has no room for them, so converting an analysed match to ``.mat`` drops them only when asked
(``tavla match convert --drop-analysis``). Comments (``C``, and ``GC`` on a root) are not analysis.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from controller.formats.record import Game, MatchRecord, Props

#: Comment properties: a node's ``C`` and a game's ``GC`` (gnubg keeps unknown headers there).
COMMENT_PROPS: Final = frozenset({"C", "GC"})


def is_analysis(ident: str) -> bool:
    """True for a property that is not a comment: gnubg's analysis, or another program's data."""
    return ident not in COMMENT_PROPS


def _keep(props: Props, analysis: bool, comments: bool) -> Props:
    return tuple(p for p in props if (analysis if is_analysis(p[0]) else comments))


def count_props(record: MatchRecord) -> tuple[int, int]:
    """``(nodes with analysis, nodes with comments)`` over the whole record, roots included."""
    analysed = commented = 0
    for game in record.games:
        for props in (game.props, *(a.props for a in game.actions)):
            analysed += any(is_analysis(p[0]) for p in props)
            commented += any(not is_analysis(p[0]) for p in props)
    return analysed, commented


def strip_props(record: MatchRecord, analysis: bool = False, comments: bool = True) -> MatchRecord:
    """``record`` keeping only the analysis (``analysis``) and comments (``comments``) asked for."""

    def game(g: Game) -> Game:
        actions = tuple(replace(a, props=_keep(a.props, analysis, comments)) for a in g.actions)
        return replace(g, actions=actions, props=_keep(g.props, analysis, comments))

    return replace(record, games=tuple(game(g) for g in record.games))
