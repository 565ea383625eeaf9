"""The nardy position text (``N:24x15/24x15``): writer and parser round-trip; the parser is fuzzed.

Malformed text must give a :class:`NardyTextError` (a ``ValueError``) with one line, never another
exception (issue 7 "Bad input"; STYLE.md principle 5: a parser tested over its whole domain).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.formats.nardy_text import NardyTextError, parse_position_text, position_text
from controller.rules.nardy import NardyPosition, legal_plays

counts = st.lists(st.integers(0, 15), min_size=24, max_size=24).map(tuple)
positions = st.builds(NardyPosition, counts, counts)


def test_docstring_examples() -> None:
    start = NardyPosition.initial()
    assert position_text(start) == "N:24x15/24x15"
    (white,) = legal_plays(start, 5, 5)
    assert position_text(white.result) == "N:24x14,4/24x15"
    assert position_text(white.result.swapped()) == "N:24x15/24x14,4"
    (three,) = legal_plays(start, 3, 3)
    assert position_text(three.result) == "N:24x13,21,15/24x15"
    last = parse_position_text("N:3x2,1/-")
    assert last.me[2] == 2 and last.me[0] == 1 and last.off_me == 12 and last.off_opp == 15
    assert position_text(last) == "N:3x2,1/-"


def test_lenient_reading_canonical_writing() -> None:
    assert parse_position_text("  n:1,24x14/24x15\n") == parse_position_text("N:24x14,1/24x15")
    assert position_text(parse_position_text("N:5x1,6x1/-")) == "N:6,5/-"


@given(positions)
def test_round_trip_over_positions(position: NardyPosition) -> None:
    text = position_text(position)
    assert text.startswith("N:")
    assert parse_position_text(text) == position
    assert position_text(parse_position_text(text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "", "N:", "N:/", "N:24x15", "N:24x15/24x15/1", "24x15/24x15", "4HPwATDgc/ABMA", "N:25/1",
        "N:0/1", "N:24x0/1", "N:24,24/1", "N:24x/1", "N:x3/1", "N:24x15,/1", "N: 24/1", "N:24x100/1",
        "N:-,3/1", "N:24x15/", "N:2\u00b3/1", "N:\u0661/1",
    ],
)
def test_malformed_text_gets_one_line(text: str) -> None:
    with pytest.raises(NardyTextError) as info:
        parse_position_text(text)
    assert "\n" not in str(info.value) and str(info.value)


def test_a_position_id_is_named_as_such() -> None:
    with pytest.raises(NardyTextError, match="Position ID"):
        parse_position_text("4HPwATDgc/ABMA")


def test_not_a_string() -> None:
    with pytest.raises(NardyTextError):
        parse_position_text(None)  # type: ignore[arg-type]


def test_writer_refuses_a_misshapen_position() -> None:
    with pytest.raises(ValueError):
        position_text(NardyPosition((1,), (0,) * 24))
    with pytest.raises(ValueError):
        position_text(NardyPosition((-1,) + (0,) * 23, (0,) * 24))


_ALPHABET = st.sampled_from(list("Nn:/x,-0123456789 ") + ["\u00b3", "\u0661", "\n", "A"])
fuzz_texts = st.one_of(
    st.text(),
    st.text(alphabet=_ALPHABET, max_size=40),
    st.builds(
        lambda t, s: "N:" + t + "/" + s, st.text(_ALPHABET, max_size=20), st.text(_ALPHABET, max_size=20)
    ),
)


def _fuzz_one(text: str) -> None:
    try:
        position = parse_position_text(text)
    except NardyTextError as exc:
        assert "\n" not in str(exc)
        return
    assert position_text(parse_position_text(position_text(position))) == position_text(position)
    position.status()  # never raises


@settings(max_examples=1000, deadline=None)
@given(fuzz_texts)
def test_fuzz_parser(text: str) -> None:
    _fuzz_one(text)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # minutes on a loaded 2-core machine
@settings(max_examples=100_000, deadline=None)
@given(fuzz_texts)
def test_fuzz_parser_100000(text: str) -> None:
    _fuzz_one(text)
