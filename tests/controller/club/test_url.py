"""``--mqtt`` URLs (issue 17 item 4: a station refuses a URL without a user unless --mqtt-anonymous)."""

from __future__ import annotations

import pytest

from controller.club.url import BrokerUrl, ClubError, parse_url


def test_user_password_host_port():
    assert parse_url("mqtt://st-1:s%40cret@club.example:1884") == BrokerUrl(
        "club.example", 1884, "st-1", "s@cret", False
    )


def test_default_ports_and_tls():
    assert parse_url("mqtt://u:p@h").port == 1883
    url = parse_url("mqtts://u:p@h")
    assert (url.port, url.tls) == (8883, True)


def test_a_url_without_a_user_is_refused_unless_anonymous():
    with pytest.raises(ClubError, match="--mqtt-anonymous"):
        parse_url("mqtt://broker:1883")
    assert parse_url("mqtt://broker:1883", anonymous=True).user is None


@pytest.mark.parametrize("bad", ["http://u:p@h", "mqtt://u:p@", "mqtt://u:p@h:99999", "broker:1883"])
def test_bad_urls_say_what_to_give(bad):
    with pytest.raises(ClubError, match="mqtt://"):
        parse_url(bad)


def test_the_password_never_appears_in_its_text():
    assert "secret" not in str(parse_url("mqtt://u:secret@h:1"))
