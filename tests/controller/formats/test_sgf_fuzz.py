"""Property tests of the .sgf reader and writer: round trip, and hand-edited files never crash."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from controller.formats.record import MatchRecord, RecordError
from controller.formats.replay import replay_match
from controller.formats.sgf import parse_sgf, write_sgf
from tests.controller.formats.test_record_strategies import mutated_texts, sgf_records

_DEFAULT = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_ROUND_TRIP = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_SLOW = settings(max_examples=100_000, deadline=None, suppress_health_check=list(HealthCheck))


def _check_round_trip(record: MatchRecord) -> None:
    assert parse_sgf(write_sgf(record)) == record


def _check_edited(case: tuple[str, str]) -> None:
    name, text = case
    try:
        record = parse_sgf(text, name)
    except RecordError as exc:
        assert str(exc).startswith(f"{name}:")
        assert exc.line >= 0
        return
    replay_match(record)  # a record that reads must also replay without raising
    assert parse_sgf(write_sgf(record), name) == record


@pytest.mark.slow
@_ROUND_TRIP
@given(sgf_records())
def test_round_trip(record: MatchRecord) -> None:
    _check_round_trip(record)


@_DEFAULT
@given(mutated_texts((".sgf",)))
def test_edited_or_truncated_files_give_a_clear_error(case: tuple[str, str]) -> None:
    _check_edited(case)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 100,000 examples take minutes, past the default 600 s
@_SLOW
@given(sgf_records())
def test_round_trip_slow(record: MatchRecord) -> None:
    _check_round_trip(record)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 100,000 examples take minutes, past the default 600 s
@_SLOW
@given(mutated_texts((".sgf",)))
def test_edited_or_truncated_files_slow(case: tuple[str, str]) -> None:
    _check_edited(case)
