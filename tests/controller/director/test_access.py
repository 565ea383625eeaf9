"""Who may command the director's page (controller.director.access): the station page's rule."""

from __future__ import annotations

import pytest

from controller.club.url import ClubError
from controller.director.access import Access, access, parse_web


def test_web_takes_host_and_port_as_the_stations_page_does():
    assert parse_web("8090") == ("127.0.0.1", 8090)
    assert parse_web("0.0.0.0:8091") == ("0.0.0.0", 8091)
    assert parse_web("[::]:8092") == ("::", 8092)
    for bad in ("", "x", "0", "70000", "host:"):
        with pytest.raises(ClubError, match=r"\[HOST:\]PORT"):
            parse_web(bad)
    assert Access("::", 8092, None).where == "http://[::]:8092/"


def test_an_address_other_than_the_machines_own_needs_a_director_pin():
    assert access("8090", None) == Access("127.0.0.1", 8090, None)
    with pytest.raises(ClubError, match="reachable from other machines: set a director PIN"):
        access("0.0.0.0:8091", None)
    assert access("0.0.0.0:8091", "471108") == Access("0.0.0.0", 8091, "471108")
    with pytest.raises(ClubError, match="--pin is 4 characters; a director PIN needs 6"):
        access("8090", "1234")  # too short, even on 127.0.0.1


def test_the_pin_may_come_from_the_directors_file(tmp_path):
    f = tmp_path / "director.toml"
    f.write_text('pin = "s3cret-pin"\n')
    assert access("0.0.0.0:8091", None, f).pin == "s3cret-pin"
    assert access("8090", "471108", f).pin == "471108"  # --pin first
    f.write_text('pin = "123"\n')
    with pytest.raises(ClubError, match=f"pin in {f} is 3 characters"):
        access("8090", None, f)
    f.write_text('pin = 471108\n')
    with pytest.raises(ClubError, match="pin is text"):
        access("8090", None, f)
    f.write_text('pim = "471108"\n')
    with pytest.raises(ClubError, match="unknown key 'pim'"):
        access("8090", None, f)
    f.write_text('pin = \n')
    with pytest.raises(ClubError, match="not TOML"):
        access("8090", None, f)
    with pytest.raises(ClubError, match="cannot read it"):
        access("8090", None, tmp_path / "none.toml")
