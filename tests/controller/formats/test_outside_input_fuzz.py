"""Every parser of outside input raises only its documented error (issue 18 item 6): FormatError and
its family (RecordError, IllegalPlayError). What a parser accepts is in range: ASCII digits only, and a
score below the match length. 2,000 examples each by default; 100,000 under ``-m slow``.

The strategies lean on what broke before: non-ASCII digits (``𝟙3/7`` once read as 13/7, ``MI[ws:²]``
raised a ValueError), huge and negative numbers, scores at or past the match length.
"""

from __future__ import annotations

import base64
import re

import pytest
from hypothesis import settings
from hypothesis import strategies as st

from controller.formats import FormatError, parse_hops, position_from_id
from controller.formats.mat import parse_mat
from controller.formats.match_id import _FIELDS, MatchId, match_from_id
from controller.formats.record import MatchRecord
from controller.formats.sgf import parse_sgf
from controller.formats.xgid import parse_xgid
from tests.controller.formats.test_fuzz import id_like, play_like, xgid_like
from tests.controller.formats.test_record_strategies import FIXTURES, mutated_texts
from tests.fuzzing import FAST, SLOW, run_harness

# digits that str.isdigit() or \d accept but no file format means: mathematical, superscript,
# Arabic-Indic, full-width
ODD_DIGITS = "𝟙𝟚𝟛²³٣１９"
NUMBERS = st.one_of(
    st.integers(-3, 40).map(str),
    st.sampled_from(["99999", "32767", "32768", "-0", "9" * 5000, "1e3", "٣", "２", "𝟙3", "1²"]),
)


def odd_digits(text: str) -> bool:
    return any(c.isdigit() and c not in "0123456789" for c in text)


