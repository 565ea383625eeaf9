"""The club as the director sees it while its own broker connection comes and goes."""

from __future__ import annotations

import json
from dataclasses import replace

from controller.club import topics
from controller.director.club import ClubView
from controller.director.team import TeamMatch
from controller.game.events import MatchStarted
from controller.game.rulings import Settings
from controller.station import Station
from controller.station.demo import scripted_events
from controller.station.journal import Journal
from controller.station.snapshot import snapshot

from .conftest import SEEDS


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


def _played(folder, name: str, light: str, dark: str, then: tuple[str, str, int] | None = None) -> list:
    """A station's journal lines and its last state: a 1-point match played out, then (``then``) a
    new match of the next round begun on the same board."""
    path = folder / f"b{name}.jsonl"
    journal = Journal(path, fsync=False)
    station = Station(journal=journal)
    settings = Settings(hints="referee", match_length=1, light_player=light, dark_player=dark)
    for ev in scripted_events(SEEDS[name], settings=settings):
        station.handle(ev)
    if then is not None:
        station.handle(MatchStarted(t=999.0, settings=replace(
            settings, light_player=then[0], dark_player=then[1], match_length=then[2]).to_json()))
    state = {**snapshot(station), "seq": journal.next_seq - 1, "journal": "j"}
    journal.close()
    return [(f"tavla/c/{name}/events", topics.dumps({**json.loads(x), "journal": "j"}))
            for x in path.read_text().splitlines()] + [(f"tavla/c/{name}/state", topics.dumps(state))]


def test_a_new_rounds_match_keeps_the_last_rounds_result_and_the_team_score(tmp_path):
    """RULES.md B18: a board win counts once its match is finished; board 1's next match, begun by a
    round-2 command, neither drops round 1's row nor takes the board win back (3-0 stayed 3-0
    only until the next match began, in the fresh user's report)."""
    view = ClubView("c", (TeamMatch.parse("Reds:Blues:1,2,3"),))
    view.link(True)
    for n in ("1", "2", "3"):
        for topic, payload in _played(tmp_path, n, f"Red {n}", f"Blue {n}"):
            view.receive(topic, payload)
    before = view.to_json()
    (team,) = before["teams"]
    assert team["home_wins"] + team["away_wins"] == 3
    assert len(before["results"]) == 3 and all(r["winner"] for r in before["results"])
    view.start_round({"command": "round", "id": "x", "round": 2,
                      "pairings": [{"board": "1", "light": "Ana", "dark": "Ion", "match_length": 5}]})
    for topic, payload in _played(tmp_path / "again", "1", "Red 1", "Blue 1", ("Ana", "Ion", 5)):
        view.receive(topic, payload)
    after = view.to_json()
    assert after["teams"][0]["home_wins"] == team["home_wins"]
    assert after["teams"][0]["away_wins"] == team["away_wins"]
    rows = [(r["round"], r["board"], r["light"], r["winner"]) for r in after["results"]]
    assert rows[0] == (2, "1", "Ana", "")
    assert sorted(rows[1:]) == sorted(("", r["board"], r["light"], r["winner"]) for r in before["results"])
    assert view.round_csv(2).splitlines()[1:] == ["2,1,Ana,Ion,5,0,0,"]
    assert len(view.round_csv().splitlines()) == 1 + 4
