"""The director's page (issue 17 item 3), served from a ClubView fed like the broker feeds it."""

from __future__ import annotations

from starlette.testclient import TestClient

from controller.club import topics
from controller.club.url import ClubError
from controller.director.club import ClubView
from controller.director.team import TeamMatch
from controller.director.web import app
from controller.station.journal import GENESIS


def club() -> ClubView:
    view = ClubView("c", (TeamMatch.parse("Reds:Blues:1,2,3"),))
    for board, (light, dark, ls, ds) in {"1": ("Ana", "Ion", 3, 1), "2": ("Bo", "Cy", 0, 3),
                                         "3": ("Di", "Ed", 3, 2)}.items():
        start = {"kind": "match_started", "t": 0.0,
                 "settings": {"light_player": light, "dark_player": dark, "match_length": 3}}
        view.receive(f"tavla/c/{board}/events",
                     topics.dumps({"seq": 0, "prev": GENESIS, "mac": "a" * 64, "key": "k", "event": start}))
        view.receive(f"tavla/c/{board}/state", topics.dumps({
            "seq": 0, "on_roll": None, "dice": [], "rulings": [{"rule": "B15", "text": "re-throw"}],
            "clock": None, "position_id": None, "match_id": None,
            "score": {"light": ls, "dark": ds, "match_length": 3, "crawford": False}}))
        view.receive(f"tavla/c/{board}/online", b"1")
    return view


def test_the_page_shows_every_board_and_the_b18_team_score():
    sent = []
    client = TestClient(app(club(), lambda name, **kw: sent.append((name, kw)) or {"command": name}))
    assert "pause all clocks" in client.get("/").text
    data = client.get("/api/club").json()
    assert [(b["board"], b["light"], b["online"], b["winner"]) for b in data["boards"]] == [
        ("1", "Ana", True, "light"), ("2", "Bo", True, "dark"), ("3", "Di", True, "light")]
    assert data["boards"][0]["rulings"] == [{"rule": "B15", "text": "re-throw"}]
    (team,) = data["teams"]
    assert (team["home_wins"], team["away_wins"], team["winner"]) == (2, 1, "Reds")


def test_round_csv_download():
    r = TestClient(app(club(), lambda *a, **k: {})).get("/round.csv")
    assert r.headers["content-type"].startswith("text/csv")
    assert r.text.splitlines()[1] == ",1,Ana,Ion,3,3,1,Ana"


def test_commands_go_to_the_sender_and_bad_ones_get_one_line():
    sent = []

    def send(name, **kw):
        if name not in ("pause", "resume", "round"):
            raise ClubError(f"unknown director command {name!r}")
        sent.append(name)
        return {"command": name}

    client = TestClient(app(club(), send))
    assert client.post("/api/command", json={"command": "pause"}).json()["said"] == "sent: pause"
    r = client.post("/api/command", json={"command": "explode"})
    assert r.status_code == 400 and "unknown" in r.json()["said"]
    assert client.post("/api/command", content=b"{nope").status_code == 400
    assert sent == ["pause"]
