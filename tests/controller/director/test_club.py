"""The club as the director sees it while its own broker connection comes and goes."""

from __future__ import annotations

from controller.director.club import ClubView


def test_without_its_broker_the_director_knows_no_stations_online_state():
    view = ClubView("c")
    view.link(True)
    view.receive("tavla/c/1/online", b"1")
    view.receive("tavla/c/2/online", b"0")
    data = view.to_json()
    assert [b["online"] for b in data["boards"]] == [True, False]
    assert data["director"] == {"online": True, "said": ""}
    view.link(False, "broker lost (Unspecified error); retrying")
    data = view.to_json()
    assert [b["online"] for b in data["boards"]] == [None, None]  # unknown, not "online: True"
    assert data["director"] == {"online": False, "said": "broker lost (Unspecified error); retrying"}
    view.link(True)  # back: unknown until the broker's retained online flags come again
    assert [b["online"] for b in view.to_json()["boards"]] == [None, None]
    view.receive("tavla/c/1/online", b"1")
    assert [b["online"] for b in view.to_json()["boards"]] == [True, None]


def test_before_it_connects_the_director_says_so():
    data = ClubView("c").to_json()
    assert data["director"] == {"online": False, "said": "connecting to the broker"}
