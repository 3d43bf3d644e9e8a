"""Sharpe's Skirmish 40mm (Durham's Chosen Men) as a pure engine (RULES-NOTES.md section 2).

Characters act one at a time in the order of movement; each turn is a few actions (move, shoot,
attack, check…) ended by ``done``. A defender's choice is a :class:`Decision` for his side, kept in
the state as ``pending`` until answered. Geometry is an input: players report ranges, sides, cover.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, Literal

import rules.core as core
from rules.battlefield import FieldState, FieldView, MapData
from rules.battlefield.mapplay import PLACING, MapPlay
from rules.battlefield.reach import with_reach
from rules.contract import decision_of
from rules.core import (
    Action,
    Board,
    CasualtyPayload,
    DataError,
    Decision,
    DiceSource,
    Engine,
    Event,
    FigureSpec,
    Outcome,
    RuleError,
    WoundPayload,
    bounded,
    find_figure,
    payload_of,
)
from rules.sharpe import guns_onmap, movement, onmap, shooting, targets
from rules.sharpe.board import board
from rules.sharpe.bound import advance, cannot_act, check_victory
from rules.sharpe.campaign import Aftermath, after_battle
from rules.sharpe.common import Ctx
from rules.sharpe.decisions import figure_of, is_saved_pending, waiting_of_saved, waiting_problems
from rules.sharpe.gunbase import gun_named, side_of
from rules.sharpe.horsebase import is_horse
from rules.sharpe.order import roll_order
from rules.sharpe.profile import Roster
from rules.sharpe.schema import SharpeTables, table_problems
from rules.sharpe.specs import SPECS
from rules.sharpe.state import Gun, SharpeState
from rules.tables import load_tables
from rules.words import inches, unique_names

SLUG = "sharpe"
TITLE = "Sharpe's Skirmish"


class SharpeEngine(Engine[SharpeState]):
    slug = SLUG
    title = TITLE
    short_name = "Sharpe"
    command_blurb = "Sharpe's Skirmish: your character's turn"
    specs = SPECS
    context_type = Ctx
    state_type = SharpeState
    #: Whose these are, their handlers decide (not only the side whose character is active); anyone
    #: may ask whom a man should shoot.
    open_actions = ("weather", "concede", *PLACING, "targets")
    #: A side may concede, and anyone ask whom to shoot, while a defender's choice waits.
    allowed_while_waiting = ("concede", "targets")
    #: Whom a man should shoot first (A-SHARPE-50): answered to the asker alone, never logged.
    questions = ("targets",)

    tables: SharpeTables

    def __init__(self, tables: SharpeTables) -> None:
        problems = table_problems(tables)
        if problems:
            raise DataError(problems)
        self.tables = tables
        self.roster = Roster(tables)
        #: Played on the bot's map (rules/sharpe/maps), or at a table with battlefield:table.
        self.map_play = MapPlay(
            "rules.sharpe",
            tables.sides,
            tables.terrain,
            unplaced=onmap.unplaced,
            deploying=onmap.deploying,
            pieces=lambda state: "character and gun" if state.guns else "character",
            pass_action=self.pass_action,
            also_while_deploying=("weather", "concede"),
            #: One picture a bound, not one for each man's turn in it (they act one at a time).
            stretch_ended=lambda before, events: any(e.kind == "bound" for e in events),
        )

    # --- protocol: roster and setup

    def about(self) -> Sequence[tuple[str, str]]:
        priority = self.tables.hints.target_priority
        return [("Target priority", priority)] if priority else []

    def sides(self) -> Sequence[str]:
        return list(self.tables.sides)

    def kinds(self) -> Sequence[str]:
        return list(self.tables.kinds)

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        return self.roster.check(spec)

    def recruit(self, spec: FigureSpec, dice: DiceSource) -> Outcome[FigureSpec]:
        """Roll I, D, S, C (1D6 each) and F by kind, for what was not given; the roster keeps them."""
        checked = self.roster.check(spec)
        complete, events = self.roster.complete(checked, dice)
        return Outcome(complete, events)

    def start(self, figures: Sequence[FigureSpec], dice: DiceSource) -> Outcome[SharpeState]:
        checked = [self.roster.check(spec) for spec in figures]
        self._check_roster(checked)
        state = SharpeState(
            bound=1, order=[], characters=[], weather=self.tables.scenario.weather, night=self.tables.scenario.night
        )
        dice = bounded(dice)
        ctx = Ctx(self.tables, state, dice)
        for spec in checked:
            complete, events = self.roster.complete(spec, dice)
            ctx.events.extend(events)
            self._enlist(state, complete)
        state.order = roll_order(ctx, state.characters, heading="Order of movement")
        advance(ctx)
        return Outcome(state, ctx.events)

    def _enlist(self, state: SharpeState, complete: FigureSpec) -> None:
        """A character joins the battle; an artillery piece joins as a gun (19), when artillery is used."""
        kind = self.tables.kinds[complete.kind]
        if not kind.piece:
            state.characters.append(self.roster.character(complete))
        elif self.tables.options.artillery:
            weapon = next(w for w in kind.weapons if self.tables.weapons[w].piece)
            state.guns.append(Gun(complete.name, complete.side, complete.stats["F"], weapon=weapon))

    def start_on_map(self, figures: Sequence[FigureSpec], dice: DiceSource, field: MapData) -> Outcome[SharpeState]:
        """A battle on the bot's map (A-SHARPE-32): the characters and guns (A-SHARPE-47) are placed
        first (``place``, ``deploy``), each facing the enemy's zone; the order of movement is rolled
        with the action that places the last of them."""
        checked = [self.roster.check(spec) for spec in figures]
        self._check_roster(checked)
        state = SharpeState(
            bound=1,
            order=[],
            characters=[],
            weather=self.tables.scenario.weather,
            night=self.tables.scenario.night,
            field=FieldState(field),
        )
        dice = bounded(dice)
        ctx = Ctx(self.tables, state, dice)
        for spec in checked:
            complete, events = self.roster.complete(spec, dice)
            ctx.events.extend(events)
            self._enlist(state, complete)
        guns = f", a gun's {inches(self.tables.map.gun_base_radius * 2)}" if state.guns else ""
        text = (
            f"The battle is fought on {field.name} ({field.width:g}″ by {field.height:g}″); bases "
            f"{inches(self.tables.map.base_radius * 2)} across{guns}. Place your characters in your deployment zone "
            "(/map place figure: at:, or /map deploy); each faces the enemy. When all are placed, the order of "
            "movement is rolled."
        )
        ctx.say("setup", text, map=field.name)
        return Outcome(state, ctx.events)

    def _check_roster(self, figures: Sequence[FigureSpec]) -> None:
        for side in self.tables.sides:
            if not any(f.side == side and not self.tables.kinds[f.kind].piece for f in figures):
                raise RuleError(f"The {side} need at least one character to fight.")
        unique_names(f.name for f in figures)

    # --- protocol: play

    def over_sentence(self, state: SharpeState) -> str:
        won = f"the {state.winner} won" if state.winner else "it was a draw"
        return f"The game is over: {won}."

    def waiting_sentence(self, state: SharpeState, waiting: Decision) -> str:
        figure = figure_of(state.pending) if state.pending is not None else "a figure"
        return f"Waiting for the {waiting.decider} to choose for {figure}: answer with /decide."

    def turn_sentence(self, state: SharpeState, turn: str) -> str:
        active = next(c for c in state.characters if c.name == state.active)
        return f"It is {active.name}'s turn ({active.side}): characters act one at a time in the order."

    def pending(self, state: SharpeState) -> Decision | None:
        """The defender's choice a state waits for (asked again after /game undo)."""
        return None if state.pending is None else decision_of(state.pending)

    def settle(self, ctx: core.Context[SharpeState, Any]) -> None:
        """Victory at once; a character who can no longer act (wounded, halted) ends his turn."""
        assert isinstance(ctx, Ctx)
        state = ctx.state
        if check_victory(ctx) or state.pending is not None or state.active is None:
            return
        active = ctx.get(state.active)
        why = cannot_act(ctx, active)
        if why:
            state.acted.append(active.name)
            ctx.say("done", f"{active.name}'s turn ends: he is {why}.", figure=active.name)
            advance(ctx)
            comrade = state.active is not None and ctx.get(state.active).side == active.side
            state.ended_itself = active.name if comrade and state.pending is None else ""

    def context(
        self, state: SharpeState, side: str | None, action: Action, dice: DiceSource
    ) -> core.Context[SharpeState, Any]:
        ctx = super().context(state, side, action, dice)
        assert isinstance(ctx, Ctx)
        ctx.ended_itself, state.ended_itself = state.ended_itself, ""
        return ctx

    def whose_turn(self, state: SharpeState) -> str | None:
        if state.over:
            return None
        if onmap.deploying(state):
            return next((side_of(state, name) for name in onmap.unplaced(state)), None)
        if state.pending is not None:
            return state.pending.decider
        active = next((c for c in state.characters if c.name == state.active), None)
        return active.side if active else None

    def acting(self, state: SharpeState) -> str | None:
        """The man the order of movement gives the turn to (none while placing, or once it is over)."""
        return None if state.over or onmap.deploying(state) else state.active

    def winner(self, state: SharpeState) -> str | None:
        return state.winner

    def finished(self, state: SharpeState) -> bool:
        return state.over

    # --- display, storage, between games

    def field_view(self, state: SharpeState, focus: str | None = None) -> FieldView | None:
        """The map with every character placed, his facing and marks (wounded, down, out)."""
        if state.field is None:
            return None
        left = None
        if focus is not None:
            name = find_figure([c.name for c in state.characters] + [g.name for g in state.guns], focus)
            gun = gun_named(state, name)
            if gun is not None:
                return replace(
                    onmap.field_view(self.tables, state, None, None),
                    focus=guns_onmap.gun_focus(self.tables, state, gun),
                )
            ch = next(c for c in state.characters if c.name == name)
            focus, left = ch.name, movement.move_left(self.tables, state, ch)
            paces = [({"figure": ch.name, "pace": p}, most) for p, most in movement.paces_left(self.tables, state, ch)]
            return with_reach(onmap.field_view(self.tables, state, focus, left), self, state, paces)
        return onmap.field_view(self.tables, state, focus, left)

    def target_advice(self, state: SharpeState, shooter: str, weapon: str | None = None) -> targets.TargetAdvice:
        """Whom ``shooter`` (a man or a gun) should shoot first, measured on the map (A-SHARPE-50):
        a question that changes nothing and rolls no die."""
        return targets.advise(self.tables, state, shooter, weapon)

    def board(self, state: SharpeState) -> Board:
        return board(self.tables, state)

    def state_problems(self, state: SharpeState) -> list[str]:
        problems: list[str] = []
        names = [c.name for c in state.characters]
        if state.field is not None:
            problems += [
                f"field.positions: {name!r} is not a character or a gun in this game"
                for name in state.field.positions
                if name not in names and gun_named(state, name) is None and not is_horse(state, name)
            ]
        if onmap.deploying(state):
            if state.active is not None:
                problems.append("active: nobody acts while the characters are being placed")
        elif sorted(state.order) != sorted(names):
            problems.append("order: must list every character once")
        if state.active is not None and state.active not in names:
            problems.append(f"active: {state.active!r} is not a character in this game")
        for i, ch in enumerate(state.characters):
            if ch.side not in self.tables.sides:
                problems.append(f"characters[{i}].side: {ch.side!r} is not one of the sides")
            if ch.kind not in self.tables.kinds:
                problems.append(f"characters[{i}].kind: {ch.kind!r} is not one of the kinds")
            for weapon in ch.weapons:
                if weapon not in self.tables.weapons:
                    problems.append(f"characters[{i}].weapons: {weapon!r} is not one of the weapons")
        if state.winner is not None and state.winner not in self.tables.sides:
            problems.append(f"winner: {state.winner!r} is not one of the sides")
        return problems + waiting_problems(state, self.tables.sides)

    def load_state(self, data: Mapping[str, Any]) -> SharpeState:
        """A saved state, checked; a defender's choice saved before it was a
        :class:`~rules.contract.Waiting` (its values beside the attack or shot) is read as one."""
        saved = data.get("pending")
        if not is_saved_pending(saved):
            return super().load_state(data)
        assert isinstance(saved, Mapping)
        state = super().load_state({**data, "pending": None})
        state.pending = waiting_of_saved(self.tables, state, saved)
        problems = self.state_problems(state)
        if problems:
            raise DataError(problems)
        return state

    def odds_pair(self, reason: str) -> bool:
        """Every 2D6 (``Ctx.two_d6``) is read only by its sum."""
        return reason.endswith("(1 of 2)")

    def odds_faces(self, sides: int, reason: str) -> tuple[tuple[int, ...], ...] | None:
        return shooting.odds_faces(self.tables, reason) if sides == 6 else None

    def odds_outcome(self, events: Sequence[Event]) -> str:
        """One result of an action as /odds labels it (rules/odds.py): misses, parries, wounds, falls."""
        parts: list[str] = []
        for event in events:
            data = event.data
            if event.kind == "shot" and "targets" in data and not data.get("hit"):
                parts.append("misfire" if data.get("misfire") else "miss")
            elif event.kind == "melee" and data.get("result") in ("parried", "draw", "dodged"):
                parts.append(str(data["result"]))
            elif (wound := payload_of(event, WoundPayload)) is not None:
                parts.append(f"{wound.figure}: {wound.outcome or 'wounded'}")
            elif (casualty := payload_of(event, CasualtyPayload)) is not None:
                parts.append(f"{casualty.figure} out")
            elif event.kind in ("check", "task", "rise") and "ok" in data:
                parts.append(f"{data.get('figure') or data.get('object')}: {'succeeds' if data['ok'] else 'fails'}")
        return "; ".join(parts) or "no effect"

    def after_battle(self, state: SharpeState, dice: DiceSource) -> list[Aftermath]:
        """Between games: see :func:`rules.sharpe.campaign.after_battle`."""
        return after_battle(self.tables, state, dice)

    def aftermath(
        self,
        state: SharpeState,
        specs: Sequence[FigureSpec],
        dice: DiceSource,
        options: Mapping[str, Any],
        *,
        battle: int | None = None,
    ) -> Outcome[list[core.Aftermath]]:
        """Between games: a "Kill" rolls its fate (the campaign's ``kill_outcome``); everyone else's
        wounds heal."""
        fates = {a.name: a for a in self.after_battle(state, dice)}
        status: dict[str, Literal["dead", "resting", "active"]] = {
            "dead": "dead",
            "injured": "resting",
            "fit": "active",
        }
        results = []
        for ch in state.characters:
            fate = fates.get(ch.name)
            if fate is None:
                results.append(core.Aftermath(ch.name, ch.side, "active", "fought; wounds heal"))
            else:
                results.append(core.Aftermath(ch.name, ch.side, status[fate.fate], fate.text, games_out=fate.misses))
        return Outcome(
            results, [Event("aftermath", a.text, {"figure": a.name, "fate": a.fate}) for a in fates.values()]
        )


def make_engine(house_rules: Mapping[str, Any] | None = None) -> SharpeEngine:
    """The Sharpe engine with a campaign's house rules laid over ``tables.yaml``."""
    return SharpeEngine(load_tables("rules.sharpe", SharpeTables, house_rules))
