"""Scoring readings against labels, as the acceptance checks score them (boards and dice)."""
