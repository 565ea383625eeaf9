"""The station's page in a real headless Chromium (Debian's chromium and chromium-driver, driven by
selenium): it loads, draws each event's position, sends a referee action that lands in the journal,
refuses a wrong PIN, and reconnects by itself when the station restarts. One browser per module."""

from __future__ import annotations

import shutil
import tempfile
import time
from pathlib import Path

import pytest

from controller.game.events import RefereeAction
from controller.game.rulings import Settings
from controller.station.demo import scripted_events
from controller.station.journal import read

from .conftest import PIN, start_live

CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTEFACTS = Path(__file__).resolve().parents[4] / "build" / "test-artefacts"
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1400,1000",
)


@pytest.fixture(scope="module")
def browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the dev extra)")
    if not (Path(CHROMEDRIVER).exists() and Path(CHROMIUM).exists()):
        pytest.skip("no chromium / chromium-driver: apt-get install chromium chromium-driver (.ci/run does)")
    profile = tempfile.mkdtemp(prefix="tavla-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait_for(check, timeout: float = 10.0, what: str = "the page"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"{what} did not happen within {timeout} s")


def page_seq(driver) -> int:
    return int(driver.execute_script("return Number(document.body.dataset.seq || -1)"))


def dom_board(driver) -> list[list]:
    """Each point's colour and count as the SVG shows them, in camera slot order."""
    return driver.execute_script(
        "return [...document.querySelectorAll('#board .point')]"
        ".sort((a, b) => a.dataset.slot - b.dataset.slot)"
        ".map(g => [g.dataset.colour || null, Number(g.dataset.count),"
        " g.querySelectorAll('circle').length])"
    )


@pytest.fixture(scope="module")
def camera():
    """A rendered demo frame read by the real reader, as the camera's last frame (FrameTap)."""
    from controller.station.demo import frames
    from controller.station.web import FrameTap
    from vision.reader import read_board

    image, _, _ = next(frames(turns=1))
    tap = FrameTap(per_second=1000)
    tap(image, read_board(image))
    return tap


@pytest.fixture
def live_page(tmp_path, browser, camera):
    lv = start_live(tmp_path / "journal.jsonl", frames=camera)
    browser.get(lv.url)
    wait_for(lambda: page_seq(browser) >= 0, what="the page's first state")
    yield lv, browser
    lv.close()


def test_the_page_loads_with_the_board_and_the_contract(live_page):
    lv, driver = live_page
    assert driver.title == "Tavla station"
    assert len(driver.find_elements("css selector", "#board .point")) == 24
    wait_for(lambda: driver.find_element("id", "link").text == "live", what="the live stream")


def test_after_each_event_the_board_shows_the_games_position(live_page):
    """The SVG's 24 points against each event's reading; the screenshot (build/test-artefacts) is
    taken at the last moment a roll is on the board with gnubg's best play drawn."""
    lv, driver = live_page
    for ev in scripted_events(turns=4, settings=Settings(match_length=3)):
        state = lv.feed(ev)
        wait_for(lambda s=state: page_seq(driver) == s["seq"], what=f"seq {state['seq']} on the page")
        if state["board"] is None:
            continue
        shown = dom_board(driver)
        for slot, (colour, count) in enumerate(state["board"]["slots"]):
            assert shown[slot][:2] == [colour if count else None, count], slot
            assert shown[slot][2] == min(count, 5)  # checkers drawn, a number above five
        truth = [(c, n) for c, n, _ in ev.slots]
        assert [(c, n) for c, n, _ in shown] == [(c if n else None, n) for c, n in truth]
        roll = driver.find_element("id", "on-roll").text
        assert roll == (state["on_roll"] or "–")
        arrows = driver.find_elements("css selector", "#board .best-move")
        assert len(arrows) == len(state["best_moves"] or [])  # gnubg's best play, drawn (learner mode)
        if state["phase"] == "moving" and state["best_moves"]:
            ARTEFACTS.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(ARTEFACTS / "station-page-mid-game.png"))
    assert "to 3" in driver.find_element("id", "score").text
    wait_for(lambda: driver.find_element("id", "camera").is_displayed(), what="the camera's frame")


def _click_action(driver, action: str) -> str:
    driver.find_element("css selector", f"button[data-action='{action}']").click()
    return wait_for(lambda: driver.find_element("id", "answer").text, what=f"the answer to {action}")


