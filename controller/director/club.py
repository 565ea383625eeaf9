"""Every board of a club, fed the broker's messages (:meth:`ClubView.receive`), read by the page.

paho's thread writes, the web server's reads: one lock around it all (a club's worth of small dicts).
:attr:`ClubView.version` counts the changes, so the page's stream sends the club again only when it
moved.

While the director has no broker (:meth:`ClubView.link`), it cannot know whether a station is online:
every board's ``online`` is None (unknown) and the club's ``director`` says why, until the broker is
back and its retained ``online`` messages say again.
"""

from __future__ import annotations

import threading
from typing import Any

from controller.club import topics
from controller.director import results
from controller.director.board import BoardView
from controller.director.team import TeamMatch, score


class ClubView:
    """Club ``club``: boards by name, the current round, the team matches to score."""

    def __init__(self, club: str, teams: tuple[TeamMatch, ...] = ()) -> None:
        self.club = club
        self.teams = teams
        self.boards: dict[str, BoardView] = {}
        self.round: dict[str, Any] | None = None  # the last round started
        self.rounds: dict[int, dict[str, Any]] = {}  # every round started, by number
        self.linked: bool | None = None  # the director's own broker connection (None: not yet tried)
        self.link_said = "connecting to the broker"
        self.version = 0
        self.lock = threading.Lock()

    def board(self, name: str) -> BoardView:
        with self.lock:
            return self.boards.setdefault(name, BoardView(name))

    def receive(self, topic: str, payload: bytes) -> str | None:
        """Take one message; returns the board it was about (None for anything else)."""
        where = topics.split_board_topic(self.club, topic)
        if where is None:
            return None
        name, leaf = where
        with self.lock:
            self.version += 1
            b = self.boards.setdefault(name, BoardView(name))
            if leaf == "online":
                b.online = payload == b"1"
                return name
            body = topics.loads(payload)
            if body is None:
                return None
            if leaf == "events":
                b.add_entry(body)
            elif leaf == "state":
                b.set_state(body)
            elif leaf == "rulings":
                b.add_ruling(body)
            elif leaf == "answers":
                b.answer = body
        return name

    def link(self, up: bool, said: str = "") -> None:
        """The director's broker connection came up or went (``said``: why). Coming up, the boards'
        online flags are forgotten: the broker's retained ones, sent on subscribing, are the truth."""
        with self.lock:
            self.linked = up
            self.link_said = "" if up else said
            if up:
                for b in self.boards.values():
                    b.online = None
            self.version += 1

    def start_round(self, cmd: dict[str, Any]) -> None:
        """A round the director started: kept with every earlier one (a round sent again under its
        number replaces it), for its results table."""
        with self.lock:
            self.round = cmd
            self.rounds[int(cmd["round"])] = cmd
            self.version += 1

    def to_json(self) -> dict[str, Any]:
        with self.lock:
            names = sorted(self.boards, key=_board_order)
            boards = [self.boards[n].to_json() for n in names]
            matches = {n: self.boards[n].matches() for n in names}
            round_ = self.round
            rounds = dict(sorted(self.rounds.items()))
            linked, said = self.linked is True, self.link_said
        if not linked:  # the director cannot see the stations: their online state is unknown
            for b in boards:
                b["online"] = None
        # RULES.md B18: a board's last finished match counts; a new round's match in progress on it
        # does not take back a board win
        winners = {n: next((m.winner for m in reversed(ms) if m.winner), None) for n, ms in matches.items()}
        teams = []
        for t in self.teams:
            s = score(t, winners)
            teams.append({"home": t.home, "away": t.away, "boards": list(t.boards),
                          "home_wins": s.home_wins, "away_wins": s.away_wins, "winner": s.winner,
                          "by_board": [list(x) for x in s.by_board]})
        return {"club": self.club, "director": {"online": linked, "said": said},
                "boards": boards, "teams": teams, "round": round_, "rounds": list(rounds),
                "results": results.table(rounds, matches)}

    def round_csv(self, round_no: int | None = None) -> str:
        """The results of round ``round_no`` (None: of every round, and the matches of no round) as CSV.

        :raises KeyError: for a round the director did not start.
        """
        table = self.to_json()["results"]
        if round_no is not None:
            with self.lock:
                if round_no not in self.rounds:
                    raise KeyError(round_no)
            table = [r for r in table if r["round"] == round_no]
        return results.to_csv(table)


def _board_order(name: str) -> tuple[int, str]:
    return (int(name), "") if name.isdigit() else (1 << 30, name)
