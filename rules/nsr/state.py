"""The NSR game state: units of figures, the deck, charges, buildings; plain data throughout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.battlefield import FieldState
from rules.contract import Waiting
from rules.core import RuleError, short
from rules.words import find_name, match_name

Phase = Literal["deployment", "movement", "fire", "close_combat", "over"]
Status = Literal["fit", "wounded", "killed", "captured", "ran"]


@dataclass
class Figure:
    """One figure of a unit. ``rank`` > 0 marks a leader; ``key`` a key figure (gunner, sapper…)."""

    name: str
    role: str
    rank: int = 0
    key: bool = False
    status: Status = "fit"
    wound: str = ""  # "light" or "heavy" while wounded
    prone: bool = False
    pinned: bool = False
    shaken: bool = False
    routed: bool = False
    duty: str = ""  # "escort", "carrying" or "working": busy, does not fire
    in_rear: bool = False  # a wounded figure carried or walked to the rear

    @property
    def standing(self) -> bool:
        return self.status == "fit"

    @property
    def leader(self) -> bool:
        return self.rank > 0


@dataclass
class Work:
    """A loophole or breach a unit works at this turn (credited at the end of the turn)."""

    building: str
    task: str
    workers: int
    row: str


@dataclass
class Unit:
    name: str
    side: str
    troop: str
    formation: str
    weapon: str
    melee: str
    original: int
    figures: list[Figure]
    british: bool = False
    pistols: bool = True
    attached: str = ""
    moved: bool = False  # had its movement card this turn (moving, charging or holding)
    held: bool = False  # ... and held: it did not move
    fired: bool = False  # had its fire card this turn (last_fired_turn says whether it fired)
    charged: bool = False
    fought: bool = False
    hit_this_turn: bool = False
    critical: bool = False
    immobile: bool = False
    gun_destroyed: bool = False
    limbered_turn: int = 0
    last_fired_turn: int = 0
    joker: int = 0  # the Joker chart result applied to this unit's activation this phase
    smoke: int = 0  # Joker Fire 4: no target beyond this many inches
    pistols_fired: list[str] = field(default_factory=list)
    building: str = ""
    work: Work | None = None

    def standing(self) -> list[Figure]:
        return [f for f in self.figures if f.status == "fit"]

    def strength(self) -> int:
        """Figures that count towards the unit's strength: fit and not routed off."""
        return sum(1 for f in self.figures if f.status == "fit" and not f.routed)

    def leaders(self) -> list[Figure]:
        return sorted((f for f in self.standing() if f.leader), key=lambda f: -f.rank)

    @property
    def shaken(self) -> bool:
        return any(f.shaken for f in self.standing())

    @property
    def pinned(self) -> bool:
        return any(f.pinned for f in self.standing())

    @property
    def routed(self) -> bool:
        standing = self.standing()
        return bool(standing) and all(f.routed for f in standing)

    @property
    def prone(self) -> bool:
        standing = self.standing()
        return bool(standing) and sum(f.prone for f in standing) * 2 > len(standing)

    @property
    def out(self) -> bool:
        """Out of the fight: no figure standing, or routed (it never rallies)."""
        return not self.standing() or self.routed

    def set_marks(self, **marks: bool) -> None:
        for f in self.standing():
            for key, value in marks.items():
                setattr(f, key, value)


@dataclass
class Charge:
    charger: str
    target: str
    counter: bool = False
    resolved: bool = False
    #: On the map: the charger set off from behind the target's rear (A-NSR-37); None on a table.
    rear: bool | None = None
    #: On the map: the target's centre when it was charged (A-NSR-37); None on a table.
    target_at: list[float] | None = None


@dataclass
class Building:
    name: str
    roof: int
    storeys: int
    windows: int = 0
    doors: int = 0
    loopholes: int = 0
    breaches: dict[str, int] = field(default_factory=dict)
    progress: dict[str, str] = field(default_factory=dict)  # task -> fraction done, "3/10"

    @property
    def capacity(self) -> int:
        return self.roof * self.storeys

    @property
    def openings(self) -> int:
        return self.windows + self.doors + self.loopholes + self.breaches.get("door", 0)


@dataclass
class Commander:
    unit: str
    figure: str
    lost_turn: int = 0


@dataclass
class NsrState:
    sides: list[str]
    turn: int
    phase: Phase
    units: list[Unit]
    deck: list[str]
    discards: list[str] = field(default_factory=list)
    card: str = ""
    active: str = ""
    #: The card's choice of a unit while it waits; its ``params`` name the card (:func:`waiting_card`).
    pending: Waiting | None = None
    charges: list[Charge] = field(default_factory=list)
    commanders: dict[str, Commander] = field(default_factory=dict)
    buildings: list[Building] = field(default_factory=list)
    idle_turns: int = 0
    over: bool = False
    winner: str | None = None
    #: The bot's map (None on a table): each unit's centre in ``positions``, its facing in
    #: ``facing``; its formation is the unit's (rules/nsr/onmap.py).
    field: FieldState | None = None


def unit_named(state: NsrState, wanted: object) -> Unit:
    if not isinstance(wanted, str) or not wanted.strip():
        raise RuleError("Name a unit.")
    name = find_unit_name([u.name for u in state.units], wanted)
    return next(u for u in state.units if u.name == name)


def find_unit_name(names: list[str], wanted: str) -> str:
    return find_name(names, wanted, "unit")


def building_named(state: NsrState, wanted: object) -> Building:
    if not isinstance(wanted, str) or not wanted.strip():
        raise RuleError("Name a building.")
    found = match_name([b.name for b in state.buildings], wanted)
    if found is not None:
        return next(b for b in state.buildings if b.name == found)
    raise RuleError(f"There is no building called {short(wanted)}: describe it first with /nsr building.")


def side_units(state: NsrState, side: str) -> list[Unit]:
    return [u for u in state.units if u.side == side]


def waiting_card(pending: Waiting) -> str:
    """The card a side's choice of a unit is for."""
    return str(pending.params.get("card", ""))
