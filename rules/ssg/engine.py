"""Simple Skirmish Game v0.1 (David Allen, 2007) as a pure engine (RULES-NOTES.md section 4).

Geometry is an input: players report distances, contacts and line of sight; the engine checks
them against the tables and rolls the dice in the notes' Dice order.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.core import (
    Action,
    Board,
    DataError,
    DiceSource,
    Event,
    FigureLine,
    FigureSpec,
    Outcome,
    RuleError,
    find_figure,
    load_checked,
    short,
    to_data,
)
from rules.tables import load_tables

D6 = 6
EPSILON = 1e-9
LOS_VALUES = ("clear", "partial", "blocked")
LOS_LABELS = {"clear_los": "clear LOS", "partial_los": "partial LOS", "beyond_short_range": "long range"}

Phase = Literal["movement", "melee", "shooting", "over"]


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


@dataclass(frozen=True)
class _Group:
    """One target of a volley, validated."""

    target: str
    range: float
    los: str
    dice: int
    suffix: str


# --- small helpers -------------------------------------------------------------------------------


def inches(value: float) -> str:
    return f"{value:g}″"


def _figure(state: SsgState, wanted: Any) -> SsgFigure:
    if not isinstance(wanted, str) or not wanted.strip():
        raise RuleError("Name a figure.")
    name = find_figure([f.name for f in state.figures], wanted)
    return next(f for f in state.figures if f.name == name)


def _other(state: SsgState, side: str) -> str:
    return next(s for s in state.sides if s != side)


def _lost(state: SsgState, side: str) -> int:
    return sum(1 for f in state.figures if f.side == side and f.removed)


def _contacts_of(state: SsgState, name: str) -> list[list[str]]:
    return [pair for pair in state.contacts if name in pair]


def _pair_text(pair: Sequence[str]) -> str:
    return f"{pair[0]} – {pair[1]}"


def _phase_event(state: SsgState, text: str) -> Event:
    data = {"turn": state.turn, "active": state.active, "phase": state.phase}
    return Event("phase", text, data)


def _copy(state: SsgState) -> SsgState:
    """A copy ``act`` may change freely (every mutable part is new)."""
    return dataclasses.replace(
        state,
        sides=list(state.sides),
        figures=[dataclasses.replace(f) for f in state.figures],
        contacts=[list(pair) for pair in state.contacts],
    )


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _number(value: Any, message: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise RuleError(message)
    return float(value)


def _whole(value: Any, message: str) -> int:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(message)
    return value


def _plural(count: int, word: str, many: str = "") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {many or word + 's'}"


# --- the engine ----------------------------------------------------------------------------------


SLUG = "ssg"
TITLE = "Simple Skirmish Game"


class SsgEngine:
    slug = SLUG
    title = TITLE

    def __init__(self, tables: SsgTables) -> None:
        problems = table_problems(tables)
        if problems:
            raise DataError(problems)
        self.tables = tables
        self._weapon_names = {name.casefold(): name for name in tables.weapons}
        for alias, target in tables.weapon_aliases.items():
            self._weapon_names.setdefault(" ".join(alias.split()).casefold(), target)
        self._handlers: dict[str, Callable[[SsgState, Mapping[str, Any], DiceSource], list[Event]]] = {
            "move": self._move,
            "melee": self._melee,
            "shoot": self._shoot,
            "next": self._next,
        }

    # --- protocol: roster and setup

    def sides(self) -> Sequence[str]:
        return list(self.tables.sides)

    def kinds(self) -> Sequence[str]:
        return list(self.tables.weapons)

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        name = " ".join(str(spec.name).split())
        if not name:
            raise RuleError("A figure needs a name.")
        side = self._side(spec.side)
        if spec.stats:
            raise RuleError(f"{short(name)} has stats, but SSG figures carry only a weapon: leave the stats empty.")
        return FigureSpec(name=name, side=side, kind=self._weapon(name, spec.kind), stats={})

    def recruit(self, spec: FigureSpec, dice: DiceSource) -> Outcome[FigureSpec]:
        """SSG figures roll nothing: a figure is its weapon."""
        return Outcome(self.check_figure(spec), [])

    def _side(self, wanted: Any) -> str:
        for side in self.tables.sides:
            if isinstance(wanted, str) and side.casefold() == wanted.strip().casefold():
                return side
        choices = " or ".join(self.tables.sides)
        raise RuleError(f"There is no side called {short(str(wanted))} in SSG: use {choices}.")

    def _weapon(self, figure: str, wanted: Any) -> str:
        text = " ".join(str(wanted or "").split())
        if not text:
            return self.tables.default_weapon  # A-SSG-9
        weapon = self._weapon_names.get(text.casefold())
        if weapon is None:
            known = ", ".join(self.tables.weapons)
            raise RuleError(f"{short(figure)} carries {short(text)}, which SSG does not know: use one of {known}.")
        return weapon

    def start(self, figures: Sequence[FigureSpec], dice: DiceSource) -> Outcome[SsgState]:
        checked = [self.check_figure(spec) for spec in figures]
        self._check_roster(checked)
        events, first = self._roll_off(dice)
        state = SsgState(
            sides=list(self.tables.sides),
            first=first,
            active=first,
            phase="movement",
            turn=1,
            figures=[SsgFigure(name=s.name, side=s.side, weapon=s.kind) for s in checked],
        )
        setup = inches(self.tables.setup_within_inches_of_home)
        events.append(
            _phase_event(
                state,
                f"Set up each side within {setup} of its home base; {first} goes first: turn 1, movement phase.",
            )
        )
        return Outcome(state, events)

    def _check_roster(self, figures: Sequence[FigureSpec]) -> None:
        need = self.tables.figures_per_side
        for side in self.tables.sides:
            count = sum(1 for f in figures if f.side == side)
            if count != need:
                raise RuleError(f"Each side needs {need} figures: {side} has {count}.")
        seen: set[str] = set()
        for f in figures:
            if f.name.casefold() in seen:
                raise RuleError(f"Two figures are called {short(f.name)}: give each figure its own name.")
            seen.add(f.name.casefold())

    def _roll_off(self, dice: DiceSource) -> tuple[list[Event], str]:
        """Dice order: d6 for the first side, d6 for the second, repeated on a tie."""
        a, b = self.tables.sides
        events: list[Event] = []
        round_no = 0
        while True:
            round_no += 1
            rolls = {a: dice.roll(D6, f"Roll-off: {a}"), b: dice.roll(D6, f"Roll-off: {b}")}
            winner = None if rolls[a] == rolls[b] else max(rolls, key=lambda s: rolls[s])
            outcome = "tie, roll again" if winner is None else f"{winner} goes first"
            text = f"Roll-off: {a} {rolls[a]}, {b} {rolls[b]}: {outcome}."
            events.append(Event("roll-off", text, {"round": round_no, "rolls": rolls, "winner": winner}))
            if winner is not None:
                return events, winner

    # --- protocol: play

    def act(self, state: SsgState, action: Action, dice: DiceSource) -> Outcome[SsgState]:
        if state.phase == "over":
            raise RuleError(f"The game is over: {state.winner} won.")
        handler = self._handlers.get(str(action.name).strip().casefold())
        if handler is None:
            raise RuleError(f"SSG has no action called {short(str(action.name))}: use move, melee, shoot or next.")
        if not action.by_gm and (action.side is None or action.side.strip().casefold() != state.active.casefold()):
            raise RuleError(f"It is {state.active}'s turn.")
        new = _copy(state)
        events = handler(new, action.params, dice)
        return Outcome(new, events)

    def whose_turn(self, state: SsgState) -> str | None:
        return None if state.phase == "over" else state.active

    def winner(self, state: SsgState) -> str | None:
        return state.winner

    def finished(self, state: SsgState) -> bool:
        return state.phase == "over"

    # --- phases

    def _require_phase(self, state: SsgState, phase: str, doing: str) -> None:
        if state.phase == phase:
            return
        order = ["movement", "melee", "shooting"]
        hint = ": end it with /ssg next" if order.index(phase) > order.index(state.phase) else ""
        raise RuleError(f"{doing} only in the {phase} phase; it is the {state.phase} phase now{hint}.")

    def _own_figure(self, state: SsgState, wanted: Any, doing: str) -> SsgFigure:
        fig = _figure(state, wanted)
        if fig.side != state.active:
            raise RuleError(f"{fig.name} is {fig.side}'s figure: only {state.active}'s figures {doing} this turn.")
        if fig.removed:
            raise RuleError(f"{fig.name} has been removed from play.")
        return fig

    def _next(self, state: SsgState, params: Mapping[str, Any], dice: DiceSource) -> list[Event]:
        if state.phase == "movement":
            return self._start_melee(state)
        if state.phase == "melee":
            if state.contacts:
                pair = state.contacts[0]
                raise RuleError(f"{pair[0]} and {pair[1]} are still in contact: resolve them with /ssg melee.")
            state.phase = "shooting"
            return [_phase_event(state, f"Turn {state.turn} · {state.active} · shooting phase.")]
        return self._end_turn(state)

    def _start_melee(self, state: SsgState) -> list[Event]:
        if not state.contacts:
            state.phase = "shooting"
            text = (
                f"No figures are in contact, so there is no melee: turn {state.turn} · {state.active} · shooting phase."
            )
            return [_phase_event(state, text)]
        state.phase = "melee"
        pairs = ", ".join(_pair_text(p) for p in state.contacts)
        return [_phase_event(state, f"Turn {state.turn} · {state.active} · melee phase: {pairs}.")]

    def _end_turn(self, state: SsgState) -> list[Event]:
        for fig in state.figures:
            fig.moved = 0.0
            fig.shot = False
        state.active = _other(state, state.active)
        if state.active == state.first:
            state.turn += 1
        state.phase = "movement"
        return [_phase_event(state, f"Turn {state.turn} · {state.active} · movement phase.")]

    # --- movement

    def _move(self, state: SsgState, params: Mapping[str, Any], dice: DiceSource) -> list[Event]:
        self._require_phase(state, "movement", "Figures move")
        fig = self._own_figure(state, params.get("figure"), "move")
        for pair in _contacts_of(state, fig.name):
            other = pair[1] if pair[0] == fig.name else pair[0]
            raise RuleError(f"{fig.name} is in contact with {other} and may not move until the melee is fought.")
        distance = _number(params.get("distance"), f"Give {fig.name}'s move as a number of inches.")
        if distance <= 0:
            raise RuleError(f"Give {fig.name}'s move as more than 0″.")
        left = self.tables.move_max_inches - fig.moved
        if distance > left + EPSILON:
            if left <= EPSILON:
                raise RuleError(f"{fig.name} has already moved {inches(self.tables.move_max_inches)} this turn.")
            raise RuleError(f"{fig.name} has only {inches(left)} of movement left this turn.")
        enemy = self._contact_target(state, fig, params.get("contact"))
        fig.moved = round(fig.moved + distance, 6)
        left = max(0.0, self.tables.move_max_inches - fig.moved)
        data = {"figure": fig.name, "distance": distance, "moved": fig.moved, "left": left}
        events = [Event("move", f"{fig.name} moves {inches(distance)} ({inches(left)} left).", data)]
        if enemy is not None:
            state.contacts.append([fig.name, enemy.name])
            within = inches(self.tables.contact_inches)
            text = f"{fig.name} comes within {within} of {enemy.name} and stops: they fight in the melee phase."
            events.append(Event("contact", text, {"figure": fig.name, "enemy": enemy.name}))
        return events

    def _contact_target(self, state: SsgState, fig: SsgFigure, wanted: Any) -> SsgFigure | None:
        if _blank(wanted):
            return None
        enemy = _figure(state, wanted)
        if enemy.side == fig.side:
            raise RuleError(f"{fig.name} cannot be in contact with {enemy.name}: they are on the same side.")
        if enemy.removed:
            raise RuleError(f"{enemy.name} has been removed from play: {fig.name} cannot contact it.")
        return enemy

    # --- melee

    def _melee(self, state: SsgState, params: Mapping[str, Any], dice: DiceSource) -> list[Event]:
        self._require_phase(state, "melee", "Melee is fought")
        pair = self._pick_pair(state, params.get("fighter"), params.get("opponent"))
        events: list[Event] = []
        first, second = (_figure(state, n) for n in pair)
        mine, theirs = (first, second) if first.side == state.active else (second, first)
        round_no = 0
        while True:
            round_no += 1
            a = dice.roll(D6, f"{mine.name}: melee against {theirs.name}")
            b = dice.roll(D6, f"{theirs.name}: melee against {mine.name}")
            winner, loser = (mine, theirs) if a > b else (theirs, mine)
            result = "tie, roll again" if a == b else f"{winner.name} wins"
            data = {
                "fighter": mine.name,
                "opponent": theirs.name,
                "round": round_no,
                "rolls": {mine.name: a, theirs.name: b},
                "winner": None if a == b else winner.name,
            }
            events.append(Event("melee", f"Melee: {mine.name} {a}, {theirs.name} {b}: {result}.", data))
            if a != b:
                break
        if self._remove(state, loser, winner.name, events):
            return events
        if not state.contacts:
            state.phase = "shooting"
            text = f"All melees are resolved: turn {state.turn} · {state.active} · shooting phase."
            events.append(_phase_event(state, text))
        return events

    def _pick_pair(self, state: SsgState, fighter: Any, opponent: Any) -> list[str]:
        """A-SSG-1: the active player chooses which pair fights; by default the first contact made."""
        if not state.contacts:
            raise RuleError("No figures are in contact: end the melee phase with /ssg next.")
        names = [_figure(state, n) for n in (fighter, opponent) if n is not None and str(n).strip()]
        for fig in names:
            if fig.removed:
                raise RuleError(f"{fig.name} has been removed from play.")
        matching = [p for p in state.contacts if all(f.name in p for f in names)]
        if matching:
            return matching[0]
        if len(names) == 2 and names[0].name != names[1].name:
            raise RuleError(f"{names[0].name} and {names[1].name} are not in contact.")
        raise RuleError(f"{names[0].name} is not in contact with an enemy figure.")

    # --- removal and victory

    def _remove(self, state: SsgState, fig: SsgFigure, by: str, events: list[Event]) -> bool:
        """Remove ``fig``; True when that ends the game (A-SSG-5: checked at once)."""
        fig.removed = True
        fig.removed_by = by
        state.contacts = [p for p in state.contacts if fig.name not in p]
        data = {"figure": fig.name, "side": fig.side, "by": by}
        events.append(Event("casualty", f"{fig.name} ({fig.side}) is removed from play by {by}.", data))
        lost = _lost(state, fig.side)
        if lost < self.tables.victory_removed:
            return False
        state.winner = _other(state, fig.side)
        state.phase = "over"
        text = f"{state.winner} wins: {lost} of {fig.side}'s figures have been removed."
        events.append(Event("victory", text, {"winner": state.winner, "loser": fig.side}))
        return True

    # --- shooting

    def _shoot(self, state: SsgState, params: Mapping[str, Any], dice: DiceSource) -> list[Event]:
        self._require_phase(state, "shooting", "Figures shoot")
        shooter = self._own_figure(state, params.get("shooter"), "shoot")
        if shooter.shot:
            raise RuleError(f"{shooter.name} has already shot this turn: each figure shoots once per turn.")
        weapon = self.tables.weapons[shooter.weapon]
        groups = self._volley(state, shooter, weapon, params)
        shooter.shot = True
        return self._fire(state, shooter, weapon, groups, dice)

    def _volley(self, state: SsgState, shooter: SsgFigure, weapon: Weapon, params: Mapping[str, Any]) -> list[_Group]:
        """Every target group declared, checked and given its dice before any die is rolled."""
        if _blank(params.get("target")):
            raise RuleError(f"Name the figure {shooter.name} shoots at.")
        raw = self._raw_groups(params, max(3, weapon.rof))
        if len(raw) > weapon.rof:
            raise RuleError(
                f"{shooter.name}'s {shooter.weapon} has ROF {weapon.rof}: "
                f"it can fire at no more than {_plural(weapon.rof, 'target')}."
            )
        counts = self._allocate(shooter, weapon, raw)
        groups: list[_Group] = []
        for (suffix, values), count in zip(raw, counts):
            groups.append(self._group(state, shooter, weapon, suffix, values, count))
        targets = [g.target for g in groups]
        for name in targets:
            if targets.count(name) > 1:
                raise RuleError(f"{name} is named twice: give all the dice for one target in one group.")
        return groups

    @staticmethod
    def _raw_groups(params: Mapping[str, Any], most: int) -> list[tuple[str, dict[str, Any]]]:
        raw = []
        for suffix in [""] + [str(n) for n in range(2, most + 1)]:
            values = {k: params.get(f"{k}{suffix}") for k in ("target", "range", "los", "dice")}
            if _blank(values["target"]):
                extra = [f"{k}{suffix}" for k in ("range", "los", "dice") if values[k] is not None]
                if extra:
                    raise RuleError(f"{extra[0]} was given without target{suffix}.")
                continue
            raw.append((suffix, values))
        return raw

    @staticmethod
    def _allocate(shooter: SsgFigure, weapon: Weapon, raw: list[tuple[str, dict[str, Any]]]) -> list[int]:
        """Dice per group: one group may omit them (all the ROF); with several only the last may."""
        message = "Give the number of dice as a whole number."
        given = [None if v["dice"] is None else _whole(v["dice"], message) for _, v in raw]
        for (suffix, _), count in zip(raw[:-1], given[:-1]):
            if count is None:
                raise RuleError(f"With several targets, give dice{suffix} for each target but the last.")
        if given[-1] is None:
            given[-1] = weapon.rof - sum(c for c in given[:-1] if c is not None)
        counts = [int(c) for c in given if c is not None]
        for (_, values), count in zip(raw, counts):
            if count < 1:
                raise RuleError(f"Each target needs at least 1 die: {values['target']} would get {count}.")
        total = sum(counts)
        if total > weapon.rof:
            raise RuleError(
                f"{shooter.name}'s {shooter.weapon} has ROF {weapon.rof}: {_plural(total, 'die', 'dice')} are too many."
            )
        return counts

    def _group(
        self, state: SsgState, shooter: SsgFigure, weapon: Weapon, suffix: str, values: Mapping[str, Any], count: int
    ) -> _Group:
        target = _figure(state, values["target"])
        if target.side == shooter.side:
            raise RuleError(f"{target.name} is on {shooter.name}'s own side: shoot at an enemy figure.")
        if target.removed:
            raise RuleError(f"{target.name} has already been removed from play.")
        los = values["los"]
        los = los.strip().casefold() if isinstance(los, str) else los
        if los not in LOS_VALUES:
            raise RuleError(
                f"Say whether {shooter.name}'s line of sight to {target.name} is clear, partial or blocked."
            )
        if los == "blocked":
            raise RuleError(f"{shooter.name} has no line of sight to {target.name}, so cannot shoot at it.")
        distance = _number(values["range"], f"Give the range from {shooter.name} to {target.name} in inches.")
        if distance <= 0:
            raise RuleError(f"Give the range from {shooter.name} to {target.name} as more than 0″.")
        if distance > weapon.long:
            raise RuleError(
                f"{target.name} is out of range: {shooter.name}'s {shooter.weapon} reaches "
                f"{inches(weapon.long)}, not {inches(distance)}."
            )
        return _Group(target=target.name, range=distance, los=los, dice=count, suffix=suffix)

    def _modifiers(self, weapon: Weapon, group: _Group) -> list[tuple[str, int]]:
        """A-SSG-2: beyond short range means short < d <= long."""
        drm = self.tables.drm
        mods = [("partial_los", drm.partial_los) if group.los == "partial" else ("clear_los", drm.clear_los)]
        if group.range > weapon.short:
            mods.append(("beyond_short_range", drm.beyond_short_range))
        return [(key, value) for key, value in mods if value != 0]

    def _fire(
        self, state: SsgState, shooter: SsgFigure, weapon: Weapon, groups: list[_Group], dice: DiceSource
    ) -> list[Event]:
        events: list[Event] = []
        total = sum(g.dice for g in groups)
        number = 0
        for group in groups:
            mods = self._modifiers(weapon, group)
            for _ in range(group.dice):
                number += 1
                natural = dice.roll(D6, f"{shooter.name}: shot {number} of {total} at {group.target}")
                if self._one_shot(state, shooter, group, mods, natural, number, total, events):
                    events[-1] = self._with_unrolled(events[-1], total - number)
                    return events
        return events

    def _one_shot(
        self,
        state: SsgState,
        shooter: SsgFigure,
        group: _Group,
        mods: list[tuple[str, int]],
        natural: int,
        number: int,
        total: int,
        events: list[Event],
    ) -> bool:
        """One die at one target (A-SSG-3: no automatic hits); True when the game ends."""
        target = _figure(state, group.target)
        modifier = sum(v for _, v in mods)
        score = natural + modifier
        need = self.tables.hit_if_modified_d6_at_least
        hit = score >= need
        already = hit and target.removed
        result = "miss" if not hit else (f"hit, but {target.name} is already out" if already else "hit")
        sums = "".join(f" {'−' if v < 0 else '+'} {abs(v)} ({LOS_LABELS[k]})" for k, v in mods)
        calc = f"{natural}{sums} = {score}" if mods else f"{natural}"
        which = f" (die {number} of {total})" if total > 1 else ""
        text = f"{shooter.name} fires at {target.name}{which}: {calc}, needs {need}: {result}."
        data = {
            "shooter": shooter.name,
            "target": target.name,
            "die": number,
            "of": total,
            "range": group.range,
            "los": group.los,
            "natural": natural,
            "modifiers": [{"reason": LOS_LABELS[k], "value": v} for k, v in mods],
            "modifier": modifier,
            "total": score,
            "needed": need,
            "hit": hit,
            "effect": "miss" if not hit else ("already removed" if already else "removed"),
        }
        events.append(Event("shot", text, data))
        if hit and not already:
            return self._remove(state, target, shooter.name, events)
        return False

    @staticmethod
    def _with_unrolled(victory: Event, unrolled: int) -> Event:
        if unrolled <= 0:
            return Event(victory.kind, victory.text, {**victory.data, "unrolled": 0})
        text = f"{victory.text} The remaining {unrolled} dice are not rolled."
        if unrolled == 1:
            text = f"{victory.text} The remaining die is not rolled."
        return Event(victory.kind, text, {**victory.data, "unrolled": unrolled})

    # --- display and storage

    def board(self, state: SsgState) -> Board:
        over = state.phase == "over"
        headline = (
            f"Game over: {state.winner} won" if over else f"Turn {state.turn} · {state.active} · {state.phase} phase"
        )
        need = self.tables.victory_removed
        lost = " · ".join(f"{side} {_lost(state, side)}/{need}" for side in state.sides)
        contacts = "; ".join(_pair_text(p) for p in state.contacts) or "none"
        facts = [
            ("Turn", str(state.turn)),
            ("Active", "—" if over else state.active),
            ("Phase", state.phase),
            ("First", state.first),
            ("Lost", lost),
            ("In contact", contacts),
        ]
        if over:
            facts.append(("Winner", str(state.winner)))
        lines = tuple(FigureLine(f.name, f.side, self._status(state, f), out=f.removed) for f in state.figures)
        return Board(headline=headline, facts=tuple(facts), figures=lines, finished=over)

    def _status(self, state: SsgState, fig: SsgFigure) -> str:
        if fig.removed:
            return "removed"
        parts = [fig.weapon]
        if fig.moved > 0:
            parts.append(f"moved {inches(fig.moved)}")
        for pair in _contacts_of(state, fig.name):
            parts.append(f"in contact with {pair[1] if pair[0] == fig.name else pair[0]}")
        if fig.shot:
            parts.append("has shot")
        return " · ".join(parts)

    def dump_state(self, state: SsgState) -> dict[str, Any]:
        return to_data(state)

    def load_state(self, data: Mapping[str, Any]) -> SsgState:
        return load_checked(SsgState, data, self._state_problems)

    def _state_problems(self, state: SsgState) -> list[str]:
        problems: list[str] = []
        if len(state.sides) != 2:
            problems.append(f"sides: need two sides, got {state.sides!r}")
        for key in ("first", "active"):
            if getattr(state, key) not in state.sides:
                problems.append(f"{key}: {getattr(state, key)!r} is not one of the sides")
        if state.winner is not None and state.winner not in state.sides:
            problems.append(f"winner: {state.winner!r} is not one of the sides")
        names = {f.name for f in state.figures}
        for i, fig in enumerate(state.figures):
            if fig.side not in state.sides:
                problems.append(f"figures[{i}].side: {fig.side!r} is not one of the sides")
            if fig.weapon not in self.tables.weapons:
                problems.append(f"figures[{i}].weapon: {fig.weapon!r} is not one of the weapons")
        for i, pair in enumerate(state.contacts):
            if len(pair) != 2 or not set(pair) <= names:
                problems.append(f"contacts[{i}]: {pair!r} is not a pair of figures in this game")
        return problems


def make_engine(house_rules: Mapping[str, Any] | None = None) -> SsgEngine:
    """The SSG engine with a campaign's house rules laid over ``tables.yaml``."""
    return SsgEngine(load_tables("rules.ssg", SsgTables, house_rules))
