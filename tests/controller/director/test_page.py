"""The director's page in a real headless Chromium (as the station's page is tested): every board of a
three-board team match drawn by the station page's board.js, the team score as RULES.md B18 says,
the round's CSV, and the page live when a station goes offline."""

from __future__ import annotations

import json

from controller.director.web import app
from tests.controller.station.web.test_page import ARTEFACTS, browser, wait_for  # noqa: F401 (fixture)

from .conftest import PLAYERS, serving


def dom_points(driver, board: str) -> list[list]:
    return driver.execute_script(
        "return [...document.querySelectorAll(`.card[data-board='${arguments[0]}'] svg.board .point`)]"
        ".sort((a, b) => a.dataset.slot - b.dataset.slot)"
        ".map(g => [g.dataset.colour || null, Number(g.dataset.count)])", board)


def test_the_director_page_shows_the_team_match(browser, team_club, team_boards):  # noqa: F811
    with serving(app(team_club, lambda *a, **k: {"command": a[0]}, "471108")) as port:
        browser.get(f"http://127.0.0.1:{port}/")
        wait_for(lambda: browser.execute_script("return document.body.dataset.boards") == "3",
                 what="three boards on the director's page")
        assert browser.title == "Tavla club"
        for name, b in team_boards.items():
            slots = [[c if n else None, n] for c, n in b.state["board"]["slots"]]
            assert dom_points(browser, name) == slots, f"board {name}"
            head = browser.find_element("css selector", f".card[data-board='{name}'] h3").text
            assert head == f"Board {name}: {PLAYERS[name][0]} (light) v {PLAYERS[name][1]} (dark)"
        # B18: the team whose players won two of the three boards; Reds play light
        won = {n: b.state["score"]["light"] > b.state["score"]["dark"] for n, b in team_boards.items()
               if max(b.state["score"]["light"], b.state["score"]["dark"]) >= 1}
        reds, blues = sum(won.values()), sum(not w for w in won.values())
        team = browser.find_element("css selector", ".team")
        assert (team.get_attribute("data-home-wins"), team.get_attribute("data-away-wins")) == (str(reds),
                                                                                                  str(blues))
        assert team.find_element("css selector", "h2").text.startswith(f"Reds {reds} – {blues} Blues")
        assert "board 3: playing" in team.text
        rows = browser.find_elements("css selector", "#results tbody tr")
        # round (none was started from this page), then board
        assert [[td.text for td in r.find_elements("css selector", "td")[:2]] for r in rows] == [
            ["", "1"], ["", "2"], ["", "3"]]
        csv = browser.execute_script(
            "const r = await fetch(document.getElementById('csv').href);"
            " return [r.headers.get('content-type'), await r.text()]")
        assert csv[0].startswith("text/csv") and csv[1] == team_club.round_csv()
        # a command from the page carries the PIN typed in (controller.director.access)
        browser.find_element("css selector", "#pause").click()
        said = browser.find_element("css selector", "#said")
        wait_for(lambda: said.text == "wrong PIN", what="the page says a command needs the PIN")
        browser.find_element("css selector", "#pin").send_keys("471108")
        browser.find_element("css selector", "#pause").click()
        wait_for(lambda: said.text == "sent: pause", what="the command is sent with the PIN")
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTEFACTS / "director-page.png"))
        team_club.receive("tavla/c/3/online", b"0")  # board 3's station's last will
        card3 = browser.find_element("css selector", ".card[data-board='3']")
        wait_for(lambda: card3.get_attribute("data-online") == "0", what="board 3 offline on the page")
        assert "station offline" in card3.find_element("css selector", ".station").text
        # a station's answer to a round: a refusal, with its reason, on that board's card
        why = "director's round 2 refused on board 3: game 1 is under way (Di 0 - 0 Ed); finish it, or force"
        team_club.receive("tavla/c/3/answers", json.dumps(
            {"command": "round", "id": "x", "round": 2, "status": "refused", "said": why}).encode())
        answer = card3.find_element("css selector", ".answer")
        wait_for(lambda: answer.get_attribute("data-status") == "refused", what="board 3's refusal shown")
        assert answer.text == f"round 2 refused: {why}"
        # the director's own broker gone: no station's online state is known, and the page says why
        team_club.link(False, "broker lost (Unspecified error); retrying")
        banner = browser.find_element("css selector", "#director")
        wait_for(lambda: banner.is_displayed(), what="the page says the director is offline")
        assert banner.text == "director offline: broker lost (Unspecified error); retrying"
        card1 = browser.find_element("css selector", ".card[data-board='1']")
        assert card1.get_attribute("data-online") == ""
        station = card1.find_element("css selector", ".station").text
        assert "station unknown (the director is offline)" in station
