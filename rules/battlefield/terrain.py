"""What each kind of terrain does, as a ruleset's ``tables.yaml`` says (its ``terrain:`` section).

The shapes are the map's; what a wood or a hedge *does* is the ruleset's, so a house rule can make
hedges cost nothing to cross or woods hide nothing. Every kind a map may hold is listed in
:data:`KINDS`; a ruleset's table gives each of them a :class:`TerrainKind`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

#: Every kind of feature a map may hold, in the order a legend lists them.
KINDS = (
    "wood",
    "building",
    "wall",
    "hedge",
    "fence",
    "hill",
    "water",
    "ford",
    "road",
    "rough",
    "rubble",
    "barricade",
)
#: The kinds drawn as a line with a thickness rather than an area.
LINE_KINDS = ("wall", "hedge", "fence", "barricade")

Cover = Literal["none", "soft", "hard"]
#: ``blocks``: lines of sight through it are hidden (a wood, a building, a tall hedge). ``low``: it
#: hides the lower part of a figure behind it (a wall, a fence): partial sight when it is nearer the
#: target than the shooter, never none. ``clear``: it hides nothing (a road, water).
SightEffect = Literal["clear", "low", "blocks"]


@dataclass(frozen=True)
class TerrainKind:
    """What one kind of feature does.

    ``sight``: see :data:`SightEffect`. ``see_into``: how far (inches) a figure
    standing inside it sees out and is seen (a wood's edge); None: a figure inside sees and is seen
    as if it were not there (a hill it stands on). ``cover``: what a figure behind or in it gets.
    ``move_cost``: inches of movement an inch of it uses; None: it cannot be entered. ``obstacle``
    and ``barricade``: for the rulesets that charge or defend across them. ``height``: how much
    higher a figure standing on it is than open ground."""

    sight: SightEffect = "clear"
    see_into: float | None = 0.0
    cover: Cover = "none"
    move_cost: float | None = 1.0
    obstacle: bool = False
    barricade: bool = False
    height: float = 0.0
    #: The thickness a line of this kind gets when a map gives none.
    thickness: float = 0.5


Terrain = Mapping[str, TerrainKind]


def terrain_problems(terrain: Terrain, where: str = "terrain") -> list[str]:
    """What is wrong with a ruleset's terrain table, as readable problems."""
    problems = [
        f"{where}.{kind}: not a kind of terrain (use {', '.join(KINDS)})" for kind in terrain if kind not in KINDS
    ]
    problems += [f"{where}: {kind} is missing" for kind in KINDS if kind not in terrain]
    for kind, what in terrain.items():
        if what.move_cost is not None and not 0 < what.move_cost <= 10:
            problems.append(f"{where}.{kind}.move_cost: must be more than 0 and at most 10, or null (impassable)")
        if what.see_into is not None and not 0 <= what.see_into <= 12:
            problems.append(f"{where}.{kind}.see_into: must be between 0 and 12 inches, or null")
        if not 0 <= what.height <= 10:
            problems.append(f"{where}.{kind}.height: must be between 0 and 10")
        if not 0.01 <= what.thickness <= 12:
            problems.append(f"{where}.{kind}.thickness: must be between 0.01 and 12 inches")
    return problems


def costs(terrain: Terrain) -> dict[str, float | None]:
    """Movement cost per kind, for :func:`rules.geometry.path_cost` (open ground left out)."""
    return {kind: what.move_cost for kind, what in terrain.items() if what.move_cost != 1.0}


def blocking(terrain: Terrain) -> frozenset[str]:
    return frozenset(kind for kind, what in terrain.items() if what.sight == "blocks")


def low(terrain: Terrain) -> frozenset[str]:
    return frozenset(kind for kind, what in terrain.items() if what.sight == "low")
