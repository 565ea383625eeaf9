"""The station key: made at the first run, mode 0600 in a 0700 folder, the same key afterwards; a key
that others may read, or a file that is no key, is refused in one line."""

from __future__ import annotations

import stat

import pytest

from controller.station.journal_key import KeyFileError, default_key_path, load_key, station_key


def test_the_first_run_makes_a_private_key_and_later_runs_reuse_it(station_key_home):
    path = default_key_path()
    assert path == station_key_home / "tavla" / "station.key" and not path.exists()
    made = station_key()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert station_key() == made and load_key(path).id == made.id and len(made.id) == 16
    assert made.secret.hex() not in repr(made)


def test_a_key_others_may_read_is_refused(tmp_path):
    path = station_key(tmp_path / "k").path
    path.chmod(0o644)
    with pytest.raises(KeyFileError, match="may be read by other users .*chmod 600"):
        station_key(path)


@pytest.mark.parametrize("text", [b"", b"abc\n", b"zz" * 32, "é".encode() * 40])
def test_a_file_that_is_no_key_is_refused(tmp_path, text):
    path = tmp_path / "k"
    path.write_bytes(text)
    with pytest.raises(KeyFileError, match="is not a Tavla station key"):
        load_key(path)


def test_different_keys_have_different_ids(tmp_path):
    assert station_key(tmp_path / "a").id != station_key(tmp_path / "b").id
