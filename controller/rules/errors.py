"""The controller's exception family (STYLE.md principle 8), rooted here in the innermost package.

As gpiozero's ``exc.py``: every error the controller raises on purpose is a :class:`TavlaError` and
also the builtin it resembles (``class FormatError(TavlaError, ValueError)``), so callers may catch
either. The family: :class:`RulesError` and the two below, ``NardyTextError`` (rules.nardy.text),
``FormatError`` with ``RecordError`` and ``IllegalPlayError`` (formats), ``GeometryError``,
``SettingsError``, ``EventError``, ``ClockError`` (game), ``StationError`` with ``LinkUnavailable``,
``SessionRefused`` and ``SessionInterrupted``, ``JournalError`` with ``JournalDamaged``,
``NotAJournal`` and ``JournalTampered``, ``KeyFileError``, ``LockHeld``, ``ConfigError``,
``ButtonError`` (station). A photo that cannot be read is vision's ``ImageError``.

* :class:`TavlaError` -- the root.
* :class:`RulesError` -- base of everything the rules core raises on purpose.
* :class:`DiceError` (``ValueError``) -- a die outside 1-6.
* :class:`IllegalActionError` (``ValueError``) -- a cube or match action the rules forbid
  (RULES.md B10-B14); its ``reason`` is a short machine-readable code the referee turns into a
  ruling.
"""

from __future__ import annotations


class TavlaError(Exception):
    """The root of every error the controller raises on purpose."""


class RulesError(TavlaError):
    """Base class of the rules core's errors."""


class DiceError(RulesError, ValueError):
    """A die value that is not an int from 1 to 6 (RULES.md B1). The message quotes it."""


class IllegalActionError(RulesError, ValueError):
    """A cube or match action the rules forbid (RULES.md B10-B14).

    :param reason: a stable code, e.g. ``"not_cube_owner"``, ``"crawford"``, ``"no_double_pending"``.
    :param message: one line for a person, quoting the action and the state.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
