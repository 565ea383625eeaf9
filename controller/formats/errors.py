"""The formats package's exception (STYLE.md principle 8)."""

from __future__ import annotations

from controller.rules.errors import TavlaError


class FormatError(TavlaError, ValueError):
    """Malformed or impossible text in a format (position ID, match ID, XGID, move notation).

    The message quotes the input and says where it broke.
    """
