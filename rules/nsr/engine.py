"""Napoleonic Skirmish Rules 1.9 as a pure engine (RULES-NOTES.md section 3).

Basic units act one at a time as cards are turned: black for the French, red for the Allies; the
side's player chooses which unit (a Decision), then gives its order (/nsr move, /nsr fire…).
Geometry is an input: players report ranges, target classes, cover and who stands uphill.
The work is split by job: ``deck`` (cards), ``sequence`` (phases, activations, victory),
``movement``, ``fire``, ``close_combat``, ``morale``, ``towns``, ``forces`` (roster → units),
``campaign`` (units → roster, between battles), ``charts`` and ``lookup`` (the tables), ``hits``
(casualties), ``state`` (the saved data), ``options`` (what each order takes), ``orders`` (the
handlers), ``specs`` (the actions declared, with their candidates), ``board`` (what /game status
shows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.battlefield import FieldState, FieldView, MapData
from rules.battlefield.mapplay import PLACING, MapPlay
from rules.battlefield.reach import with_reach
from rules.contract import decision_of
from rules.core import (
    Action,
    Aftermath,
    Board,
    Context,
    Counted,
    DataError,
    Decision,
    DiceSource,
    Engine,
    Event,
    FigureSpec,
    LowestFaces,
    Outcome,
    RuleError,
    bounded,
)
from rules.nsr import campaign, close_combat, fire_odds, onmap, sequence
from rules.nsr.board import board
from rules.nsr.charts import NsrTables, table_problems
from rules.nsr.deck import FULL_DECK, fresh_deck, label
from rules.nsr.forces import Forces
from rules.nsr.hits import OUTCOME_WORDS, odds_label, status_after
from rules.nsr.lookup import Charts
from rules.nsr.options import FireOptions, VolleyOptions
from rules.nsr.orders import Ctx
from rules.nsr.specs import SPECS
from rules.nsr.state import NsrState, unit_named, waiting_card
from rules.specs import Role
from rules.tables import load_tables
from rules.words import possessive, unique_names

SLUG = "nsr"
TITLE = "Napoleonic Skirmish Rules"


#: What may be typed in each phase: the orders of that phase (hold in both), melee in close combat.
PHASE_ORDERS: dict[str, tuple[str, ...]] = {
    "deployment": PLACING,
    "movement": ("move", "charge", "form", "occupy", "work", "hold"),
    "fire": ("fire", "volley", "pistol", "bombard", "hold"),
    "close_combat": ("melee",),
}


class NsrEngine(Engine[NsrState]):
    slug = SLUG
    title = TITLE
    short_name = "NSR"
    action_word = "order"
    battle_word = "battle"
    command_blurb = "Napoleonic Skirmish Rules: orders for your units"
    specs = SPECS
    context_type = Ctx
    state_type = NsrState
    #: Orders and charges: their handlers check the side of the unit acting.
    open_actions = tuple(name for name, spec in SPECS.items() if spec.role is not Role.ANSWER)
    #: A roster entry is a unit (its figures are a count in its stats): "6 units", not "6 figures".
    roster_entry = "unit"
    #: Describing a building belongs to no one's turn: allowed while a card's choice waits.
    free_actions = ("building",)

    tables: NsrTables

    def __init__(self, tables: NsrTables) -> None:
        problems = table_problems(tables)
        if problems:
            raise DataError(problems)
        self.tables = tables
        self.charts = Charts(tables)
        self.forces = Forces(tables)
        #: Played on the bot's map (rules/nsr/maps, rules/nsr/onmap.py), or at a table with battlefield:table.
        self.map_play = MapPlay(
            "rules.nsr",
            tables.sides,
            tables.terrain,
            unplaced=lambda state: [u.name for u in onmap.waiting_to_place(state)],
            deploying=lambda state: state.phase == "deployment",
            pieces=lambda state: "unit",
            pass_action=self.pass_action,
            also_while_deploying=self.free_actions,
            #: A-NSR-40: the end of a movement phase and of a close combat phase (charges, fall-backs, routs).
            stretch_ended=lambda before, events: (
                before.phase in ("movement", "close_combat")
                and any(e.kind == "phase" and e.data.get("phase") != before.phase for e in events)
            ),
        )

    # --- protocol: roster and setup

    def sides(self) -> Sequence[str]:
        return list(self.tables.sides)

    def kinds(self) -> Sequence[str]:
        return list(self.tables.troop_types)

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        return self.forces.check(spec)

    def recruit(self, spec: FigureSpec, dice: DiceSource) -> Outcome[FigureSpec]:
        """NSR rolls nothing for a unit: its make-up is written out in full for the roster."""
        return Outcome(self.forces.check(spec, fill=True), [])

    def start(self, figures: Sequence[FigureSpec], dice: DiceSource) -> Outcome[NsrState]:
        state, events = self._set_up(figures)
        sequence.start_phase(self.charts, state, "movement", bounded(dice), events)
        return Outcome(state, events, self.pending(state))

    def start_on_map(self, figures: Sequence[FigureSpec], dice: DiceSource, field: MapData) -> Outcome[NsrState]:
        """As :meth:`start`, but the units are set out on ``field`` (/map place, /map deploy)
        before the first card is turned: nothing is rolled or drawn until then."""
        state, events = self._set_up(figures)
        state.field = FieldState(field)
        state.phase = "deployment"
        text = (
            f"The battle is fought on {field.name}. Each side places its units in its deployment zone "
            "(/map place, or /map deploy for all of them); then turn 1's movement phase begins."
        )
        events.append(Event("setup", text, {"map": field.name}))
        return Outcome(state, events)

    def field_view(self, state: NsrState, focus: str | None = None) -> FieldView | None:
        """Every unit on the map as its block of figures (A-NSR-40); None on a table."""
        if state.field is None:
            return None
        return with_reach(onmap.field_view(self.tables, state, focus), self, state, key="unit")

    def _set_up(self, figures: Sequence[FigureSpec]) -> tuple[NsrState, list[Event]]:
        specs = [self.check_figure(spec) for spec in figures]
        unique_names((spec.name for spec in specs), "unit")
        for side in self.tables.sides:
            if not any(s.side == side for s in specs):
                raise RuleError(f"{side} has no unit: each side needs at least one.")
        units = [self.forces.unit(spec) for spec in specs]
        state = NsrState(sides=list(self.tables.sides), turn=1, phase="movement", units=units, deck=fresh_deck())
        state.commanders = self.forces.commanders(specs, units)
        return state, [Event("setup", self._setup_text(state), {"units": len(units)})]

    def _setup_text(self, state: NsrState) -> str:
        parts = []
        for side in state.sides:
            units = [u for u in state.units if u.side == side]
            figures = sum(u.original for u in units)
            commander = state.commanders.get(side)
            chief = f", Commander-in-Chief with {commander.unit}" if commander else ""
            parts.append(f"{side}: {len(units)} units, {figures} figures{chief}")
        black, red = state.sides
        return f"{'; '.join(parts)}. Black cards move {black} units, red cards {red} units."

    # --- protocol: play

    def context(self, state: NsrState, side: str | None, action: Action, dice: DiceSource) -> Context[NsrState, Any]:
        return Ctx(self.charts, state, dice, side, action.by_gm)

    def settle(self, ctx: Context[NsrState, Any]) -> None:
        """A side with no unit left in the fight has lost, whatever the action."""
        sequence.check_victory(ctx.state, ctx.events)

    def over_sentence(self, state: NsrState) -> str:
        return f"The battle is over: {state.winner} won." if state.winner else "The battle is over: a draw."

    def waiting_sentence(self, state: NsrState, waiting: Decision) -> str:
        card = waiting_card(state.pending) if state.pending is not None else ""
        return f"Waiting for {waiting.decider} to choose a unit for {label(card)}."

    def nothing_waiting_sentence(self) -> str:
        return "No card is waiting for a choice."

    def whose_turn(self, state: NsrState) -> str | None:
        if state.over:
            return None
        if state.phase == "deployment":
            unplaced = onmap.waiting_to_place(state)
            return unplaced[0].side if unplaced else None
        if state.pending is not None:
            return state.pending.decider
        if state.active:
            return unit_named(state, state.active).side
        if state.phase == "close_combat":
            waiting = close_combat.pending_charges(state)
            return unit_named(state, waiting[0].charger).side if waiting else None
        return None

    def actions_now(self, state: NsrState, side: str) -> Sequence[str]:
        """The orders of the phase (orders.py's phase of each), placing while deploying."""
        return PHASE_ORDERS.get(state.phase, ())

    def winner(self, state: NsrState) -> str | None:
        return state.winner

    def finished(self, state: NsrState) -> bool:
        return state.over

    def pending(self, state: NsrState) -> Decision | None:
        """The card a restored state waits on a choice for (the shell reopens it after /game undo)."""
        return decision_of(state.pending) if state.pending else None

    def odds_walkable(self, action: str) -> bool:
        """Only an officer's pistol: every other order turns cards (the next card: 54 ways)."""
        return action == "pistol"

    def odds_counted(self, state: NsrState, action: Action) -> Counted | None:
        """Fire and volleys: their casualty cards counted over the deck (rules/nsr/fire_odds.py)
        when the phase goes on after them, so nothing else of the order is left to chance."""
        if action.name not in ("fire", "volley"):
            return None
        self.act(state, action, LowestFaces())  # refused as the order would be
        unit = unit_named(state, state.active)
        options = self.specs[action.name].read(action.params)
        assert isinstance(options, (FireOptions, VolleyOptions))
        return fire_odds.counted(self.charts, state, unit, options)

    casualty_kinds = ("hit", "fight")

    def odds_casualties(self, events: Sequence[Event]) -> int:
        """Every figure a hit or a lost fight killed, wounded or had taken prisoner."""
        lost = 0
        for e in events:
            if (e.kind == "hit" and e.data.get("figure")) or e.kind == "fight":
                lost += e.data.get("outcome") in OUTCOME_WORDS  # a casualty; a man who ran is none
        return lost

    def losses(self, state: NsrState) -> dict[str, int]:
        """The figures of each side's units killed, wounded or taken (a lightly wounded man back
        in the ranks, or one who ran, is no loss)."""
        lost: dict[str, int] = {}
        for unit in state.units:
            fallen = sum(1 for f in unit.figures if f.status in ("wounded", "killed", "captured"))
            if fallen:
                lost[unit.side] = lost.get(unit.side, 0) + fallen
        return lost

    def odds_outcome(self, events: Sequence[Event]) -> str:
        """An action's result for /odds: the figures each unit lost, what became of the units, and
        how far a unit moving on dice may go."""
        lost: dict[str, dict[str, int]] = {}
        marks: list[str] = []
        for e in events:
            data = e.data
            if e.kind == "hit" and data.get("figure"):
                outcome = status_after(data["outcome"])
                per = lost.setdefault(str(data["unit"]), {})
                per[outcome] = per.get(outcome, 0) + 1
            elif e.kind == "fight":
                per = lost.setdefault(str(data["loser_unit"]), {})
                per[data["outcome"]] = per.get(data["outcome"], 0) + 1
            elif e.kind in ("charge", "melee") and (mark := _charge_mark(data)):
                marks.append(mark)
            elif e.kind in ("shaken", "close-in", "stand", "morale"):
                unit = data.get("unit")
                if e.kind == "shaken" or (e.kind == "close-in" and not data.get("closes")):
                    marks.append(f"{unit} {'shaken' if e.kind == 'shaken' else 'pinned'}")
                elif e.kind == "morale" and data.get("check") == "critical" and not data.get("passed"):
                    marks.append(f"{unit} routed")
        moves = [
            f"{e.data['unit']} moves up to {e.data['inches']}″"
            for e in events
            if e.kind == "move" and e.data.get("inches", 0) > 0
        ]
        return odds_label(lost, marks, moves)

    # --- between battles

    def aftermath(
        self,
        state: NsrState,
        specs: Sequence[FigureSpec],
        dice: DiceSource,
        options: Mapping[str, Any],
        *,
        battle: int | None = None,
    ) -> Outcome[list[Aftermath]]:
        """What each unit carries into its roster (rules/nsr/campaign.py): the figures it lost come
        off its stats. Nothing is rolled; the readings are ``campaign:`` in tables.yaml (house rules
        may change them), so the campaign's settings are not needed."""
        return Outcome(campaign.aftermath(self.tables, self.forces, state, specs), [])

    # --- display and storage

    def board(self, state: NsrState) -> Board:
        return board(state, self.whose_turn(state))

    def load_state(self, data: Mapping[str, Any]) -> NsrState:
        """A saved state, checked; one saved while the card's choice kept its card and phase beside
        it (before it was a :class:`~rules.contract.Waiting`) is read with the card in its params."""
        pending = data.get("pending")
        if isinstance(pending, Mapping) and "card" in pending:
            kept = {key: value for key, value in pending.items() if key not in ("card", "phase")}
            data = {**data, "pending": {**kept, "params": {"card": pending["card"]}}}
        return super().load_state(data)

    def state_problems(self, state: NsrState) -> list[str]:
        problems: list[str] = []
        if len(state.sides) != 2:
            problems.append(f"sides: need two sides, got {state.sides!r}")
        names = {u.name for u in state.units}
        for i, unit in enumerate(state.units):
            if unit.side not in state.sides:
                problems.append(f"units[{i}].side: {unit.side!r} is not one of the sides")
            if unit.troop not in self.tables.troop_types:
                problems.append(f"units[{i}].troop: {unit.troop!r} is not a troop type")
        for key in ("deck", "discards"):
            bad = [c for c in getattr(state, key) if c not in FULL_DECK]
            if bad:
                problems.append(f"{key}: {bad[0]!r} is not a card")
        if state.active and state.active not in names:
            problems.append(f"active: {state.active!r} is not a unit in this game")
        for i, ch in enumerate(state.charges):
            if ch.charger not in names or ch.target not in names:
                problems.append(f"charges[{i}]: {ch.charger!r} → {ch.target!r} are not units in this game")
        if state.pending is not None and (
            state.pending.decider not in state.sides or waiting_card(state.pending) not in FULL_DECK
        ):
            card = waiting_card(state.pending)
            problems.append(f"pending: {state.pending.decider!r} on {card!r} is not a side and a card")
        if state.winner is not None and state.winner not in state.sides:
            problems.append(f"winner: {state.winner!r} is not one of the sides")
        if state.field is not None:
            for key in ("positions", "facing"):
                problems += [
                    f"field.{key}: {n!r} is not a unit in this game"
                    for n in getattr(state.field, key)
                    if n not in names
                ]
        elif state.phase == "deployment":
            problems.append("phase: deployment needs a map")
        if state.field is not None:  # A-NSR-42: a unit inside stands in a building the state records
            recorded = {b.name for b in state.buildings}
            problems += [
                f"units[{i}].building: {u.building!r} is not a building of this battle"
                for i, u in enumerate(state.units)
                if u.building and u.building not in recorded
            ]
        return problems


#: Tables keyed by a die result: house rules that went through JSON have the keys as text.
DIE_KEYED = ("joker_movement", "joker_fire", "close_combat_loser", "artillery_equivalent")


def _die_keys(house_rules: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not house_rules:
        return None
    out = dict(house_rules)
    for key in DIE_KEYED:
        table = out.get(key)
        if isinstance(table, Mapping):
            out[key] = {int(k) if isinstance(k, str) and k.strip().isdigit() else k: v for k, v in table.items()}
    return out


def make_engine(house_rules: Mapping[str, Any] | None = None) -> NsrEngine:
    """The NSR engine with a campaign's house rules laid over ``tables.yaml``."""
    return NsrEngine(load_tables("rules.nsr", NsrTables, _die_keys(house_rules)))


def _charge_mark(data: Mapping[str, Any]) -> str:
    """What became of a charge, for /odds: it reached its 2 inch stop or fell short (the movement
    phase), came to nothing, took the position, or whose close combat it was (the close combat phase)."""
    unit, target = data.get("unit"), data.get("target")
    if "winner" in data:
        return f"{data['winner']} wins the close combat"
    if data.get("result") == "occupied":
        return f"{unit} occupies {possessive(str(target))} position"
    if data.get("result") == "abandoned":
        return f"{possessive(str(unit))} charge comes to nothing"
    if "reached" in data:
        return f"{possessive(str(unit))} charge {'reaches' if data['reached'] else 'falls short of'} {target}"
    return ""
