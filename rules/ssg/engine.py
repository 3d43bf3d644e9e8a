"""Simple Skirmish Game v0.1 (David Allen, 2007) as a pure engine (RULES-NOTES.md section 4).

Geometry is measured on the bot's map (:mod:`rules.ssg.field`), or on a table reported by the
players; the engine checks it against the tables and rolls the dice in the notes' Dice order. The
tables and the state are in :mod:`rules.ssg.data`, the turn's actions in :mod:`rules.ssg.play`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.battlefield import FieldState, FieldView, MapData
from rules.battlefield.mapplay import PLACING, MapPlay
from rules.battlefield.reach import with_reach
from rules.core import (
    Board,
    DataError,
    DiceSource,
    Engine,
    Event,
    FigureLine,
    FigureSpec,
    Outcome,
    RuleError,
    bounded,
    short,
)
from rules.ssg import field as on_map
from rules.ssg.data import D6, SsgFigure, SsgState, SsgTables, table_problems
from rules.ssg.play import Ctx, contacts_of, lost, pair_text, phase_event, ready
from rules.ssg.specs import SPECS
from rules.tables import load_tables
from rules.words import inches, match_name, unique_names

__all__ = ["SLUG", "TITLE", "SsgEngine", "SsgState", "make_engine"]

SLUG = "ssg"
TITLE = "Simple Skirmish Game"


class SsgEngine(Engine[SsgState]):
    slug = SLUG
    title = TITLE
    short_name = "SSG"
    command_blurb = "Simple Skirmish Game: your turn's actions"
    specs = SPECS
    context_type = Ctx
    state_type = SsgState
    #: Placing figures before the first turn: each side places its own, in any order.
    open_actions = PLACING

    tables: SsgTables

    def __init__(self, tables: SsgTables) -> None:
        problems = table_problems(tables)
        if problems:
            raise DataError(problems)
        self.tables = tables
        self._weapon_names = {name.casefold(): name for name in tables.weapons}
        for alias, target in tables.weapon_aliases.items():
            self._weapon_names.setdefault(" ".join(alias.split()).casefold(), target)
        self.map_play = MapPlay(
            "rules.ssg",
            tables.sides,
            tables.terrain,
            unplaced=lambda state: [p.name for p in on_map.waiting_to_place(tables, state)],
            deploying=lambda state: state.phase == "deployment",
            pass_action=self.pass_action,
            #: The end of a movement phase.
            stretch_ended=lambda before, events: before.phase == "movement" and any(e.kind == "phase" for e in events),
        )

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

    def _side(self, wanted: Any) -> str:
        side = match_name(self.tables.sides, wanted)
        if side is not None:
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
        events, first = self._roll_off(bounded(dice))
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
            phase_event(
                state,
                f"Set up each side within {setup} of its home base; {first} goes first: turn 1, movement phase.",
            )
        )
        return Outcome(state, events)

    def start_on_map(self, figures: Sequence[FigureSpec], dice: DiceSource, field: MapData) -> Outcome[SsgState]:
        outcome = self.start(figures, dice)
        state = outcome.state
        state.field = FieldState(field)
        state.phase = "deployment"
        text = (
            f"The battle is fought on {field.name}. Each side places its figures in its deployment zone "
            f"(/map place, or /map deploy for all of them); then {state.first} begins: turn 1, movement phase."
        )
        events = [e for e in outcome.events if e.kind != "phase"]
        events.append(Event("setup", text, {"map": field.name}))
        return Outcome(state, events)

    def field_view(self, state: SsgState, focus: str | None = None) -> FieldView | None:
        if state.field is None:
            return None
        return with_reach(on_map.view(self.tables, state, focus), self, state)

    def _check_roster(self, figures: Sequence[FigureSpec]) -> None:
        need = self.tables.figures_per_side
        for side in self.tables.sides:
            names = [f.name for f in figures if f.side == side]
            if len(names) != need:
                how = _how_to_field(need, names)
                raise RuleError(f"Each side needs {need} figures: {side} has {len(names)}. {how}")
        unique_names(f.name for f in figures)

    def _roll_off(self, dice: DiceSource) -> tuple[list[Event], str]:
        """Dice order: d6 for the first side, d6 for the second, repeated on a tie (at most
        ``ties_rolled_again_at_most`` times: A-SSG-15)."""
        a, b = self.tables.sides
        events: list[Event] = []
        ties = self.tables.ties_rolled_again_at_most
        for round_no in range(1, ties + 2):
            rolls = {a: dice.roll(D6, f"Roll-off: {a}"), b: dice.roll(D6, f"Roll-off: {b}")}
            winner = None if rolls[a] == rolls[b] else max(rolls, key=lambda s: rolls[s])
            outcome = "tie, roll again" if winner is None else f"{winner} goes first"
            text = f"Roll-off: {a} {rolls[a]}, {b} {rolls[b]}: {outcome}."
            events.append(Event("roll-off", text, {"round": round_no, "rolls": rolls, "winner": winner}))
            if winner is not None:
                return events, winner
        raise RuleError(
            f"The roll-off tied {ties + 1} times running: nobody goes first and the battle is not started; start it again."
        )

    # --- protocol: play

    def whose_turn(self, state: SsgState) -> str | None:
        if state.phase == "deployment":
            waiting = on_map.waiting_to_place(self.tables, state)
            return waiting[0].side if waiting else state.active
        return None if state.phase == "over" else state.active

    def winner(self, state: SsgState) -> str | None:
        return state.winner

    def ready(self, state: SsgState, side: str) -> list[str]:
        return ready(self.tables, state, side)

    def actions_now(self, state: SsgState, side: str) -> Sequence[str]:
        """Placing while deploying; then the phase's own action, and /ssg next once no pair is left
        in contact (a shot too, which ends a melee phase with no pairs)."""
        if state.phase == "deployment":
            return PLACING
        if state.phase == "movement":
            return ("move", "next")
        return ("melee",) if state.phase == "melee" and state.contacts else ("shoot", "next")

    def finished(self, state: SsgState) -> bool:
        return state.phase == "over"

    # --- display and storage

    def board(self, state: SsgState) -> Board:
        over = state.phase == "over"
        headline = (
            f"Game over: {state.winner} won" if over else f"Turn {state.turn} · {state.active} · {state.phase} phase"
        )
        need = self.tables.victory_removed
        losses = " · ".join(f"{side} {lost(state, side)}/{need}" for side in state.sides)
        contacts = "; ".join(pair_text(p) for p in state.contacts) or "none"
        facts = [
            ("Turn", str(state.turn)),
            ("Active", "—" if over else state.active),
            ("Phase", state.phase),
            ("First", state.first),
            ("Lost", losses),
            ("In contact", contacts),
        ]
        if over:
            facts.append(("Winner", str(state.winner)))
        if state.field is not None:
            facts.append(("Map", state.field.map.name))
            if state.phase == "deployment":
                waiting = on_map.waiting_to_place(self.tables, state)
                facts.append(("To place", ", ".join(p.name for p in waiting) or "none"))
        lines = tuple(FigureLine(f.name, f.side, self._status(state, f), out=f.removed) for f in state.figures)
        return Board(headline=headline, facts=tuple(facts), figures=lines, finished=over)

    def _status(self, state: SsgState, fig: SsgFigure) -> str:
        if fig.removed:
            return "removed"
        parts = [fig.weapon]
        if state.field is not None and fig.name in state.field.positions:
            x, y = state.field.positions[fig.name]
            parts.append(f"at {x:.1f},{y:.1f}")
        if fig.moved > 0:
            parts.append(f"moved {inches(fig.moved)}")
        for pair in contacts_of(state, fig.name):
            parts.append(f"in contact with {pair[1] if pair[0] == fig.name else pair[0]}")
        if fig.shot:
            parts.append("has shot")
        return " · ".join(parts)

    def state_problems(self, state: SsgState) -> list[str]:
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
        if state.field is not None:
            problems += [
                f"field.positions: {n!r} is not a figure in this game" for n in state.field.positions if n not in names
            ]
        elif state.phase == "deployment":
            problems.append("phase: deployment needs a map")
        return problems


def _how_to_field(need: int, names: Sequence[str]) -> str:
    """How to bring a side to ``need`` figures: choose who fights, or add more to the roster."""
    if len(names) > need:
        example = ", ".join([*names[:2], "…"])
        return f'Choose who fights: /game start figures:"{example}" names {need} a side, separated by commas.'
    return f"Add {need - len(names)} with /roster add, or name {need} a side with /game start figures:."


def make_engine(house_rules: Mapping[str, Any] | None = None) -> SsgEngine:
    """The SSG engine with a campaign's house rules laid over ``tables.yaml``."""
    return SsgEngine(load_tables("rules.ssg", SsgTables, house_rules))
