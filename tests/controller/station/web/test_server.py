"""The station's page over HTTP (controller.station.web.server): the state contract, referee actions
that land in the journal and replay, and bad input answered in one line with nothing changed."""

from __future__ import annotations

import pytest

from controller.game.events import RefereeAction
from controller.game.rulings import Settings
from controller.station import replay
from controller.station.demo import scripted_events
from controller.station.journal import read
from controller.station.web import WebError, WebServer, check_exposure, parse_address

from .conftest import PIN, request

CONTRACT = ("position_id", "match_id", "dice", "on_roll", "score", "clock", "rulings", "seq")


def test_state_follows_every_event_of_a_scripted_game(live):
    for n, ev in enumerate(scripted_events(turns=3, settings=Settings(match_length=5)), 1):
        live.feed(ev)
        status, state = request(live.url + "api/state")
        assert status == 200 and state["seq"] == n and set(CONTRACT) <= set(state)
    assert state["score"]["match_length"] == 5 and state["on_roll"] in ("light", "dark")


def test_b15_a_referee_action_lands_in_the_journal_and_replays(live):
    for ev in scripted_events(turns=2):
        if live.feed(ev)["phase"] == "moving":
            break
    seq = live.station.seq
    status, answer = request(live.url + "api/action", {"pin": PIN, "action": "rethrow"})
    assert status == 202 and answer["accepted"]["kind"] == "referee"
    state = live.wait_seq(seq + 1)
    assert state["phase"] == "to_roll" and state["rulings"][-1]["rule"] == "B15"
    live.station.stop()
    live.journal.close()
    events = read(live.path)
    assert isinstance(events[-1], RefereeAction) and events[-1].action == "rethrow"
    assert replay(events)[0] == live.station.state


def test_the_camera_is_wrong_enters_the_true_position(live):
    for ev in scripted_events(turns=0)[:2]:
        live.feed(ev)
    slots = [list(s) for s in live.server.state["board"]["slots"]]
    slots[0] = ["dark", 1]
    slots[1] = ["dark", 1]
    seq = live.station.seq
    status, _ = request(live.url + "api/action", {"pin": PIN, "action": "position", "slots": slots})
    assert status == 202
    state = live.wait_seq(seq + 1)
    assert state["board"]["slots"][1] == ["dark", 1] and state["board"]["source"] == "referee"


@pytest.mark.parametrize(
    ("raw", "status", "words"),
    [
        (b"{not json", 400, "not JSON"),
        (b"[1, 2]", 401, "wrong PIN"),
        (b'{"pin": "246813", "action": "explode"}', 400, "unknown action"),
        (b'{"pin": "246813", "action": "resign", "player": "blue", "value": 2}', 400, "resign"),
        (b'{"pin": "246813", "action": "score", "score": {"light": -1, "dark": 0}}', 400, "score"),
        (b'{"pin": "246813", "action": "position", "slots": [1, 2]}', 400, "24"),
        (b'{"pin": "246813", "action": "position", "slots": [' + b", ".join([b'["light", 15]'] * 24) + b"]}",
         400, "a side has 15"),
        (b'{"pin": "' + b"9" * 40000 + b'", "action": "undo"}', 413, "over"),
        (b"[" * 8000 + b"]" * 8000, 400, "nested too deep"),
        (b'{"pin": ' + b"[" * 5000 + b"]" * 5000 + b', "action": "undo"}', 400, "nested too deep"),
        (b'{"pin": "\\ud800", "action": "undo"}', 401, "wrong PIN"),
        (b'{"pin": "\xff\xfe", "action": "undo"}', 400, "not JSON"),
        (b"", 400, "not JSON"),
        (b'{"pin": 246813, "action": "undo"}', 401, "wrong PIN"),
        (b'{"pin": "246813", "action": "resign", "player": "light", "value": true}', 400, "value"),
        (b'{"pin": "246813", "action": "score", "score": {"light": NaN, "dark": 0}}', 400, "score"),
        (b'{"pin": "246813", "action": "position", "slots": "' + b"x" * 100 + b'"}', 400, "24"),
    ],
)
def test_bad_input_gets_one_line_and_changes_nothing(live, raw, status, words):
    before = live.station.seq
    got, answer = request(live.url + "api/action", raw=raw, method="POST")
    assert got == status and words in answer["error"] and "\n" not in answer["error"]
    assert live.station.seq == before and len(live.journal) == before


def test_requests_outside_the_routes_get_a_plain_answer(live):
    assert request(live.url + "api/action")[0] == 405  # GET of an action
    assert request(live.url + "api/nothing")[0] == 404
    status, text = request(live.url + "download/..%2F..%2Fetc%2Fpasswd")
    assert status == 404 and "offered" in text
    assert request(live.url + "static/..%2Fserver.py")[0] == 404
    assert len(live.journal) == 0


