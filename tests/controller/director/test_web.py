"""The director's page (issue 17 item 3) over HTTP, served from a ClubView fed as the broker feeds it."""

from __future__ import annotations

import asyncio
import json
from importlib import resources

from aiohttp.test_utils import TestClient, TestServer

from controller.club import topics
from controller.club.url import ClubError
from controller.director.club import ClubView
from controller.director.team import TeamMatch
from controller.director.web import app
from controller.station.journal import GENESIS


def club() -> ClubView:
    view = ClubView("c", (TeamMatch.parse("Reds:Blues:1,2,3"),))
    view.link(True)  # as the director's client says on connecting
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


PIN = "471108"


def served(view, send, check, pin=PIN):
    """Run ``check(client)`` against the page of ``view`` (aiohttp's test server, a free port)."""

    async def go():
        async with TestClient(TestServer(app(view, send, pin))) as client:
            return await check(client)

    return asyncio.run(go())


def test_the_page_shows_every_board_and_the_b18_team_score():
    async def check(client):
        page = await (await client.get("/")).text()
        assert "pause all clocks" in page and "/static/board.js" not in page  # the script imports it
        data = await (await client.get("/api/club")).json()
        assert [(b["board"], b["light"], b["online"], b["winner"]) for b in data["boards"]] == [
            ("1", "Ana", True, "light"), ("2", "Bo", True, "dark"), ("3", "Di", True, "light")]
        assert data["boards"][0]["rulings"] == [{"rule": "B15", "text": "re-throw"}]
        (team,) = data["teams"]
        assert (team["home_wins"], team["away_wins"], team["winner"]) == (2, 1, "Reds")

    served(club(), lambda *a, **k: {}, check)


def test_each_board_is_drawn_by_the_station_pages_own_parts():
    """The director's script imports the station page's board.js and live.js, and they are served
    byte for byte as the station page has them; its styles too."""
    station = resources.files("controller.station.web")

    async def check(client):
        script = await (await client.get("/static/director.js")).text()
        assert 'from "./board.js"' in script and 'from "./live.js"' in script
        for name, kind in (("board.js", "text/javascript"), ("live.js", "text/javascript"),
                           ("page.css", "text/css"), ("director.css", "text/css")):
            r = await client.get(f"/static/{name}")
            assert r.status == 200 and r.content_type == kind, name
            if name != "director.css":
                assert await r.text() == station.joinpath(name).read_text(encoding="utf-8")
        page = await (await client.get("/")).text()
        assert 'href="/static/page.css"' in page
        assert (await client.get("/static/server.py")).status == 404
        assert (await client.get("/static/..%2Fserver.py")).status == 404

    served(club(), lambda *a, **k: {}, check)


def test_the_live_stream_sends_the_club_and_then_each_change():
    view = club()

    async def check(client):
        r = await client.get("/api/events")
        assert r.headers["content-type"].startswith("text/event-stream")

        async def next_club():
            while True:
                line = (await asyncio.wait_for(r.content.readline(), 10)).decode()
                if line.startswith("data: "):
                    return json.loads(line[6:])

        first = await next_club()
        assert [b["board"] for b in first["boards"]] == ["1", "2", "3"]
        view.receive("tavla/c/2/online", b"0")  # the broker's last will for board 2
        second = await next_club()
        assert [b["online"] for b in second["boards"]] == [True, False, True]
        r.close()

    served(view, lambda *a, **k: {}, check)


def test_round_csv_download():
    async def check(client):
        r = await client.get("/round.csv")
        assert r.content_type == "text/csv" and "attachment" in r.headers["content-disposition"]
        assert (await r.text()).splitlines()[1] == ",1,Ana,Ion,3,3,1,Ana"

    served(club(), lambda *a, **k: {}, check)


