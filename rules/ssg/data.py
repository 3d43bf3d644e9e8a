"""What SSG reads and remembers: its tables (``tables.yaml``, checked) and a game's state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.battlefield import FieldState, TerrainKind, terrain_problems

D6 = 6
#: The most ties a house rule may roll again: each costs two dice of the action's bounded few.
MAX_TIES = 100
Phase = Literal["deployment", "movement", "melee", "shooting", "over"]


# --- tables ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    short: float
    long: float
    rof: int


@dataclass(frozen=True)
class Drm:
    clear_los: int
    partial_los: int
    beyond_short_range: int


@dataclass(frozen=True)
class SsgTables:
    sides: list[str]
    figures_per_side: int
    setup_within_inches_of_home: float
    move_max_inches: float
    contact_inches: float
    weapons: dict[str, Weapon]
    weapon_aliases: dict[str, str]
    default_weapon: str
    hit_if_modified_d6_at_least: int
    drm: Drm
    victory_removed: int
    ties_rolled_again_at_most: int
    base_radius: float
    terrain: dict[str, TerrainKind]


def table_problems(t: SsgTables) -> list[str]:
    """What the types of :class:`SsgTables` cannot say, as readable problems."""
    problems: list[str] = []
    if len(t.sides) != 2 or len({s.casefold() for s in t.sides}) != 2 or not all(s.strip() for s in t.sides):
        problems.append(f"sides: need exactly two different side names, got {t.sides!r}")
    if t.figures_per_side < 1:
        problems.append(f"figures_per_side: must be at least 1, got {t.figures_per_side}")
    if not 1 <= t.victory_removed <= t.figures_per_side:
        problems.append(
            f"victory_removed: must be between 1 and figures_per_side ({t.figures_per_side}), got {t.victory_removed}"
        )
    for key in ("setup_within_inches_of_home", "move_max_inches", "contact_inches"):
        if not getattr(t, key) > 0:
            problems.append(f"{key}: must be more than 0, got {getattr(t, key)}")
    if not t.weapons:
        problems.append("weapons: need at least one weapon")
    for name, w in t.weapons.items():
        if not w.short > 0:
            problems.append(f"weapons.{name}.short: must be more than 0, got {w.short:g}")
        if w.short > w.long:
            problems.append(f"weapons.{name}: short range {w.short:g} is more than long range {w.long:g}")
        if w.rof < 1:
            problems.append(f"weapons.{name}.rof: must be at least 1, got {w.rof}")
    folded = [n.casefold() for n in t.weapons]
    if len(set(folded)) != len(folded):
        problems.append("weapons: two weapons differ only in capitals")
    for alias, target in t.weapon_aliases.items():
        if target not in t.weapons:
            problems.append(f"weapon_aliases.{alias}: {target!r} is not one of the weapons")
        elif alias.casefold() in folded and alias.casefold() != target.casefold():
            problems.append(f"weapon_aliases.{alias}: is already the name of a weapon")
    if t.default_weapon not in t.weapons:
        problems.append(f"default_weapon: {t.default_weapon!r} is not one of the weapons")
    problems += terrain_problems(t.terrain)
    if not 0.1 <= t.base_radius <= 3:
        problems.append(f"base_radius: must be between 0.1 and 3 inches, got {t.base_radius:g}")
    if not 0 <= t.ties_rolled_again_at_most <= MAX_TIES:
        problems.append(
            f"ties_rolled_again_at_most: must be between 0 and {MAX_TIES}, got {t.ties_rolled_again_at_most}"
        )
    if not 1 <= t.hit_if_modified_d6_at_least <= D6 + 10:
        problems.append(f"hit_if_modified_d6_at_least: {t.hit_if_modified_d6_at_least} is not a sensible target")
    return problems


# --- state ---------------------------------------------------------------------------------------


@dataclass
class SsgFigure:
    name: str
    side: str
    weapon: str
    removed: bool = False
    removed_by: str | None = None
    moved: float = 0.0
    shot: bool = False


@dataclass
class SsgState:
    sides: list[str]
    first: str
    active: str
    phase: Phase
    turn: int
    figures: list[SsgFigure]
    #: Pairs [active side's figure, enemy figure] within contact distance, in the order made.
    contacts: list[list[str]] = field(default_factory=list)
    winner: str | None = None
    #: The bot's map and where every figure stands; None when the group plays on a table.
    field: FieldState | None = None