def test_more_pages_than_the_limit_get_503_and_the_open_ones_go_on(live, monkeypatch):
    import urllib.request

    from controller.station.web import server

    monkeypatch.setattr(server, "MAX_STREAMS", 2)
    streams = [urllib.request.urlopen(live.url + "api/events", timeout=10) for _ in range(2)]
    try:
        status, text = request(live.url + "api/events")
        assert status == 503 and "close one" in text
        live.feed(scripted_events(turns=1)[0])
        for s in streams:
            got = ""
            while '"seq":1' not in got:
                got += s.read1(65536).decode()
    finally:
        for s in streams:
            s.close()


def test_wrong_pins_are_locked_out_and_a_flood_is_slowed(live):
    answers = [request(live.url + "api/action", {"pin": "0000", "action": "undo"})[0] for _ in range(5)]
    assert answers[:3] == [401, 401, 401] and answers[3] == 429
    assert request(live.url + "api/action", {"pin": PIN, "action": "undo"})[0] == 429  # locked even so
    assert len(live.journal) == 0


def test_a_flood_of_good_actions_is_slowed_to_the_rate(live):
    got = [request(live.url + "api/action", {"pin": PIN, "action": "pause"})[0] for _ in range(30)]
    assert 202 in got and 429 in got and got.count(202) <= 12


def test_downloads_offer_the_records(live):
    for ev in scripted_events(turns=3):
        live.feed(ev)
    status, text = request(live.url + "download/match.sgf")
    assert status == 200 and text.startswith("(;")
    status, text = request(live.url + "download/match.mat")
    assert status == 200 and "Game 1" in text
    status, text = request(live.url + "download/journal.jsonl")
    assert status == 200 and text.count("\n") >= 4
    assert request(live.url + "download/secret.txt")[0] == 404


def test_a_non_local_address_needs_a_pin():
    with pytest.raises(WebError, match="PIN"):
        check_exposure("0.0.0.0", None)
    check_exposure("0.0.0.0", "123456")
    check_exposure("127.0.0.1", None)
    assert parse_address("8080") == ("127.0.0.1", 8080)
    assert parse_address("0.0.0.0:80") == ("0.0.0.0", 80)
    with pytest.raises(WebError, match="PORT"):
        parse_address("localhost:http")
    with pytest.raises(WebError, match="PIN"):
        WebServer(lambda e: None, lambda: 0.0, host="192.168.1.5")


def test_a_taken_port_is_one_line(live):
    other = WebServer(lambda e: None, lambda: 0.0, port=live.server.port)
    with pytest.raises(WebError, match="cannot serve"):
        other.start()


def test_auto_falls_back_to_a_free_port_when_the_one_asked_is_taken(live):
    assert parse_address("auto") == ("127.0.0.1", 8080)
    other = WebServer(lambda e: None, lambda: 0.0, port=live.server.port)
    other.start(fallback=True)
    try:
        assert other.taken == live.server.port and other.port not in (0, live.server.port)
        assert request(other.url + "api/state") == (200, {"seq": 0})
    finally:
        other.stop()


@pytest.mark.parametrize("pin", ["12", "12345", "", "12 456", "123456\n", "9" * 65])
def test_a_weak_or_odd_pin_is_refused_before_anything_is_served(pin):
    with pytest.raises(WebError, match="PIN") as err:
        WebServer(lambda e: None, lambda: 0.0, pin=pin)
    assert "\n" not in str(err.value)
    with pytest.raises(WebError, match="PIN"):
        check_exposure("0.0.0.0", pin)
    WebServer(lambda e: None, lambda: 0.0, pin="123456")  # six digits will do
    WebServer(lambda e: None, lambda: 0.0, pin="kasparov")


def test_an_idle_stream_is_kept_alive_and_a_closed_page_is_let_go(live, monkeypatch):
    """A page left open for hours: a ping event every KEEPALIVE_S (its data the interval, so the page
    can tell a silent stream) keeps the stream alive, and a page that went away frees its stream at
    the next write."""
    import time
    import urllib.request

    from controller.station.web import server

    monkeypatch.setattr(server, "KEEPALIVE_S", 0.2)
    with urllib.request.urlopen(live.url + "api/events", timeout=10) as stream:
        got = ""
        deadline = time.monotonic() + 10
        while got.count("event: ping") < 3 and time.monotonic() < deadline:
            got += stream.read1(65536).decode()
        assert got.startswith("retry: 1000\n\nevent: ping\ndata: {\"every\": 0.2}\n\n"), got[:200]
        assert got.count("event: ping") >= 3 and f"id: {live.server.epoch}-0\ndata: " in got
        assert live.server.streams == 1
    live.feed(scripted_events(turns=1)[0])  # a write to the closed page ends its stream
    deadline = time.monotonic() + 5
    while live.server.streams and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.server.streams == 0


