"""The station's side of the club: its journal and state on the broker, the director's commands in.

:class:`ClubLink` hooks onto a station (``Journal.on_entry``, ``Station.after_step``) and runs paho's
network thread. The journal is the truth and the outbox is a copy of its entries: the station plays on
whether or not the broker is there, and on every (re)connect the link republishes each entry after the
last ``seq`` the director acknowledged (``ack/B``, retained) -- and, on a director's ``replay/B``,
each entry after the one it names. The director drops what it already holds by ``seq``. Every message
names its ``journal`` (:func:`journal_id`): a board's next session starts a new journal whose ``seq``
counts from 0 again, and an acknowledgement of the last one must not hold back the new one.

The session is persistent (``clean_session`` off, a fixed client id), so a command the director sent
while the station was away is delivered when it comes back. Commands become station events, journaled
like any other: pause / resume are ``DeviceChanged(device="director")`` (the referee's clock pauses
while any device is offline), a round's pairing for this board is a ``MatchStarted`` with the
players' names (RULES.md B18: team games are ordinary games with named sides) and the station's own
settings otherwise. A round that would drop a match in progress is refused -- journaled as a
``Refused`` event with the reason -- unless the director forces it; either way the station answers
on ``answers`` (retained), which the director's page shows.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from controller.club import topics
from controller.club.connect import connect_client
from controller.club.url import BrokerUrl, ClubError
from controller.game.effects import Announce, Effect
from controller.game.events import DeviceChanged, Event, MatchStarted, refuse
from controller.game.rulings import Settings, SettingsError

DIRECTOR_DEVICE = "director"


def journal_id(path: Path) -> str:
    """A journal's name on the broker: the station's host, the file and its inode, hashed (the same
    journal appended to keeps it; a new file, here or on another station, gets another)."""
    import hashlib
    import socket

    resolved = path.resolve()
    ident = f"{socket.gethostname()}\n{resolved}\n{resolved.stat().st_ino}"
    return hashlib.sha256(ident.encode()).hexdigest()[:16]


def command_event(cmd: dict[str, Any], board: str, base: Settings, t: float) -> Event | None:
    """The station event a director command means for ``board``; None when it is not for this board
    or is no command this Tavla knows.

    A round's match keeps every setting of ``base`` (the station's: its mode, its rules, its clock)
    but the players' names and the match length: the director pairs players, the station's file says
    how they play (issue 17: a tournament station must stay one).

    :raises ClubError: on a round whose pairings do not fit (the station says so and plays on).
    """
    name = cmd.get("command")
    if name in ("pause", "resume"):
        return DeviceChanged(t=t, device=DIRECTOR_DEVICE, online=name == "resume")
    if name != "round":
        return None
    for p in topics.check_round(cmd):
        if str(p["board"]) == board:
            try:
                settings = replace(
                    base, light_player=p["light"].strip(), dark_player=p["dark"].strip(),
                    match_length=int(p.get("match_length", base.match_length)),
                )
                Settings.from_json(settings.to_json())  # the names are checked as a config's are
            except (SettingsError, TypeError, ValueError) as exc:
                raise ClubError(f"round {cmd['round']}, board {board}: {exc}") from exc
            return MatchStarted(t=t, settings=settings.to_json())
    return None


_GAME_PHASES = ("opening", "to_roll", "moving", "deciding", "cube")


def in_progress(state: Any) -> str | None:
    """What a new match would drop on a station in ``state`` (a controller.game.State): a game under
    way, or a match between its games (RULES.md B14: the score carries to the next game); None when
    nothing would be lost (no game yet, free play, a money game over, the match over)."""
    s = state.settings
    score = f"{s.light_player} {state.score[0]} - {state.score[1]} {s.dark_player}"
    if state.phase in _GAME_PHASES:
        return f"game {state.game_number} is under way ({score})"
    if state.phase == "game_over" and not s.money:
        return f"the {s.match_length}-point match is under way ({score})"
    return None


class ClubLink:
    """Board ``board`` of club ``club`` on the broker at ``url`` (see the module docstring).

    :param say: prints one line (connection changes, a refused command); default silent.
    """

    def __init__(self, url: BrokerUrl, club: str, board: str, say: Any = None) -> None:
        self.club = topics.check_name("club", club)
        self.board = topics.check_name("board", board)
        self.url = url
        self.say = say or (lambda line: None)
        self._lock = threading.Lock()  # the outbox: the station's thread appends, paho's republishes
        self._entries: list[tuple[int, bytes]] = []  # (seq, the journal line) for every entry
        self._rulings: list[tuple[int, bytes]] = []
        self._state: bytes | None = None
        self._event_seq = -1
        self._event_t = 0.0  # a command takes the time of the last event: the station's own clock
        self.journal = ""
        self.acked = -1
        self.connected = False
        # the broker has acknowledged the command, ack and replay subscriptions of this connection: a
        # command published before then may reach the broker ahead of them and pass this board by
        self.listening = False
        self._subscribing: set[int] = set()
        self.published = 0
        self.republished = 0
        self.commands = 0
        self._station: Any = None
        self._started = False
        self._closing = False  # close() disconnects: not a lost connection
        # message ids the broker has not acknowledged yet, and those it acknowledged before publish()
        # returned them; a lock of their own: paho calls on_publish holding its own lock, which
        # publish() takes too, so neither is held across the other
        self._pending: set[int] = set()
        self._early: set[int] = set()
        self._mids = threading.Lock()
        self._client = connect_client(url, f"tavla-{club}-{board}", clean=False)
        self._client.will_set(self._topic("online"), b"0", qos=1, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.on_publish = self._on_publish
        self._client.on_subscribe = self._on_subscribe

    def _topic(self, leaf: str) -> str:
        return topics.board_topic(self.club, self.board, leaf)

    # --- the station's thread ---------------------------------------------------------------------

    def attach(self, station: Any) -> None:
        """Hook onto ``station`` (which must have a journal), take the entries its journal holds
        already, and connect (in the background: the station does not wait for the broker)."""
        journal = station.journal
        if journal is None:
            raise ClubError("a club station needs its journal: the journal is what it publishes")
        self._station = station
        self.journal = journal_id(journal.path)
        with self._lock:
            for line in journal.path.read_bytes().splitlines():
                entry = topics.loads(line)
                if entry is not None and type(entry.get("seq")) is int:
                    self._entries.append((entry["seq"], topics.dumps({**entry, "journal": self.journal})))
                    if isinstance(entry.get("event"), dict):
                        self._event_t = float(entry["event"].get("t", self._event_t))
        journal.on_entry = self.entry
        station.after_step = self.stepped
        self._client.connect_async(self.url.host, self.url.port, keepalive=10)
        self._client.loop_start()
        self._started = True

    def entry(self, entry: dict[str, Any]) -> None:
        """A journal entry on disk: into the outbox, and out when connected."""
        payload = topics.dumps({**entry, "journal": self.journal})
        if "event" in entry:
            self._event_seq = entry["seq"]
            self._event_t = float(entry["event"].get("t", self._event_t))
        with self._lock:
            self._entries.append((entry["seq"], payload))
        self._send(self._topic("events"), payload)

    def stepped(self, station: Any, effects: list[Effect]) -> None:
        """After each event: the state (retained) and any ruling."""
        from controller.station.snapshot import snapshot

        for e in effects:
            if isinstance(e, Announce):
                payload = topics.dumps(
                    {"seq": self._event_seq, "rule": e.ruling.rule, "code": e.ruling.code,
                     "text": e.ruling.reason, "journal": self.journal}
                )
                with self._lock:
                    self._rulings.append((self._event_seq, payload))
                self._send(self._topic("rulings"), payload)
        # the page's JSON, its seq the journal entry this state follows (entries count seals too),
        # which the director compares with the entries it holds, and the players' names, so that a
        # director starting late names a board whose station is gone
        settings = station.state.settings
        state = topics.dumps({**snapshot(station), "seq": _entry_seq(station), "journal": self.journal,
                              "players": {"light": settings.light_player, "dark": settings.dark_player}})
        with self._lock:
            self._state = state
        self._send(self._topic("state"), state, retain=True)

    def _send(self, topic: str, payload: bytes, retain: bool = False) -> None:
        if self.connected:  # else it waits in the outbox for the next connect
            self._publish(topic, payload, retain)
            self.published += 1

    def _publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        mid = self._client.publish(topic, payload, qos=1, retain=retain).mid
        with self._mids:
            if mid in self._early:
                self._early.discard(mid)
            else:
                self._pending.add(mid)

    def _on_publish(self, _c: Any, _u: Any, mid: int, _r: Any, _p: Any) -> None:
        with self._mids:
            if mid in self._pending:
                self._pending.discard(mid)
            else:
                self._early.add(mid)

    @property
    def pending(self) -> int:
        """Messages handed to the broker and not yet acknowledged by it."""
        with self._mids:
            return len(self._pending)

    def close(self, timeout: float = 5.0) -> None:
        """Let what is in flight reach the broker (up to ``timeout``), say the station is offline,
        disconnect. What did not go out is still in the journal."""
        if not self._started:
            return
        if self.connected:
            self._publish(self._topic("online"), b"0", retain=True)
            deadline = time.monotonic() + timeout
            while self.pending and self.connected and time.monotonic() < deadline:
                time.sleep(0.02)
        self._closing = True
        self._client.disconnect()
        self._client.loop_stop()

    # --- paho's thread -----------------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if reason.is_failure:
            self.say(f"club broker {self.url} refused the station: {reason}")
            return
        self.connected = True
        self.say(f"club broker {self.url}: connected as board {self.board} of {self.club}")
        self.listening = False
        self._subscribing = set()
        for leaf, tail in (("command", ()), ("ack", (self.board,)), ("replay", (self.board,))):
            _rc, mid = client.subscribe(topics.director_topic(self.club, leaf, *tail), qos=1)
            if mid is not None:  # None: not sent; this connection stays not listening
                self._subscribing.add(mid)
        self._publish(self._topic("online"), b"1", retain=True)
        self._republish(self.acked)

    def _on_subscribe(self, _c: Any, _u: Any, mid: int, _r: Any, _p: Any) -> None:
        self._subscribing.discard(mid)
        if not self._subscribing:
            self.listening = True

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, reason: Any, _p: Any) -> None:
        if self._closing:
            self.say(f"club broker {self.url}: disconnected cleanly")
        elif self.connected:
            self.say(f"club broker {self.url}: connection lost ({reason}); playing on, retrying")
        self.connected = False
        self.listening = False

    def _republish(self, after: int) -> None:
        with self._lock:
            entries = [p for s, p in self._entries if s > after]
            rulings = [p for s, p in self._rulings if s > after]
            state = self._state
        for payload in entries:
            self._publish(self._topic("events"), payload)
        for payload in rulings:
            self._publish(self._topic("rulings"), payload)
        if state is not None:
            self._publish(self._topic("state"), state, retain=True)
        self.republished += len(entries)

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        body = topics.loads(bytes(msg.payload))
        if body is None:
            return
        leaf = msg.topic.split("/")[3]
        if leaf == "command":
            self._command(body)
            return
        if body.get("journal") != self.journal:
            return  # about another journal of this board (an earlier session's)
        if leaf == "ack" and type(body.get("seq")) is int:
            self.acked = max(self.acked, body["seq"])
        elif leaf == "replay" and type(body.get("after")) is int:
            self._republish(body["after"])

    def _command(self, cmd: dict[str, Any]) -> None:
        station = self._station
        if station is None or station.closed:
            return
        try:
            event = command_event(cmd, self.board, station.state.settings, self._event_t)
        except ClubError as exc:
            self.say(f"director's command refused: {exc}")
            return
        if event is None:
            return
        self.commands += 1
        if isinstance(event, MatchStarted):
            event = self._round(cmd, event, station.state)
        else:
            self.say(f"director: {cmd.get('command')}")
        station.submit(event)

    def _round(self, cmd: dict[str, Any], event: MatchStarted, state: Any) -> Event:
        """A round's match for this board, unless it would drop a match in progress: then, without the
        director's ``force``, the round is refused -- journaled as such (controller.game.events.Refused)
        and answered with the reason; forced, it is journaled, said, and answered as forced.

        The state is read on paho's thread: a game begun in the moment between this look and the
        station taking the event would still be dropped (a round is not started mid-roll)."""
        s = event.settings
        who = f"{s['light_player']} v {s['dark_player']}"
        new = f"{s['match_length']}-point match {who}" if s["match_length"] else f"money session {who}"
        running = in_progress(state)
        if running is None:
            status, line = "started", f"director: round {cmd['round']}: new {new}"
        elif cmd.get("force") is True:
            status = "forced"
            line = (f"director: round {cmd['round']} forced: {running}, dropped for a new {new} "
                    "(the journal keeps the dropped games)")
        else:
            status = "refused"
            line = (f"director's round {cmd['round']} refused on board {self.board}: {running}; "
                    "finish it, or force the round to drop it")
        self.say(line)
        if self.connected:
            self._publish(self._topic("answers"), topics.dumps(
                {**topics.answer(cmd, status, line), "journal": self.journal}), retain=True)
        return refuse(event, line) if status == "refused" else event


def _entry_seq(station: Any) -> int:
    """The journal entry the station's state follows (-1 before any)."""
    journal = getattr(station, "journal", None)
    return journal.next_seq - 1 if journal is not None else -1
