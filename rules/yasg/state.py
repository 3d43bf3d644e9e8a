"""What a YASG game remembers (RULES-NOTES.md 1.4), as plain dataclasses that round-trip through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Phase = Literal["setup", "morale", "movement", "fire", "close combat", "over"]
WeaponState = Literal["loaded", "empty", "misfired"]
Facing = Literal["n", "e", "s", "w"]


@dataclass
class YasgFigure:
    name: str
    side: str
    base_class: str
    leader: bool = False
    weapon: str = "musket"
    x: int | None = None
    y: int | None = None
    facing: Facing = "n"
    wounds: int = 0
    out: bool = False
    out_by: str | None = None
    pinned: bool = False
    #: Ran last turn: fires worse and tests morale at one class worse (A-YASG-7, -11).
    shaken: bool = False
    #: Fallen while running: on the ground until the end of this turn number (0: standing).
    fallen_until: int = 0
    weapon_state: WeaponState = "loaded"
    #: The turn the weapon was fired or misfired (it loads or is rectified in a later turn).
    weapon_turn: int = 0
    # --- this turn only
    moved: int = 0
    ran: bool = False
    fired: bool = False
    loading: bool = False
    #: Unpinned by its Leader this movement phase: may not move until next turn (A-YASG-9).
    rallied: bool = False
    in_combat: bool = False
    engage: str | None = None

    @property
    def square(self) -> tuple[int, int] | None:
        return None if self.x is None or self.y is None else (self.x, self.y)

    @property
    def standing(self) -> bool:
        """In the fight and on the board."""
        return not self.out and self.square is not None


@dataclass
class TerrainSquare:
    x: int
    y: int
    kind: str
    #: A hill's uphill sides as set by the players; None: every side bordering lower ground.
    uphill: list[str] | None = None


@dataclass
class EdgeMark:
    """A hedge or wall on the side between two squares, kept as the north or west side of (x, y)."""

    x: int
    y: int
    side: Literal["n", "w"]
    kind: str


@dataclass
class PendingHit:
    """A hit rolled in a simultaneous phase, applied when the phase ends (A-YASG-16)."""

    target: str
    by: str
    result: Literal["killed", "serious", "minor"]
    how: str


@dataclass
class YasgState:
    sides: list[str]
    phase: Phase
    turn: int
    width: int
    height: int
    figures: list[YasgFigure]
    map_name: str = ""
    terrain: list[TerrainSquare] = field(default_factory=list)
    edges: list[EdgeMark] = field(default_factory=list)
    #: Sides in the order they move this turn (the first won the initiative).
    initiative: list[str] = field(default_factory=list)
    mover: str | None = None
    #: Sides that have finished the fire or close-combat phase.
    done: list[str] = field(default_factory=list)
    hits: list[PendingHit] = field(default_factory=list)
    winner: str | None = None
    result: str | None = None