def test_the_cameras_last_frame_is_served_with_the_readers_overlay(tmp_path):
    import urllib.request

    import cv2
    import numpy as np

    from controller.station import Station
    from controller.station.demo import frames
    from controller.station.web import FrameTap, attach
    from vision.reader import read_board

    image, _, _ = next(frames(turns=1))
    reading = read_board(image)
    tap = FrameTap(per_second=1000)
    station = Station()
    server = attach(station, "127.0.0.1:0", frames=tap)
    try:
        assert request(server.url + "api/frame.jpg")[0] == 404  # none yet: one line
        tap(image, reading)
        with urllib.request.urlopen(server.url + "api/frame.jpg", timeout=10) as r:
            assert r.headers["Content-Type"] == "image/jpeg"
            shown = cv2.imdecode(np.frombuffer(r.read(), np.uint8), cv2.IMREAD_COLOR)
    finally:
        server.stop()
    assert shown.shape == image.shape
    drawn = np.abs(shown.astype(int) - image.astype(int)).max(axis=2) > 80  # the overlay's marks
    xs = [int(p.image_xy[0]) for p in reading.points if p.image_xy is not None]
    assert drawn.sum() > 500 and len(xs) == 24


def test_every_referee_action_from_the_page_replays_from_the_journal(live):
    """B15 mix and re-throw, the clock, B14 score, undo, B17 accept, B9 resignation: each posted
    through the page, each journaled, and the journal replays to the station's state."""
    events = scripted_events(turns=2, settings=Settings(match_length=5, clock="simple"))
    live.feed(events[0])
    live.feed(events[1])

    def post(**body):
        seq = live.station.seq
        status, answer = request(live.url + "api/action", {"pin": PIN, **body})
        assert status == 202, answer
        return live.wait_seq(seq + 1)

    assert post(action="mix")["rulings"][-1]["rule"] == "B15"
    for ev in events[2:]:
        if live.feed(ev)["phase"] == "moving":
            break
    assert post(action="rethrow")["phase"] == "to_roll"
    assert post(action="pause")["clock"]["paused"]
    assert not post(action="resume")["clock"]["paused"]
    assert post(action="score", score={"light": 3, "dark": 1})["score"]["light"] == 3
    assert post(action="undo")["score"]["light"] == 0
    assert post(action="accept")["phase"] == "to_roll"  # no dispute open: journaled, a prompt, no change
    state = post(action="resign", player="dark", value=2)
    assert state["score"] == {"light": 2, "dark": 0, "match_length": 5, "crawford": False}
    live.station.stop()
    live.journal.close()
    journaled = read(live.path)
    kinds = [e.action for e in journaled if isinstance(e, RefereeAction)]
    assert kinds == ["mix", "rethrow", "pause", "resume", "score", "undo", "accept", "resign"]
    assert replay(journaled)[0] == live.station.state


def test_a_hint_is_refused_in_tournament_mode_and_without_a_roll(tmp_path):
    from .conftest import start_live

    for hints, status, words in (("referee", 403, "tournament"), ("home", 409, "roll")):
        lv = start_live(tmp_path / f"{hints}.jsonl", settings=Settings(hints=hints))
        try:
            events = scripted_events(turns=1, settings=Settings(hints=hints))
            for ev in events[:2]:  # the start position: no roll yet
                lv.feed(ev)
            got, answer = request(lv.url + "api/hint", raw=b"", method="POST")
            assert got == status and words in answer["error"] and "\n" not in answer["error"]
            assert lv.station.seq == 2 and len(lv.journal) == 2
        finally:
            lv.close()


def test_a_flood_of_hint_requests_is_slowed_and_each_one_taken_is_journaled(tmp_path):
    from .conftest import start_live

    lv = start_live(tmp_path / "j.jsonl", settings=Settings(hints="home"))
    try:
        for ev in scripted_events(turns=2, settings=Settings(hints="home")):
            if lv.feed(ev)["phase"] == "moving":
                break
        seq = lv.station.seq
        got = [request(lv.url + "api/hint", raw=b"", method="POST")[0] for _ in range(30)]
        assert 202 in got and 429 in got and got.count(202) <= 12
        lv.wait_seq(seq + got.count(202))
        assert lv.station.seq == seq + got.count(202) == len(lv.journal)
    finally:
        lv.close()
