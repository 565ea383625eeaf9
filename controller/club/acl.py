"""The broker's access list: each station writes only its own board's topics, only the director
writes the director's (issue 17 item 4). Mosquitto's ``acl_file`` format."""

from __future__ import annotations

from collections.abc import Mapping

from controller.club.topics import DIRECTOR, ROOT, check_name


def acl_text(club: str, stations: Mapping[str, str], director: str) -> str:
    """The ACL for ``club``: ``stations`` maps each board to its station's broker user."""
    check_name("club", club)
    lines = [f"# tavla club {club}: written by controller.club.acl", "", f"user {director}",
             f"topic readwrite {ROOT}/{club}/#", ""]
    for board, user in sorted(stations.items()):
        check_name("board", board)
        lines += [
            f"user {user}",
            f"topic readwrite {ROOT}/{club}/{board}/#",
            f"topic read {ROOT}/{club}/{DIRECTOR}/#",
            "",
        ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``python -m controller.club.acl CLUB DIRECTOR_USER BOARD=USER ...`` prints the ACL file."""
    import sys

    from controller.club.url import ClubError

    if len(argv) < 2 or not all("=" in a for a in argv[2:]):
        print("usage: python -m controller.club.acl CLUB DIRECTOR_USER BOARD=USER ...", file=sys.stderr)
        return 2
    try:
        print(acl_text(argv[0], dict(a.split("=", 1) for a in argv[2:]), argv[1]), end="")
    except ClubError as exc:
        print(f"acl: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