def test_a_referee_action_made_on_the_page_lands_in_the_journal(live_page):
    lv, driver = live_page
    for ev in scripted_events(turns=2):
        state = lv.feed(ev)
        if state["phase"] == "moving":
            break
    seq = lv.station.seq
    driver.find_element("id", "pin").send_keys(PIN)
    assert "sent" in _click_action(driver, "rethrow")
    state = lv.wait_seq(seq + 1)
    assert state["phase"] == "to_roll"
    wait_for(lambda: page_seq(driver) == seq + 1, what="the re-throw on the page")
    rulings = driver.find_elements("css selector", "#rulings li")
    assert rulings[0].get_attribute("data-rule") == "B15" and "re-throw" in rulings[0].text
    lv.station.stop()
    lv.journal.close()
    last = read(lv.path)[-1]
    assert isinstance(last, RefereeAction) and last.action == "rethrow"


def test_the_stations_answer_to_an_action_is_shown_on_the_page(live_page):
    """An action the game turns down (no illegal move to accept) is journaled; the page shows the
    station's words for it."""
    lv, driver = live_page
    lv.feed(scripted_events(turns=1)[0])
    driver.find_element("id", "pin").send_keys(PIN)
    assert "sent" in _click_action(driver, "accept")
    wait_for(lambda: "nothing to accept" in driver.find_element("id", "prompts").text, what="the prompt")
    assert isinstance(read(lv.path)[-1], RefereeAction)


def test_a_wrong_pin_is_refused_on_the_page(live_page):
    lv, driver = live_page
    lv.feed(scripted_events(turns=1)[0])
    seq = lv.station.seq
    driver.find_element("id", "pin").send_keys("1111")
    answer = _click_action(driver, "pause")
    assert "refused" in answer and "wrong PIN" in answer
    assert lv.station.seq == seq and len(lv.journal) == seq


def test_the_camera_is_wrong_entered_by_clicking_points(live_page):
    lv, driver = live_page
    for ev in scripted_events(turns=0)[:2]:
        lv.feed(ev)
    wait_for(lambda: page_seq(driver) == 2, what="the start position on the page")
    seq = lv.station.seq
    driver.find_element("id", "pin").send_keys(PIN)
    driver.find_element("id", "edit").click()
    driver.find_element("css selector", "#brush option[value='']").click()  # dark's two back checkers
    driver.find_element("css selector", "#board .point[data-slot='0']").click()
    driver.find_element("css selector", "#brush").send_keys("dark")
    for _ in range(2):
        driver.find_element("css selector", "#board .point[data-slot='3']").click()
    assert "sent" in _click_action(driver, "position")
    state = lv.wait_seq(seq + 1)
    assert state["board"]["slots"][3] == ["dark", 2] and state["board"]["slots"][0] == [None, 0]
    assert state["board"]["source"] == "referee"


def test_the_clock_on_the_page_spends_the_delay_first_then_the_time(tmp_path, browser):
    """Issue 15: under the USBGF clock's 12 s delay the running player's time stays, the delay left
    counts down live; once the delay is spent the time counts down (controller/game/clock.py)."""
    from controller.game.events import Tick

    settings = Settings(match_length=5, clock="usbgf")
    lv = start_live(tmp_path / "journal.jsonl", settings=settings)
    try:
        browser.get(lv.url)
        for ev in scripted_events(turns=1, settings=settings):
            state = lv.feed(ev)
            if state["phase"] == "moving":
                break
        who = state["clock"]["running"]
        wait_for(lambda: page_seq(browser) == state["seq"], what="the roll on the page")

        def shown():
            el = browser.find_element("id", "clock")
            return el.text, float(el.get_attribute(f"data-{who}")), float(el.get_attribute("data-delay-left"))

        text, left, delay = shown()
        assert "10:00" in text and "of the 12 s delay left" in text and left == 600.0
        time.sleep(1.6)
        text, left, later = shown()
        assert left == 600.0 and later < delay - 1.0  # the time did not move; the delay did, live
        assert f"{who} 10:00" in text and f"{int(later + 0.999)} s of the 12 s delay left" in text
        state = lv.feed(Tick(t=lv.station.last_t + 20.0))  # 20 s into the turn: 8 s off the reserve
        wait_for(lambda: page_seq(browser) == state["seq"], what="the tick on the page")
        assert state["clock"][who] == 592.0 and state["clock"]["delay_left"] == 0.0
        time.sleep(1.2)
        text, left, delay = shown()
        assert "delay spent, the reserve runs" in text and left < 591.5 and delay == 0.0
    finally:
        lv.close()


def test_the_page_reconnects_after_the_station_restarts(tmp_path, browser):
    first = start_live(tmp_path / "one.jsonl")
    port = first.server.port
    browser.get(first.url)
    for ev in scripted_events(turns=1)[:2]:
        first.feed(ev)
    wait_for(lambda: page_seq(browser) == 2, what="the first station's state")
    first.close()
    wait_for(lambda: browser.find_element("id", "link").text != "live", what="the page noticing the loss")
    second = start_live(tmp_path / "two.jsonl", port=port)
    try:
        second.feed(scripted_events(turns=1)[0])
        wait_for(lambda: page_seq(browser) == 1, timeout=15, what="the page reconnecting")
        assert browser.find_element("id", "link").text == "live"
    finally:
        second.close()


