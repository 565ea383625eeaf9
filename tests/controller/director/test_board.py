"""The director's rebuild of a board: duplicates dropped by seq, gaps found, the chain checked."""

from __future__ import annotations

from controller.director.board import BoardView
from controller.station.journal import GENESIS


def entries(n: int) -> list[dict]:
    out, prev = [], GENESIS
    for seq in range(n):
        mac = f"{seq:064x}"
        out.append({"seq": seq, "prev": prev, "mac": mac, "key": "k",
                    "event": {"kind": "tick", "t": float(seq)}})
        prev = mac
    return out


def test_duplicates_are_dropped_by_seq():
    b = BoardView("1")
    es = entries(5)
    for e in es + es[2:]:
        b.add_entry(e)
    assert b.ordered() == es and b.duplicates == 3 and b.held == 4


def test_a_gap_holds_back_what_follows_it_until_it_is_filled():
    b = BoardView("1")
    es = entries(6)
    for e in es[:2] + es[3:]:
        b.add_entry(e)
    assert b.held == 1 and b.behind
    b.add_entry(es[2])
    assert b.held == 5 and not b.behind and b.broken is None


def test_a_state_ahead_of_the_entries_means_behind_and_an_older_state_never_wins():
    b = BoardView("1")
    b.set_state({"seq": 3})
    assert b.behind
    b.set_state({"seq": 1})
    assert b.state == {"seq": 3}


def test_an_entry_that_does_not_chain_marks_the_board_broken():
    b = BoardView("1")
    es = entries(3)
    es[2] = {**es[2], "prev": "f" * 64}
    for e in es:
        b.add_entry(e)
    assert b.broken and "entry 2" in b.broken


def test_the_drawing_is_the_stations_board_dice_and_cube_without_the_readers_confidence(team_boards):
    b = BoardView("3")
    state = team_boards["3"].state
    seen = {**state, "board": {**state["board"], "confidence": [0.5] * 24}}
    b.set_state(seen)
    drawing = b.to_json()["drawing"]
    assert drawing["board"] == {k: v for k, v in seen["board"].items() if k != "confidence"}
    assert (drawing["dice"], drawing["cube"]) == (state["dice"], state["cube"])


def test_a_late_director_names_the_players_from_the_retained_state_alone():
    """The station is gone: no entries will come, its last state names the sides (RULES.md B18)."""
    b = BoardView("1")
    b.set_state({"seq": 40, "players": {"light": "Ana", "dark": "Ion"}})
    assert b.players() == ("Ana", "Ion") and b.held == -1
    b.add_entry({"seq": 0, "prev": GENESIS, "mac": "a" * 64, "event": {
        "kind": "match_started", "settings": {"light_player": "Bo", "dark_player": "Cy"}}})
    assert b.players() == ("Bo", "Cy")  # the journal's own match start, once held
