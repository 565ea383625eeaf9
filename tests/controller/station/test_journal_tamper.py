"""The tamper suite (issue 18 item 4): every way of changing a sealed, keyed journal -- edit, delete,
swap, append, truncate, and recompute the chain -- is reported by `tavla verify`; old unkeyed
journals are reported as unkeyed and still resume and replay."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.game.effects import Announce
from controller.game.events import ButtonPressed
from controller.station import replay
from controller.station.journal import GENESIS, Journal, entry_hash, read, scan
from controller.station.journal_key import default_key_path, station_key

from .journal_files import game_events, station_journal

runner = CliRunner(env={"COLUMNS": "300"})


@pytest.fixture
def sealed(tmp_path):
    """A whole game journaled by a station under this machine's key, sealed at its end and its stop."""
    path = station_journal(tmp_path / "j.jsonl", station_key())
    return path, path.read_text().splitlines()


def verify(path, *args):
    r = runner.invoke(app, ["verify", str(path), *args])
    return r.exit_code, r.output


def _rechain(entries, mac):
    """Renumber and rechain ``entries`` (dicts) with ``mac(seq, prev, kind, body) -> hex``."""
    prev, out = GENESIS, []
    for seq, e in enumerate(entries):
        kind = "seal" if "seal" in e else "event"
        digest = mac(seq, prev, kind, e[kind])
        e = {**e, "seq": seq, "prev": prev}
        e["mac" if "mac" in e else "hash"] = digest
        out.append(json.dumps(e, sort_keys=True, separators=(",", ":")))
        prev = digest
    return out


def _forged_rulings(lines):
    """The harness's forgery: two out-of-turn doubles inserted mid-game, i.e. two more rulings."""
    entries = [json.loads(line) for line in lines]
    at = 20
    for n in range(2):
        ev = ButtonPressed(t=entries[at]["event"]["t"] + 0.1 * (n + 1), button="double", player=1,
                           gesture="short").to_json()
        entries.insert(at + 1 + n, {**entries[at], "event": ev})
    for e in entries:
        if "seal" in e:
            e["seal"]["events"] += 2
    return entries


def test_a_clean_journal_is_intact(sealed):
    path, lines = sealed
    code, out = verify(path)
    assert code == 0 and f"{path}: intact: 142 events in {len(lines)} lines" in out
    assert "sealed at a clean stop" in out and out.count("\n") == 1
    seals = [json.loads(line)["seal"] for line in lines if '"seal"' in line]
    assert seals == [{"events": 142, "why": "game"}, {"events": 142, "why": "stop"}]


@pytest.mark.parametrize(
    "damage, line, why",
    [
        ("edit", 31, "MAC does not match"),
        ("delete", 31, "expected 30"),
        ("swap", 31, "expected 30"),
        ("insert", 32, "expected 31"),
        ("append", 145, "MAC does not match"),
        ("append copy", 145, "expected 144"),
    ],
)
def test_a_changed_line_is_named(sealed, damage, line, why):
    path, lines = sealed
    if damage == "edit":
        lines[30] = lines[30].replace('"t":', '"t":1', 1)
    elif damage == "delete":
        del lines[30]
    elif damage == "swap":
        lines[30], lines[31] = lines[31], lines[30]
    elif damage == "insert":
        lines.insert(31, lines[30])
    elif damage == "append":  # a forged line that follows the chain, with a made-up MAC
        last = json.loads(lines[-1])
        ev = ButtonPressed(t=200.0, button="double", player=0, gesture="short").to_json()
        forged = {"event": ev, "key": last["key"], "mac": "0" * 64, "prev": last["mac"],
                  "seq": last["seq"] + 1}
        lines.append(json.dumps(forged, sort_keys=True, separators=(",", ":")))
    else:
        lines.append(lines[-1])
    path.write_text("\n".join(lines) + "\n")
    code, out = verify(path)
    assert code == 1 and out.startswith(f"{path}:{line}: ") and why in out, out


@pytest.mark.parametrize("cut", [1, 2, 20])
def test_a_cut_tail_is_reported(sealed, cut):
    """Deleting the last line (the stop's seal), the last two (both seals) or the last 20 lines (the
    game's result with them)."""
    path, lines = sealed
    path.write_text("\n".join(lines[:-cut]) + "\n")
    code, out = verify(path)
    if cut == 1:  # the game's seal is still the last line: its result is intact
        assert code == 0 and "sealed at a game's end" in out
        return
    missing = 142 - (cut - 2)
    assert code == 1 and "not sealed at its end" in out, out
    assert "may be missing" in out and "no seal at all" in out
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 0 and f"the last {missing} events after the last seal may be missing" in r.output


