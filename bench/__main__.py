"""Run every benchmark module in ``bench/`` that exists and print its table.

Each module ``bench/<area>.py`` has ``main() -> None`` printing a rich table whose rows give a figure
and the peer it is compared with, measured in the same run (machines here are noisy, so ratios, not
absolute times, are the result).
"""

from __future__ import annotations

import importlib
import sys

from rich.console import Console

AREAS = ("rules", "nardy", "vision", "learn", "link", "club", "web", "prior", "robustness")


USAGE = f"usage: python -m bench [AREA ...]   (areas: {', '.join(AREAS)}; none = all)"


def main() -> int:
    only = set(sys.argv[1:])
    if only & {"-h", "--help"}:
        print(USAGE)
        return 0
    unknown = sorted(only - set(AREAS))
    if unknown:
        print(f"bench: no area {', '.join(unknown)}; {USAGE}", file=sys.stderr)
        return 2
    for area in AREAS:
        if only and area not in only:
            continue
        try:
            module = importlib.import_module(f"bench.{area}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bench.{area}":
                raise
            continue
        # stage header on stderr, so stdout keeps only the tables
        Console(stderr=True).rule(f"bench: {area}", style="dim")
        module.main()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
