"""A set has fifteen checkers of each colour: the count that settles a pile its rings leave open.

A tall pile shows its checkers' rings only where the layers above leave them, so the stack counter
(:mod:`vision.checkers.stacks`) reads that it is a pile better than how many it holds: the rings of
a pyramid of 12 and one of 15 differ in a ring or two. And two things can make it doubt a pile its
rings fit: the notch beside the column's first gap looks like the bare board (a shiny column's
reflections also fit a pile, so a bare notch vetoes it; but on a pile of ten and more the rims and
shadows of the upper layers cross that notch too), or its checkers are of the point's own colour (a
dark head on a dark point shows rims only). Such stacks carry their candidates
(``StackReading.pile``). The frame as a whole then decides: where a colour's points, bar and trays
do not come to fifteen and exactly one pile or candidate of that colour can make up the difference
(holding six to fifteen), it is given that count. A shiny column's false pile would make more than
fifteen, and is left as read.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.checkers.stacks import StackReading
from vision.reading import DARK, LIGHT

__all__ = ["SET_SIZE", "complete_sets"]

SET_SIZE = 15
# Two colours closer than this (Lab, lightness at half weight as the colour split weighs it) are one.
_SAME_COLOUR = 30.0
_WEIGHT = np.array([0.5, 1.0, 1.0])


def _candidate_name(s: StackReading, name: str | None, means: dict[str, np.ndarray]) -> str | None:
    """The colour a candidate pile is of: its stack's name; for a stack read empty, the named colour
    its candidate's colour is nearest (within ``_SAME_COLOUR``), or the one colour not on the board
    when it is unlike the one that is (with none named, by lightness)."""
    if s.count:
        return name
    if s.pile_lab is None:
        return None
    lab = np.array(s.pile_lab) * _WEIGHT
    dist = {c: float(np.linalg.norm(lab - m)) for c, m in means.items()}
    if len(dist) == 2:
        return min(dist, key=lambda c: dist[c])
    if len(dist) == 1:
        (c, far), = dist.items()
        if far < _SAME_COLOUR:
            return c
        other = DARK if c == LIGHT else LIGHT
        # the other colour only if it lies on the right side of the one seen
        lighter = s.pile_lab[0] > float(means[c][0] / _WEIGHT[0])
        return other if (other == LIGHT) == lighter else None
    return LIGHT if s.pile_lab[0] >= 128 else DARK


def complete_sets(stacks: list[StackReading], names: list[str | None], bar: dict[str, int],
                  off: dict[str, int]) -> tuple[list[StackReading], list[str | None]]:
    """``stacks`` and their ``names`` (one a stack), the one pile (or candidate) of a colour given the
    count that brings that colour's points, ``bar`` and ``off`` to exactly ``SET_SIZE``."""
    means = {}
    for colour in (LIGHT, DARK):
        labs = [s.colour_lab for s, n in zip(stacks, names, strict=True) if n == colour and s.count
                and s.colour_lab is not None]
        if labs:
            means[colour] = np.median(np.array(labs), axis=0) * _WEIGHT
    owner = [_candidate_name(s, n, means) if s.pile else None for s, n in zip(stacks, names, strict=True)]
    out, out_names = list(stacks), list(names)
    for colour in (LIGHT, DARK):
        seen = sum(s.count for s, n in zip(stacks, names, strict=True) if n == colour)
        short = SET_SIZE - seen - bar.get(colour, 0) - off.get(colour, 0)
        fits = [i for i, s in enumerate(stacks) if owner[i] == colour and 5 < s.count + short <= SET_SIZE]
        if short and len(fits) == 1:
            i = fits[0]
            s = stacks[i]
            out[i] = replace(s, count=s.count + short, colour_lab=s.colour_lab or s.pile_lab)
            out_names[i] = colour
    return out, out_names
