"""Referee policies and the rulings they produce (RULES.md "What the station must rule on").

Every rule whose seed texts disagree, or whose tournament rules differ, is a field of :class:`Settings`;
its default is the seed texts' rule (RULES.md names it) and :data:`PRESETS` holds the tournament variants.
Every decision the referee takes is a :class:`Ruling`: the RULES.md id it applied, a short code and a
one-line reason in plain words. Pure: no I/O.

Catalogue (default -> settings):

- re-throw (B15, N10): a die cocked, off the board, on the wrong half, on the bar, on or against a
  checker -> both dice re-thrown. Setting ``die_on_checker_stands`` (tournament option: a die lying
  flat on a checker stands). Default off.
- turn end (B16, N11): dice picked up, clock pressed, (nardy) dice handed over. Settings
  ``end_on_pickup`` / ``end_on_clock`` (both on by default).
- premature roll (B16): ``premature_roll`` = ``"void"`` (seed default: the roll is void, rolled again
  after the turn ends) or ``"stands"`` (USBGF/UKBGF). ``premature_waiver`` (default on): no penalty when
  the move was forced or contact is over.
- illegal or incomplete move (B17, N11): ``illegal_move`` = ``"opponent_chooses"`` (seed default and the
  classic rule: accept as played or demand the legal move) or ``"must_correct"`` (the "Legal Moves"
  policy). Once the opponent rolls or doubles, the move stands (B17).
- cube (B10, B11, B14): a double after rolling, by a player who does not own the cube, or in the
  Crawford game is refused (the rules core, controller.rules.cube, decides; its refusal reasons become
  these rulings). ``beaver`` (B11, default off, money play only; the original doubler then takes or
  drops); ``jacobi`` (B12: default on
  in money play, never in match play); ``automatic_doubles`` + ``auto_double_limit`` (B13, default off);
  ``crawford`` (B14, default on); ``cube_progression`` geometric (default) or arithmetic (B10).
- result (B9, N9): ``backgammon_as_gammon`` and ``no_gammon_after_cube`` (default off); nardy ``koks``
  (house mars, default off) and ``nardy_draw`` (N9: when white bears off his last checker, black gets
  one last roll and draws if he bears off all with it; default off).
- opening (B3, N3): ties re-rolled; nardy ``nardy_next_game`` = ``"alternate"`` (default) or
  ``"winner"``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import TYPE_CHECKING, Any

from controller.geometry import right_half
from controller.rules.errors import TavlaError
from controller.rules.variant import VARIANTS, variant_named

if TYPE_CHECKING:  # events check settings against Settings: importing events here would be a cycle
    from controller.game.events import DieSeen


class SettingsError(TavlaError, ValueError):
    """A settings value that does not exist (names the field and the allowed values)."""


# the settings that take one of a few words (the station file checks them: controller.station.config)
CHOICES: dict[str, tuple[str, ...]] = {
    "variant": tuple(VARIANTS),
    "premature_roll": ("void", "stands"),
    "illegal_move": ("opponent_chooses", "must_correct"),
    "cube_progression": ("geometric", "arithmetic"),
    "nardy_next_game": ("alternate", "winner"),
    "hints": ("assistant", "home", "referee"),
    "nardy_block": ("strict", "transient", "after_home"),
    "team_format": ("single", "consultation", "team", "chouette"),
}
# A side's name goes into .mat/.sgf headers and the journal: one printable line.
NAME_MAX = 60
_CLOCKS = (None, "usbgf", "uk", "simple")


@dataclass(frozen=True)
class Settings:
    """Every rule setting of a match; defaults are RULES.md's defaults (the seed texts' rules).

    ``match_length`` 0 means money play. ``jacobi`` None means "on in money play, off in match play"
    (RULES.md B12). ``hints``: ``assistant`` (all LED hints), ``home`` (hints on request),
    ``referee`` (rulings only). ``light_home``: the corner of light's home board, or ``"auto"`` to infer
    it from the position (see controller.station).

    RULES.md B18: consultation (two against two at one board), team matches and chouette are recorded
    as ordinary games with named sides: ``light_player`` / ``dark_player`` name the sides (a team's
    or players' names, e.g. ``"Ana & Ion"``; for a chouette, the box and the team with its captain),
    ``team_format`` says which format the match was (``single`` when it is none of them).

    :raises SettingsError: on an unknown choice or a name that is empty, too long, not one printable
    line, or holds a ``:`` (the .mat score line's separator).
    """

    variant: str = "backgammon"
    match_length: int = 0
    light_home: str = "auto"
    mirror: bool = False
    die_on_checker_stands: bool = False
    end_on_pickup: bool = True
    end_on_clock: bool = True
    premature_roll: str = "void"
    premature_waiver: bool = True
    illegal_move: str = "opponent_chooses"
    beaver: bool = False
    jacobi: bool | None = None
    automatic_doubles: bool = False
    auto_double_limit: int = 1
    crawford: bool = True
    cube_progression: str = "geometric"
    backgammon_as_gammon: bool = False
    no_gammon_after_cube: bool = False
    koks: bool = False
    nardy_draw: bool = False
    nardy_next_game: str = "alternate"
    nardy_block: str = "strict"
    hints: str = "assistant"
    hint_plies: int = 0
    hint_noise: float = 0.0
    clock: str | None = None
    clock_reserve: float = 600.0
    clock_delay: float = 12.0
    light_player: str = "light"
    dark_player: str = "dark"
    team_format: str = "single"

    def __post_init__(self) -> None:
        for name in ("light_player", "dark_player"):
            value = getattr(self, name)
            if (
                not isinstance(value, str)
                or not value.strip()
                or value != value.strip()
                or len(value) > NAME_MAX
                or not value.isprintable()
                or ":" in value  # a .mat score line is `name : score`
            ):
                raise SettingsError(
                    f"{name} = {value!r}; use a name of 1-{NAME_MAX} printable characters, without ':' "
                    "or spaces at either end"
                )
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise SettingsError(f"{name} = {getattr(self, name)!r}; use one of {', '.join(allowed)}")
        if self.clock not in _CLOCKS:
            raise SettingsError(f"clock = {self.clock!r}; use usbgf, uk, simple or leave it out")
        if self.match_length < 0:
            raise SettingsError(f"match_length = {self.match_length}; use 0 for money play or N > 0")

    @property
    def money(self) -> bool:
        return self.match_length == 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Settings:
        """:raises SettingsError: on an unknown field name."""
        known = {f.name for f in fields(cls)}
        bad = set(raw) - known
        if bad:
            raise SettingsError(f"unknown setting(s) {', '.join(sorted(bad))}")
        return cls(**raw)

    def with_preset(self, name: str) -> Settings:
        """These settings with a named preset applied (see :data:`PRESETS`).

        :raises SettingsError: on an unknown preset.
        """
        if name not in PRESETS:
            raise SettingsError(f"unknown preset {name!r}; use one of {', '.join(PRESETS)}")
        return replace(self, **PRESETS[name])


PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    # USBGF / UKBGF tournament rules: a premature roll stands, a die flat on a checker stands.
    "usbgf": {"premature_roll": "stands", "die_on_checker_stands": True, "clock": "usbgf"},
    "ukbgf": {"premature_roll": "stands", "die_on_checker_stands": True, "clock": "uk"},
    # The "Legal Moves" tournament policy: an illegal move must always be corrected.
    "legal-moves": {"illegal_move": "must_correct", "premature_roll": "stands"},
}


@dataclass(frozen=True)
class Ruling:
    """A referee decision: ``rule`` the RULES.md id (``"B15"``), ``code`` a short name
    (``"rethrow"``), ``reason`` one line in plain words, ``player`` the player it concerns (0/1/None)."""

    rule: str
    code: str
    reason: str
    player: int | None = None

    def __str__(self) -> str:
        return f"[{self.rule}] {self.reason}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


_STATUS_WORDS = {
    "cocked": "is cocked",
    "off_board": "fell off the board",
    "wrong_half": "landed on the wrong half",
    "on_bar": "landed on the bar",
    "on_checker": "lies on or against a checker",
}


def rethrow(dice: tuple[DieSeen, ...], settings: Settings, roller_right: bool | None = None) -> Ruling | None:
    """The re-throw ruling for a roll, or None when the roll stands (RULES.md B15, N10).

    ``roller_right``: True when the roller must roll in the board's right half, False for the left,
    None when not checked (the opening roll, nardy's shared dice may land on either half but not both).
    """
    rule = variant_named(settings.variant).rethrow_rule
    for d in dice:
        status = d.status
        if status == "on_checker" and settings.die_on_checker_stands:
            continue
        if status != "flat":
            return Ruling(rule, "rethrow", f"re-throw both dice: a die {_STATUS_WORDS.get(status, status)}")
        if d.value is None:
            return Ruling(rule, "rethrow", "re-throw both dice: a die cannot be read")
    halves = {right_half(d.slot) for d in dice if d.slot is not None}
    if len(halves) > 1:
        return Ruling(rule, "rethrow", "re-throw both dice: they lie on both halves of the board")
    if roller_right is not None and halves and halves != {roller_right}:
        return Ruling(rule, "rethrow", "re-throw both dice: they must land on the half to the roller's right")
    return None