def with_odd_digits(base: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``base``, with an ASCII digit or two swapped for one of :data:`ODD_DIGITS`."""

    @st.composite
    def swap(draw: st.DrawFn) -> str:
        text = draw(base)
        digits = [i for i, c in enumerate(text) if c in "0123456789"]
        for _ in range(draw(st.integers(1, 2))):
            if not digits:
                break
            i = draw(st.sampled_from(digits))
            text = text[:i] + draw(st.sampled_from(ODD_DIGITS)) + text[i + 1 :]
        return text

    return st.one_of(base, swap())


@st.composite
def number_edits(draw: st.DrawFn, suffix: str) -> str:
    """A fixture with some of its numbers replaced by :data:`NUMBERS` (huge, negative, odd digits)."""
    path = draw(st.sampled_from(sorted(p for p in FIXTURES.iterdir() if p.suffix == suffix)))
    text = path.read_text(encoding="utf-8")
    runs = [m.span() for m in re.finditer(r"[0-9]+", text)]
    for _ in range(draw(st.integers(1, 3))):
        a, b = draw(st.sampled_from(runs))
        text = text[:a] + draw(NUMBERS) + text[b:]
        runs = [m.span() for m in re.finditer(r"[0-9]+", text)]
        if not runs:
            break
    return text


def scores_below_length(record: MatchRecord) -> None:
    for game in record.games:
        assert all(isinstance(s, int) and s >= 0 for s in game.score)
        if record.length > 0:
            assert max(game.score) < record.length, (game.score, record.length)


# --- the checks: a value or the documented error, never anything else ----------------------------


def check_position_id(text: str) -> None:
    try:
        position_from_id(text)
    except FormatError:
        return


def check_match_id(text: str) -> None:
    try:
        m = match_from_id(text)
    except FormatError:
        return
    if m.match_length:
        assert max(m.score) < m.match_length


def check_xgid(text: str) -> None:
    try:
        x = parse_xgid(text)
    except FormatError:
        return
    assert not odd_digits(text)
    assert min(x.score_x, x.score_o, x.match_length) >= 0
    if x.match_length:
        assert max(x.score_x, x.score_o) < x.match_length


def check_notation(text: str) -> None:
    try:
        parse_hops(text)
    except FormatError:
        return
    assert not odd_digits(text)


def check_mat(text: str) -> None:
    try:
        record = parse_mat(text, "fuzz.mat")
    except FormatError:
        return
    scores_below_length(record)


def check_sgf(text: str) -> None:
    try:
        record = parse_sgf(text, "fuzz.sgf")
    except FormatError:
        return
    scores_below_length(record)


def raw_match_id(length: int, s0: int, s1: int) -> str:
    """A Match ID holding these numbers whatever they are (match_id() refuses a score past the length)."""
    values = {name: 0 for name, _ in _FIELDS} | {"cube_owner": 3, "game_state": 1}
    values |= {"match_length": length, "score0": s0, "score1": s1}
    key, shift = 0, 0
    for name, width in _FIELDS:
        key |= values[name] << shift
        shift += width
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


match_ids = st.one_of(
    id_like(12),
    st.builds(raw_match_id, st.integers(0, 25), st.integers(0, 30), st.integers(0, 30)),
)
xgids = with_odd_digits(
    st.one_of(
        xgid_like,
        st.builds(
            lambda s0, s1, length: f"XGID=-b----E-C---eE---c-e----B-:0:0:1:52:{s0}:{s1}:0:{length}:10",
            NUMBERS,
            NUMBERS,
            NUMBERS,
        ),
    )
)
plays = with_odd_digits(play_like)
mats = st.one_of(number_edits(".mat"), mutated_texts((".mat",)).map(lambda case: case[1]))
sgfs = st.one_of(
    number_edits(".sgf"),
    mutated_texts((".sgf",)).map(lambda case: case[1]),
    st.builds(
        lambda key, value: f"(;FF[4]GM[6]MI[length:7][{key}:{value}];B[31hgge])",
        st.sampled_from(["length", "game", "ws", "bs", "other"]),
        NUMBERS,
    ),
    st.builds(lambda n: f"(;FF[4]GM[6]MI[length:7][game:0][ws:0][bs:0]RE[W+{n}])", NUMBERS),
)

HARNESSES = {
    "position_id": (id_like(14), check_position_id),
    "match_id": (match_ids, check_match_id),
    "xgid": (xgids, check_xgid),
    "notation": (plays, check_notation),
    "mat": (mats, check_mat),
    "sgf": (sgfs, check_sgf),
}


def _run(name: str, runner: settings) -> None:
    run_harness(name, *HARNESSES[name], runner)


@pytest.mark.parametrize("name", HARNESSES)
def test_a_parser_raises_only_its_documented_error(name: str) -> None:
    _run(name, FAST)


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("name", HARNESSES)
def test_a_parser_raises_only_its_documented_error_100000(name: str) -> None:
    _run(name, SLOW)


@pytest.mark.parametrize(
    "text",
    ["𝟙3/7", "13/𝟕", "１3/7", "8/5 6/5(２)"],
)
def test_notation_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(FormatError):
        parse_hops(text)


def test_xgid_takes_ascii_digits_and_scores_below_the_length() -> None:
    good = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:5:10"
    assert parse_xgid(good).match_length == 5
    for bad in (good.replace(":5:10", ":٥:10"), good.replace(":0:0:0:5", ":5:0:0:5"),
                good.replace(":0:0:0:5", ":0:-1:0:5"), good.replace(":0:0:0:5", ":0:7:0:5")):
        with pytest.raises(FormatError):
            parse_xgid(bad)


def test_match_id_refuses_a_score_at_the_length() -> None:
    assert match_from_id(raw_match_id(5, 4, 0)).score == (4, 0)
    with pytest.raises(FormatError):
        match_from_id(raw_match_id(5, 5, 0))
    with pytest.raises(FormatError):
        MatchId(match_length=5, score=(5, 0))
    with pytest.raises(FormatError):
        MatchId(match_length=5, score=(0, -1))
    assert MatchId(match_length=0, score=(9, 3)).score == (9, 3)  # money play: a session's tally


@pytest.mark.parametrize(
    "mi",
    ["[ws:²]", "[bs:-1]", "[ws:7]", "[length:𝟕]", "[game:" + "9" * 5000 + "]"],
)
def test_sgf_refuses_odd_numbers_and_scores_at_the_length(mi: str) -> None:
    with pytest.raises(FormatError):
        parse_sgf(f"(;FF[4]GM[6]MI[length:7]{mi};B[31hgge])")


def test_sgf_refuses_a_huge_result() -> None:
    with pytest.raises(FormatError):
        parse_sgf("(;FF[4]GM[6]MI[length:7][game:0][ws:0][bs:0]RE[W+" + "9" * 5000 + "])")


def test_mat_refuses_odd_digits_and_a_score_at_the_length() -> None:
    text = " 5 point match\n\n Game 1\n Ann : 0                        Bob : 0\n  1) 31: 8/5 6/5\n"
    assert parse_mat(text).length == 5
    for bad in (text.replace("8/5", "𝟖/5"), text.replace("Ann : 0", "Ann : 5"),
                text.replace(" 5 point", " ５ point")):
        with pytest.raises(FormatError):
            parse_mat(bad)
