"""One board as the director sees it, rebuilt from its station's messages.

Entries (the station's journal lines) may come twice or out of order: after a reconnect the station
republishes what was not acknowledged, a replay asked for by a director that started late overlaps
the live stream. They are kept by ``seq``; :attr:`Log.held` is the last ``seq`` held without a gap
(what the director acknowledges), and each entry's ``prev`` must be the MAC (or hash) of the one
before it, or the log is marked broken. Without the station key the MACs themselves cannot be
checked, only the chain's order (controller.station.journal).

Each message names its journal (controller.club.publisher.journal_id): a board's next session is a
new journal counting from 0 again. The board shows the journal of the newest state it was given
(the retained state is always the last one published); the earlier ones stay in :attr:`BoardView.logs`.

Every match a board played stays in the results (:meth:`BoardView.matches`): each journal's entries
held without a gap are replayed through the rules core (controller.game.step, pure), a match per
``MatchStarted``, its score as the journal leaves it -- so a new round's match on a board does not
drop the last one's result, and a director that starts late scores the matches it never saw live.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller import game
from controller.club import topics
from controller.game.events import MatchStarted, event_from_json
from controller.station.journal import GENESIS


@dataclass(frozen=True)
class Match:
    """One match of a board: its journal and the ``seq`` of its MatchStarted, the sides' names, the
    length (0 money play), the score and the winning side (``light``/``dark``, None while played)."""

    journal: str
    start: int
    light: str
    dark: str
    match_length: int
    score: tuple[int, int]
    winner: str | None

    @property
    def pairing(self) -> tuple[str, str, int]:
        return self.light, self.dark, self.match_length


def _winner(score: tuple[int, int], length: int) -> str | None:
    if length <= 0:
        return None
    return "light" if score[0] >= length else "dark" if score[1] >= length else None


def digest_of(entry: dict[str, Any]) -> Any:
    return entry.get("mac", entry.get("hash"))


class Log:
    """One journal's entries, held by ``seq``, and its rulings."""

    def __init__(self) -> None:
        self.entries: dict[int, dict[str, Any]] = {}
        self.held = -1
        self.broken: str | None = None
        self.duplicates = 0
        self.rulings: dict[tuple[int, str, str], dict[str, Any]] = {}
        self._replayed = -1  # the last seq replayed into _state (see matches)
        self._state = game.new_state()
        self._matches: list[Match] = []

    def add(self, entry: dict[str, Any]) -> bool:
        seq = entry.get("seq")
        if type(seq) is not int or seq < 0 or not isinstance(entry.get("prev"), str):
            return False
        if seq in self.entries:
            self.duplicates += 1
            return False
        self.entries[seq] = entry
        while self.held + 1 in self.entries:
            nxt = self.entries[self.held + 1]
            want = GENESIS if self.held < 0 else digest_of(self.entries[self.held])
            if nxt["prev"] != want and self.broken is None:
                self.broken = f"entry {self.held + 1} does not follow entry {self.held} (chain broken)"
            self.held += 1
        return True

    def matches(self, journal: str) -> list[Match]:
        """The matches of this journal so far: its held entries replayed (only the new ones each
        call); a journal that does not begin with a MatchStarted counts from its first."""
        while self._replayed < self.held:
            self._replayed += 1
            body = self.entries[self._replayed].get("event")
            if not isinstance(body, dict):
                continue  # a seal
            event = event_from_json(body)
            self._state, _ = game.step(self._state, event)
            s = self._state.settings
            if isinstance(event, MatchStarted) or not self._matches:
                self._matches.append(Match(journal, self._replayed, s.light_player, s.dark_player,
                                           s.match_length, (0, 0), None))
            last = self._matches[-1]
            score = self._state.score
            if score != last.score:
                self._matches[-1] = Match(last.journal, last.start, last.light, last.dark, last.match_length,
                                          score, _winner(score, last.match_length))
        return list(self._matches)


