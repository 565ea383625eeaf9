"""Rules core: positions, dice, legal plays, cube and match arithmetic, both variants.

Standard library only (import-linter contract; STYLE.md principle 1).
"""