class SilentRelay:
    """A TCP relay in front of the page's server that can fall silent: its sockets stay open but it
    forwards nothing, a half-open link as a dropped Wi-Fi or a sleeping laptop leaves one."""

    def __init__(self, target: int) -> None:
        import socket
        import threading

        self.target = target
        self.silent = threading.Event()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a, b) -> None:
        while True:
            try:
                data = a.recv(65536)
            except OSError:
                break
            if not data:
                break
            if not self.silent.is_set():
                try:
                    b.sendall(data)
                except OSError:
                    break
        for s in (a, b):
            s.close()

    def close(self) -> None:
        self.sock.close()


def test_the_page_notices_a_silent_stream_and_reconnects(tmp_path, browser, monkeypatch):
    """A page left open for hours: when the stream goes silent with no error (the station's pings
    stop arriving), the page says so within three ping intervals and opens the stream anew; once the
    link carries again it shows the state it missed."""
    from controller.station.web import server

    monkeypatch.setattr(server, "KEEPALIVE_S", 0.3)
    lv = start_live(tmp_path / "journal.jsonl")
    relay = SilentRelay(lv.server.port)
    try:
        browser.get(f"http://127.0.0.1:{relay.port}/")
        events = scripted_events(turns=1)
        for ev in events[:2]:
            lv.feed(ev)
        wait_for(lambda: page_seq(browser) == 2, what="the state through the relay")
        wait_for(lambda: browser.find_element("id", "link").text == "live", what="the live stream")
        relay.silent.set()
        wait_for(lambda: browser.find_element("id", "link").text != "live", what="the page noticing silence")
        lv.feed(events[2])
        time.sleep(0.5)
        assert page_seq(browser) == 2  # nothing gets through a silent link
        relay.silent.clear()
        wait_for(lambda: page_seq(browser) == 3, timeout=15, what="the page reconnecting by itself")
        assert browser.find_element("id", "link").text == "live"
    finally:
        relay.close()
        lv.close()


def _to_the_first_roll(lv, settings):
    for ev in scripted_events(turns=2, settings=settings):
        state = lv.feed(ev)
        if state["phase"] == "moving":
            return state
    raise AssertionError("the scripted game never had a roll to play")


@pytest.mark.parametrize("mode", ["home", "learner", "tournament"])
def test_hints_follow_the_mode(tmp_path, browser, mode):
    """Home: no hint until the players press the page's hint button, then the legal plays and
    gnubg's best play drawn on the board (the request journaled as the clock button's long press).
    Learner: both after every roll, no button. Tournament: neither, and no button."""
    from controller.game.events import ButtonPressed
    from controller.hints.engine import gnubg_available

    hints = {"home": "home", "learner": "assistant", "tournament": "referee"}[mode]
    settings = Settings(hints=hints)
    lv = start_live(tmp_path / "journal.jsonl", settings=settings)
    try:
        browser.get(lv.url)
        state = _to_the_first_roll(lv, settings)
        wait_for(lambda: page_seq(browser) == state["seq"], what="the roll on the page")
        button = browser.find_element("id", "hint-request")
        shown = browser.find_element("id", "hints").is_displayed()
        arrows = browser.find_elements("css selector", "#board .best-move")
        if mode == "tournament":
            assert not button.is_displayed() and not shown and not arrows
            assert state["legal_plays"] is None and state["best_play"] is None
            return
        if mode == "learner":
            assert not button.is_displayed() and shown and state["legal_plays"]
            assert len(arrows) == len(state["best_moves"] or [])
            assert bool(arrows) == gnubg_available()
            return
        assert button.is_displayed() and button.is_enabled()
        assert not shown and not arrows and state["legal_plays"] is None  # nothing until asked
        seq = lv.station.seq
        button.click()
        state = lv.wait_seq(seq + 1)
        wait_for(lambda: page_seq(browser) == seq + 1, what="the hint on the page")
        assert "asked" in browser.find_element("id", "answer").text
        assert browser.find_element("id", "hints").is_displayed() and state["legal_plays"]
        plays = browser.find_element("id", "legal-plays").text
        assert plays == " · ".join(state["legal_plays"])
        arrows = browser.find_elements("css selector", "#board .best-move")
        assert len(arrows) == len(state["best_moves"] or [])
        if gnubg_available():  # gnubg's best play, drawn from point to point
            assert arrows and browser.find_element("id", "best-play").text == state["best_play"]
        lv.station.stop()
        lv.journal.close()
        last = read(lv.path)[-1]
        assert isinstance(last, ButtonPressed) and (last.button, last.gesture) == ("clock", "long")
    finally:
        lv.close()
