"""The nardy position text (``N:24x15/24x15``), re-exported for the formats package.

The parser and writer live in :mod:`controller.rules.nardy.text` because ``tavla legal --variant
nardy`` (:func:`controller.rules.nardy.cli_lines`) needs them and the rules core may not import
``controller.formats`` (import-linter contract). See that module for the grammar and examples.
"""

from __future__ import annotations

from controller.rules.nardy.text import PREFIX, NardyTextError, parse_position_text, position_text

__all__ = ["PREFIX", "NardyTextError", "parse_position_text", "position_text"]
