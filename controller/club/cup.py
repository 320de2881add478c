"""The cup's preliminary round as files Floorman starts (000 7.2: "Alle
Nicht-Fixqualifizierten müssen sich in einer Vorrunde (MTT) die verbleibenden
Sitzplätze erspielen"): a tournament file for ``floorman night`` and the list of its
players for ``floorman preregister --file`` (one name a line).

The tournament file takes the club's cup preset (``<club>-cup`` when there is one: 7.3
tables of 10), no ghosts (a fixed field), no ranking points (5.1: points for the public
tournaments and the cup final only; the championship's knock-outs count, 6.1 "bei allen
Turnieren") and ``club.cup_round: preliminary``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from controller.club.db import ClubError
from controller.club.titles import CupDraw

__all__ = ["preliminary_text", "write_preliminary"]


def _preset(club: str) -> str:
    from controller.config import list_presets

    known = list_presets()
    return f"{club}-cup" if f"{club}-cup" in known else club


def preliminary_text(draw: CupDraw, club: str, season: str, lang: str) -> str:
    """The preliminary round's tournament file (YAML)."""
    name = (f"Cup-Vorrunde {season} ({club})" if lang == "de"
            else f"Cup preliminary round {season} ({club})")
    return (
        f"# {name}: written by floorman club cup (000 7.2).\n"
        f"# {len(draw.preliminary)} players play for {draw.preliminary_seats} seats of the "
        f"final; {len(draw.seeded)} are in the final by the yearly ranking.\n"
        "# Its players: the .txt file beside it (floorman preregister --file).\n"
        f"name: {json.dumps(name, ensure_ascii=False)}\n"
        f"preset: {_preset(club)}\n"
        f"language: {lang}\n"
        "ghosts:\n  enabled: false      # a fixed field\n"
        "entries:\n  late_registration_levels: 0\n"
        "points:\n  system: none        # 000 5.1: no ranking points in a preliminary round\n"
        "club:\n  cup_round: preliminary\n")


def write_preliminary(draw: CupDraw, club: str, season: str, lang: str,
                      folder: str) -> tuple[str, str]:
    """Write the preliminary round's tournament file and its players' list into
    ``folder`` (made if missing); their paths. :class:`ClubError` when there is no
    preliminary round or the folder cannot be written."""
    if not draw.preliminary:
        raise ClubError("no preliminary round: every qualified member is in the final "
                        "(000 7.2)", "no_preliminary")
    stem = f"cup-preliminary-{season.replace('/', '-')}"
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        yaml_path = os.path.join(folder, stem + ".yaml")
        names_path = os.path.join(folder, stem + ".txt")
        Path(yaml_path).write_text(preliminary_text(draw, club, season, lang),
                                   encoding="utf-8")
        Path(names_path).write_text(
            f"# {season}: 000 7.2 preliminary round, {draw.preliminary_seats} final seats\n"
            + "".join(s.name + "\n" for s in draw.preliminary), encoding="utf-8")
    except OSError as exc:
        raise ClubError(f"{folder}: cannot write the preliminary round ({exc.strerror})",
                        "cannot_write", folder=folder, why=exc.strerror) from None
    return yaml_path, names_path
