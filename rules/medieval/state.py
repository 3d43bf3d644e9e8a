"""The game state (plain dataclasses, JSON both ways) and what follows from it: effective stats,
penalties, armour, contacts."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.battlefield import FieldState
from rules.contract import Waiting
from rules.core import RuleError, find_figure
from rules.medieval.data import LIVING, STATS, Health, MedievalTables
from rules.words import joined

#: ``deployment``: on the bot's map, the figures are being placed (before the roll-off).
Phase = Literal["deployment", "order", "play", "over"]
#: The action that answers the roll-off winner's choice (A-MED-12).
ORDER_ACTION = "order"
HEALTH_LABELS = {
    "full": "full health",
    "light": "lightly wounded",
    "serious": "seriously wounded",
    "killed": "killed",
    "collapsed": "collapsed",
}
STAT_LABELS = {"speed": "speed", "bravery": "Bravery", "shoot": "shoot", "fight": "fight"}


@dataclass
class MedFigure:
    name: str
    side: str
    kind: str
    speed: int
    bravery: int
    shoot: int
    fight: int
    weapons: list[str]
    armour: list[str]
    health: Health = "full"
    #: A-MED-15: healed from serious to light; may not be healed further to full.
    healed_from_serious: bool = False
    prone: bool = False
    #: Inches moved in its side's latest turn (the moving modifier reads it, A-MED-9).
    moved: float = 0.0
    shots: int = 0
    shot_with: str | None = None
    fights: int = 0
    activated: bool = False
    #: Lost a break-off contest: may move no further this turn.
    stuck: bool = False
    out_by: str | None = None


@dataclass
class GroundItem:
    item: str
    near: str
    #: Where it lies on the bot's map (None at a table).
    at: list[float] | None = None


@dataclass
class MedState:
    sides: list[str]
    phase: Phase
    turn: int
    figures: list[MedFigure]
    first: str | None = None
    active: str | None = None
    #: The figure being activated (A-MED: one figure at a time, all its actions before the next).
    current: str | None = None
    #: Pairs of figures in hand-to-hand contact, in the order made.
    contacts: list[list[str]] = field(default_factory=list)
    ground: list[GroundItem] = field(default_factory=list)
    #: The roll-off winner's choice of going first or second, while it waits.
    pending: Waiting | None = None
    winner: str | None = None
    #: The bot's map and where every figure stands; None when the group plays on a table.
    field: FieldState | None = None


# --- looking things up -----------------------------------------------------------------------------


def figure(state: MedState, wanted: Any) -> MedFigure:
    if not isinstance(wanted, str) or not wanted.strip():
        raise RuleError("Name a figure.")
    name = find_figure([f.name for f in state.figures], wanted)
    return next(f for f in state.figures if f.name == name)


def in_action(fig: MedFigure) -> bool:
    return fig.health in LIVING


def other_side(state: MedState, side: str) -> str:
    return next(s for s in state.sides if s != side)


def enemies_in_contact(state: MedState, fig: MedFigure) -> list[str]:
    return [b if a == fig.name else a for a, b in state.contacts if fig.name in (a, b)]


def in_contact(state: MedState, a: str, b: str) -> bool:
    return any({a, b} == set(pair) for pair in state.contacts)


def drop_contacts(state: MedState, name: str, with_name: str | None = None) -> None:
    state.contacts = [p for p in state.contacts if name not in p or (with_name is not None and with_name not in p)]


# --- stats, penalties, kit -------------------------------------------------------------------------


def _half(value: int, rounding: str) -> int:
    return math.ceil(value / 2) if rounding == "up" else math.floor(value / 2)


def effective(t: MedievalTables, fig: MedFigure) -> dict[str, int]:
    """Speed, Bravery, Shoot and Fight as its wounds leave them (light -2; serious halved, A-MED-5)."""
    base = {stat: getattr(fig, stat) for stat in STATS}
    if fig.health == "light":
        out = {stat: value + t.light_wound_modifiers.get(stat, 0) for stat, value in base.items()}
    elif fig.health == "serious":
        out = {s: _half(v, t.halving_rounds) if s in t.serious_wound_halves else v for s, v in base.items()}
    else:
        out = dict(base)
    out["speed"] = max(0, out["speed"])
    return out


def penalties(t: MedievalTables, fig: MedFigure) -> str:
    """The penalties in force, in words a player reads."""
    if fig.health == "full":
        return "no penalties"
    if fig.health in ("killed", "collapsed"):
        return "out of action"
    eff = effective(t, fig)
    now = ", ".join(f"{STAT_LABELS[s]} {eff[s]}" for s in STATS)
    if fig.health == "light":
        mods = _grouped({s: v for s, v in t.light_wound_modifiers.items() if v})
        extra = "; cannot be healed back to full health" if fig.healed_from_serious else ""
        return f"{mods} ({now}){extra}"
    halved = joined([STAT_LABELS[s] for s in STATS if s in t.serious_wound_halves])
    return f"{halved} halved ({now}); a Bravery test at each activation or it collapses"


def _grouped(mods: dict[str, int]) -> str:
    by_value: dict[int, list[str]] = {}
    for stat in STATS:
        if stat in mods:
            by_value.setdefault(mods[stat], []).append(STAT_LABELS[stat])
    return "; ".join(f"{'−' if v < 0 else '+'}{abs(v)} {joined(names)}" for v, names in by_value.items())


def armour_total(t: MedievalTables, fig: MedFigure) -> int:
    return sum(t.armour[a].protection for a in fig.armour if a in t.armour)


def kit_text(t: MedievalTables, fig: MedFigure) -> str:
    weapons = ", ".join(fig.weapons) or t.unarmed
    armour = " + ".join(fig.armour)
    worn = f"{armour} (armour {armour_total(t, fig)})" if armour else "no armour"
    return f"{weapons}; {worn}"


def melee_weapon(t: MedievalTables, fig: MedFigure) -> str:
    """What it fights with: its first hand-to-hand weapon, else bare hands."""
    return next((w for w in fig.weapons if w in t.weapons and t.weapons[w].melee), t.unarmed)


def sign(value: int) -> str:
    return f"− {abs(value)}" if value < 0 else f"+ {value}"


def state_problems(t: MedievalTables, state: MedState) -> list[str]:
    """A loaded state that does not fit the tables or itself, as readable problems."""
    problems: list[str] = []
    if len(state.sides) != 2 or len(set(state.sides)) != 2:
        problems.append(f"sides: need two sides, got {state.sides!r}")
    for key in ("first", "active", "winner"):
        value = getattr(state, key)
        if value is not None and value not in state.sides:
            problems.append(f"{key}: {value!r} is not one of the sides")
    names = [f.name for f in state.figures]
    if len(set(names)) != len(names):
        problems.append("figures: two figures have the same name")
    for i, fig in enumerate(state.figures):
        if fig.side not in state.sides:
            problems.append(f"figures[{i}].side: {fig.side!r} is not one of the sides")
        for w in fig.weapons:
            if w not in t.weapons:
                problems.append(f"figures[{i}].weapons: {w!r} is not one of the weapons")
        for a in fig.armour:
            if a not in t.armour:
                problems.append(f"figures[{i}].armour: {a!r} is not one of the armour")
    for i, pair in enumerate(state.contacts):
        if len(pair) != 2 or not set(pair) <= set(names) or pair[0] == pair[1]:
            problems.append(f"contacts[{i}]: {pair!r} is not a pair of figures in this game")
    if state.current is not None and state.current not in names:
        problems.append(f"current: {state.current!r} is not a figure in this game")
    if state.pending is not None and state.pending.decider not in state.sides:
        problems.append(f"pending.decider: {state.pending.decider!r} is not one of the sides")
    if state.field is None:
        if state.phase == "deployment":
            problems.append("phase: deployment needs a map (field)")
        return problems
    for name in state.field.positions:
        if name not in names:
            problems.append(f"field.positions: {name!r} is not a figure in this game")
    if state.phase not in ("deployment", "over"):
        unplaced = [f.name for f in state.figures if in_action(f) and f.name not in state.field.positions]
        if unplaced:
            problems.append(f"field.positions: {', '.join(unplaced)} not on the map after deployment")
    return problems