def test_commands_go_to_the_sender_and_bad_ones_get_one_line():
    sent = []

    def send(name, **kw):
        if name not in ("pause", "resume", "round"):
            raise ClubError(f"unknown director command {name!r}")
        sent.append(name)
        return {"command": name}

    async def check(client):
        assert (await (await client.post("/api/command", json={"command": "pause", "pin": PIN})).json())[
            "said"] == "sent: pause"
        r = await client.post("/api/command", json={"command": "explode", "pin": PIN})
        assert r.status == 400 and "unknown" in (await r.json())["said"]
        assert (await client.post("/api/command", data=b"{nope")).status == 400
        assert (await client.post("/api/command", json=[1])).status == 400
        big = {"command": "round", "pad": "x" * 100_000}
        assert (await client.post("/api/command", json=big)).status == 413

    served(club(), send, check)
    assert sent == ["pause"]


def test_a_round_lists_its_pairings_until_each_station_has_started_its_match():
    """Before a board's station journals the round's match, the board still shows the last round's
    result, which is not this round's: the row is the pairing's, with no score."""
    view = club()
    view.start_round(topics.command("round", "x", round=2, pairings=[
        {"board": "2", "light": "Bo", "dark": "Cy", "match_length": 3},
        {"board": "1", "light": "Fay", "dark": "Gil", "match_length": 5}]))

    async def check(client):
        r = await client.get("/round.csv?round=2")
        assert 'filename="c-round-2.csv"' in r.headers["content-disposition"]
        assert (await r.text()).splitlines()[1:] == ["2,2,Bo,Cy,3,0,3,Cy", "2,1,Fay,Gil,5,,,"]
        # every round's, and the matches of none (board 1's last match is no round 2 match)
        lines = (await (await client.get("/round.csv")).text()).splitlines()
        assert lines[1:] == ["2,2,Bo,Cy,3,0,3,Cy", "2,1,Fay,Gil,5,,,", ",1,Ana,Ion,3,3,1,Ana",
                             ",3,Di,Ed,3,3,2,Di"]
        data = await (await client.get("/api/club")).json()
        assert [r["board"] for r in data["results"]] == ["2", "1", "1", "3"] and data["rounds"] == [2]
        assert (await client.get("/round.csv?round=7")).status == 404
        assert (await client.get("/round.csv?round=x")).status == 400

    served(view, lambda *a, **k: {}, check)


def test_every_command_needs_the_directors_pin_and_wrong_ones_are_slowed():
    sent = []

    def send(name, **kw):
        sent.append((name, kw))
        return {"command": name}

    async def check(client):
        r = await client.post("/api/command", json={"command": "pause"})
        assert r.status == 401 and (await r.json())["said"] == "wrong PIN"
        for _ in range(2):
            r = await client.post("/api/command", json={"command": "pause", "pin": "000000"})
            assert r.status == 401
        r = await client.post("/api/command", json={"command": "pause", "pin": "000000"})
        assert r.status == 429 and "locked" in (await r.json())["said"] and r.headers["Retry-After"] == "2"
        r = await client.post("/api/command", json={"command": "pause", "pin": PIN})
        assert r.status == 429  # locked out even with the right PIN, until the lock ends
        # reading needs no PIN
        assert (await client.get("/api/club")).status == 200
        assert (await client.get("/round.csv")).status == 200
        assert (await client.get("/")).status == 200

    served(club(), send, check)
    assert sent == []  # the PIN never reaches a station, nor does a refused command


def test_without_a_pin_the_page_is_read_only():
    async def check(client):
        r = await client.post("/api/command", json={"command": "pause", "pin": ""})
        assert r.status == 403 and "--pin" in (await r.json())["said"]
        assert (await client.get("/api/club")).status == 200

    served(club(), lambda *a, **k: {}, check, pin=None)


def test_the_pin_is_not_sent_on_with_the_command():
    sent = []

    def send(name, **kw):
        sent.append((name, kw))
        return {"command": name, **kw}

    async def check(client):
        body = {"command": "round", "pin": PIN, "round": 1, "pairings": []}
        r = await client.post("/api/command", json=body)
        assert r.status == 200

    served(club(), send, check)
    assert sent == [("round", {"round": 1, "pairings": []})]