def test_a_torn_tail_is_reported_unsealed(sealed):
    """The stop's seal deleted and the game's seal cut short: the game's result is no longer sealed."""
    path, lines = sealed
    path.write_bytes(("\n".join(lines[:-1]) + "\n").encode()[:-30])
    code, out = verify(path)
    assert code == 1 and "a last line cut short" in out and "no seal at all" in out, out


def test_a_recomputed_plain_chain_is_not_intact(sealed):
    """The harness's forgery: two rulings added and the chain recomputed with plain SHA-256, as
    today's code would. The keyed journal's lines now carry no MAC: reported, and replay refuses."""
    path, lines = sealed
    entries = _forged_rulings(lines)
    for e in entries:
        del e["key"]
        e["hash"] = e.pop("mac")

    def sha(seq, prev, kind, body):
        if kind == "event":
            return entry_hash(seq, prev, body)
        text = json.dumps(body, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(f"{seq}\n{prev}\nseal\n{text}".encode()).hexdigest()

    path.write_text("\n".join(_rechain(entries, sha)) + "\n")
    forged = read(path)
    rulings = sum(isinstance(e, Announce) for e in replay(forged)[1])
    assert rulings == sum(isinstance(e, Announce) for e in replay(game_events())[1]) + 2
    code, out = verify(path)
    assert code == 3 and "unkeyed" in out and "proves nothing" in out  # never "intact"


def test_a_chain_recomputed_under_another_key_is_named_at_its_first_line(sealed, tmp_path):
    """Rechained with a key the forger made: every MAC fits his key, none fits the station's."""
    path, lines = sealed
    entries = _forged_rulings(lines)
    secret = b"forger's key 32 bytes long......"

    def mac(seq, prev, kind, body):
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hmac.new(secret, f"tavla journal 2\n{seq}\n{prev}\n{kind}\n{text}".encode(),
                        hashlib.sha256).hexdigest()

    path.write_text("\n".join(_rechain(entries, mac)) + "\n")
    code, out = verify(path)
    assert code == 1 and out.startswith(f"{path}:1: ") and "MAC does not match" in out, out
    r = runner.invoke(app, ["replay", str(path)])  # this machine's key is the station's
    assert r.exit_code == 2 and f"{path}:1: " in r.output


def test_a_journal_of_another_station_is_not_intact_under_this_key(sealed, tmp_path):
    path, _ = sealed
    other = station_key(tmp_path / "other.key")
    code, out = verify(path, "--key", str(other.path))
    assert code == 1 and "not under" in out and other.id in out


def test_an_old_unkeyed_journal_is_unkeyed_and_still_resumes_and_replays(tmp_path):
    path = tmp_path / "old.jsonl"
    events = game_events()
    with Journal(path) as j:  # today's format before the key: plain SHA-256, no seal
        for ev in events:
            j.append(ev)
    station_key()  # this station has a key, the journal does not
    code, out = verify(path)
    assert code == 3 and f"{path}: unkeyed" in out and "142 events" in out
    r = runner.invoke(app, ["replay", str(path)])
    assert r.exit_code == 0 and "142 events" in r.output, r.output
    r = runner.invoke(app, ["resume", str(path)])
    assert r.exit_code == 0 and f"resumed {path}: 142 events" in r.output, r.output
    lines = path.read_text().splitlines()
    lines[5] = lines[5].replace('"t":', '"t":1', 1)
    path.write_text("\n".join(lines) + "\n")
    code, out = verify(path)
    assert code == 1 and out.startswith(f"{path}:6: ") and "hash does not match" in out


def test_verify_refuses_unreadable_input_in_one_line(tmp_path, sealed):
    path, _ = sealed
    (tmp_path / "notes.txt").write_text("milk\n")
    (tmp_path / "bad.key").write_text("not a key\n")
    for args, says in [
        ([str(tmp_path / "none.jsonl")], "does not exist"),
        ([str(tmp_path / "notes.txt")], "is not a Tavla journal"),
        ([str(tmp_path)], "is a folder"),
        ([str(path), "--key", str(tmp_path / "bad.key")], "is not a Tavla station key"),
        ([str(path), "--key", str(tmp_path / "none.key")], "does not exist"),
    ]:
        r = runner.invoke(app, ["verify", *args])
        assert r.exit_code == 2 and says in r.output and r.output.count("\n") == 1, (args, r.output)


def test_the_default_key_is_this_stations(sealed):
    path, _ = sealed
    assert scan(path, station_key(default_key_path())).checked
