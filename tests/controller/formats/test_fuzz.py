"""Fuzz every parser (python-chess's fuzz/ habit): any text gives a value or a FormatError quoting it.

A few hundred examples per parser in the default run; 100,000 in the slow run.
"""

from __future__ import annotations

import base64

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.formats import FormatError, parse_hops, parse_play, position_from_id, position_id
from controller.formats.match_id import match_from_id, match_id
from controller.formats.xgid import parse_xgid, xgid_text
from controller.rules import Position

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def id_like(n: int) -> st.SearchStrategy[str]:
    """Mostly well-formed base64 of length ``n`` (so decoding is exercised), sometimes anything."""
    return st.one_of(
        st.text(alphabet=B64, min_size=n, max_size=n),
        st.binary(min_size=n * 6 // 8, max_size=n * 6 // 8).map(lambda b: base64.b64encode(b).decode()[:n]),
        st.text(max_size=n + 3),
    )


XGID_CHARS = "-ABCDEFGHIJKLMNOabcdefghijklmno"
xgid_like = st.one_of(
    st.builds(
        lambda board, nums, dice: ":".join(["XGID=" + board, *nums[:3], dice, *nums[3:]]),
        st.text(alphabet=XGID_CHARS, min_size=26, max_size=26),
        st.lists(st.sampled_from(["0", "1", "-1", "2", "7", "10", "16", "x", ""]), min_size=8, max_size=8),
        st.sampled_from(["00", "52", "D", "B", "R", "77", "5", ""]),
    ),
    st.text(max_size=60),
)
play_like = st.one_of(
    st.lists(
        st.builds(
            lambda a, b, star, rep: f"{a}/{b}{star}{rep}",
            st.sampled_from(["bar", "25", "24", "13", "8", "6", "3", "1", "0", "off", "26", "99"]),
            st.sampled_from(["bar", "off", "0", "22", "18", "11", "5", "2", "1", "30"]),
            st.sampled_from(["", "*"]),
            st.sampled_from(["", "(2)", "(3)", "(5)", "(0)"]),
        ),
        max_size=5,
    ).map(" ".join),
    st.text(max_size=30),
)


def quoted(exc: FormatError, text: str) -> bool:
    return repr(text) in str(exc) or repr(text.strip()) in str(exc) or text.strip() in str(exc)


def check_position_id(text: str) -> None:
    try:
        p = position_from_id(text)
    except FormatError as exc:
        assert quoted(exc, text)
        return
    assert position_id(p) == text.strip()
    assert p.status() in (p.status().VALID, p.status().BOTH_FINISHED)


def check_match_id(text: str) -> None:
    try:
        m = match_from_id(text)
    except FormatError as exc:
        assert quoted(exc, text)
        return
    assert match_id(m) == text.strip()


def check_xgid(text: str) -> None:
    try:
        x = parse_xgid(text)
    except FormatError as exc:
        assert quoted(exc, text)
        return
    assert parse_xgid(xgid_text(x)) == x


def check_play(text: str) -> None:
    try:
        parse_hops(text)
    except FormatError as exc:
        assert quoted(exc, text) or repr(text.lower().split()[0]) in str(exc) or "token" in str(exc)
        return
    for dice in (None, (3, 1), (6, 6)):
        try:
            parse_play(text, Position.initial(), dice)
        except FormatError as exc:
            assert repr(text) in str(exc)


FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=100_000, deadline=None, suppress_health_check=list(HealthCheck))


@FAST
@given(id_like(14))
def test_fuzz_position_id(text: str) -> None:
    check_position_id(text)


@FAST
@given(id_like(12))
def test_fuzz_match_id(text: str) -> None:
    check_match_id(text)


@FAST
@given(xgid_like)
def test_fuzz_xgid(text: str) -> None:
    check_xgid(text)


@FAST
@given(play_like)
def test_fuzz_play_notation(text: str) -> None:
    check_play(text)


@pytest.mark.slow
@SLOW
@given(id_like(14))
def test_fuzz_position_id_100000(text: str) -> None:
    check_position_id(text)


@pytest.mark.slow
@SLOW
@given(id_like(12))
def test_fuzz_match_id_100000(text: str) -> None:
    check_match_id(text)


@pytest.mark.slow
@SLOW
@given(xgid_like)
def test_fuzz_xgid_100000(text: str) -> None:
    check_xgid(text)


@pytest.mark.slow
@SLOW
@given(play_like)
def test_fuzz_play_notation_100000(text: str) -> None:
    check_play(text)