class BoardView:
    """Board ``name``: its journals' entries, latest state, online flag and rulings (see the module
    docstring)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.logs: dict[str, Log] = {}
        self.journal: str | None = None  # the journal shown
        self.state: dict[str, Any] | None = None
        self.online: bool | None = None
        self.answer: dict[str, Any] | None = None  # the station's answer to the last round

    def _log(self, journal: Any) -> Log:
        key = str(journal or "")
        if self.journal is None:
            self.journal = key
        return self.logs.setdefault(key, Log())

    @property
    def log(self) -> Log:
        return self._log(self.journal)

    @property
    def held(self) -> int:
        return self.log.held

    @property
    def broken(self) -> str | None:
        return self.log.broken

    @property
    def duplicates(self) -> int:
        return self.log.duplicates

    @property
    def rulings(self) -> dict[tuple[int, str, str], dict[str, Any]]:
        return self.log.rulings

    def add_entry(self, entry: dict[str, Any]) -> bool:
        """Keep a journal entry; False when it was held already (a duplicate) or is no entry."""
        body = dict(entry)
        return self._log(body.pop("journal", None)).add(body)

    def set_state(self, state: dict[str, Any]) -> None:
        """The station's state: a new journal's replaces the shown one; within a journal an older
        state (a lower ``seq``, a republished copy) never replaces a newer."""
        seq = state.get("seq")
        if type(seq) is not int:
            return
        journal = str(state.get("journal") or "")
        if journal != self.journal:
            self.journal = journal
            self._log(journal)
            self.state = state
        elif self.state is None or seq >= self.state.get("seq", -1):
            self.state = state

    def add_ruling(self, ruling: dict[str, Any]) -> None:
        key = (ruling.get("seq", -1), str(ruling.get("rule")), str(ruling.get("text")))
        self._log(ruling.get("journal")).rulings.setdefault(key, ruling)

    @property
    def behind(self) -> bool:
        """True when entries are missing: a gap below one held, or the state is ahead of them."""
        log = self.log
        top = max(log.entries, default=-1)
        state_seq = self.state.get("seq", -1) if self.state else -1
        return top > log.held or state_seq > log.held

    def ordered(self) -> list[dict[str, Any]]:
        """The shown journal's entries held without a gap, in order (the station's journal up to
        :attr:`held`)."""
        log = self.log
        return [log.entries[s] for s in range(log.held + 1)]

    def events(self) -> list[dict[str, Any]]:
        """The events among :meth:`ordered` (seals left out)."""
        return [e["event"] for e in self.ordered() if "event" in e]

    def players(self) -> tuple[str, str]:
        """The sides' names from the last match start held (RULES.md B18: named sides); before the
        entries are held (a director that started late, its station gone), those its retained state
        names."""
        for ev in reversed(self.events()):
            if ev.get("kind") == "match_started":
                s = ev.get("settings") or {}
                return str(s.get("light_player") or "light"), str(s.get("dark_player") or "dark")
        named = (self.state or {}).get("players") or {}
        return str(named.get("light") or "light"), str(named.get("dark") or "dark")

    def paused(self) -> bool:
        """True while the director's pause holds this board's clock (the last director device event)."""
        for ev in reversed(self.events()):
            if ev.get("kind") == "device" and ev.get("device") == "director":
                return not ev.get("online", True)
        return False

    def winner(self) -> str | None:
        """``light`` or ``dark`` once one has reached the match length; None before (or money play)."""
        if not self.state:
            return None
        score = self.state.get("score") or {}
        length = score.get("match_length") or 0
        if length <= 0:
            return None
        for side in ("light", "dark"):
            if (score.get(side) or 0) >= length:
                return side
        return None

    def matches(self) -> list[Match]:
        """Every match of the board, journal by journal as they were first heard of. The station's
        state is newer than the entries held (a gap, a late director): the shown journal's last match
        takes the state's score when it is that match, or the state stands for a match of its own."""
        out = [m for key, log in self.logs.items() for m in log.matches(key)]
        if not self.state or not isinstance(self.state.get("score"), dict):
            return out
        score = self.state["score"]
        light, dark = self.players()
        now = Match(self.journal or "", -1, light, dark, int(score.get("match_length") or 0),
                    (int(score.get("light") or 0), int(score.get("dark") or 0)), None)
        now = Match(now.journal, now.start, now.light, now.dark, now.match_length, now.score,
                    _winner(now.score, now.match_length))
        mine = [i for i, m in enumerate(out) if m.journal == now.journal]
        if mine and out[mine[-1]].pairing == now.pairing:
            last = out[mine[-1]]
            out[mine[-1]] = Match(last.journal, last.start, last.light, last.dark, last.match_length,
                                  now.score, now.winner)
        elif not mine or self.behind:
            out.append(now)
        return out

    def to_json(self) -> dict[str, Any]:
        """What the page shows of the board."""
        state = self.state or {}
        light, dark = self.players()
        return {
            "board": self.name,
            "light": light,
            "dark": dark,
            "score": state.get("score"),
            "on_roll": state.get("on_roll"),
            "dice": state.get("dice"),
            "clock": state.get("clock"),
            "position_id": state.get("position_id"),
            # what the station's page draws its board from (controller/station/web/board.js)
            "drawing": _drawing(state),
            "online": self.online,
            "paused": self.paused(),
            "rulings": state.get("rulings") or [],
            "rulings_seen": len(self.rulings),
            "winner": self.winner(),
            "seq": self.held,
            "state_seq": state.get("seq", -1),
            "journal": self.journal,
            "journals": len(self.logs),
            "broken": self.broken,
            "answer": _answer(self.answer),
        }


def _answer(body: dict[str, Any] | None) -> dict[str, Any] | None:
    """The station's answer to a round (controller.club.topics.answer), as the page shows it; None
    for none, or for a message that is no answer."""
    if not body or body.get("status") not in topics.ANSWERS:
        return None
    return {k: body.get(k) for k in ("id", "round", "status", "said")}


def _drawing(state: dict[str, Any]) -> dict[str, Any]:
    """The station's board, dice and cube as its page draws them, less the reader's confidence per
    point: doubting the camera is the station's referee's job, and on a page of many boards the
    percentages hide the checkers."""
    board = state.get("board")
    if isinstance(board, dict):
        board = {k: v for k, v in board.items() if k != "confidence"}
    return {"board": board, "dice": state.get("dice") or [], "cube": state.get("cube")}
