"""The medieval skirmish system as a pure engine (RULES-NOTES.md section 5, resolutions A-MED-n).

A D6 roll-off whose winner chooses to go first or second (a Decision); then the sides take turns,
and in a turn the player activates figures one at a time, doing everything with one (move part,
shoot, move on, fight, break off) before the next. At a table, geometry is an input: players report
distances, contact, cover and height. On the bot's map (``start_on_map``) the figures are placed
first, then the roll-off; the engine measures moves, range, sight, cover, contact and height
(:mod:`rules.medieval.onmap`). Either way it tracks health, kit, contact, prone and moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.battlefield import FieldState, FieldView, MapData
from rules.battlefield.mapplay import PLACING, MapPlay
from rules.battlefield.reach import with_reach
from rules.contract import decision_of
from rules.core import (
    Aftermath,
    Board,
    DataError,
    Decision,
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
from rules.medieval import onmap
from rules.medieval.actions import Ctx
from rules.medieval.combat import roll_off
from rules.medieval.data import MedievalTables, fold, table_problems
from rules.medieval.kit import check_kit, kind_names, kit_lists, match_kind
from rules.medieval.specs import SPECS
from rules.medieval.state import (
    HEALTH_LABELS,
    MedFigure,
    MedState,
    effective,
    enemies_in_contact,
    in_action,
    kit_text,
    penalties,
    state_problems,
)
from rules.tables import load_tables
from rules.words import inches, match_name, measured, unique_names

SLUG = "medieval"
TITLE = "Medieval Skirmish (knights, men at arms and Vikings)"


class MedievalEngine(Engine[MedState]):
    slug = SLUG
    title = TITLE
    command_blurb = "Medieval skirmish: knights, men at arms and Vikings"
    specs = SPECS
    context_type = Ctx
    state_type = MedState
    #: Placing the figures on the map: each side its own, the game master any (the handler checks).
    open_actions = PLACING

    tables: MedievalTables

    def __init__(self, tables: MedievalTables) -> None:
        problems = table_problems(tables)
        if problems:
            raise DataError(problems)
        self.tables = tables
        self.map_play = MapPlay(
            "rules.medieval",
            tables.sides,
            tables.terrain,
            unplaced=onmap.unplaced,
            deploying=lambda state: state.phase == "deployment",
            pass_action=self.pass_action,
            #: A side's turn ended (figures move one at a time in it, with no movement phase).
            stretch_ended=lambda before, events: before.phase == "play" and any(e.kind == "phase" for e in events),
        )

    # --- protocol: roster and setup

    def sides(self) -> Sequence[str]:
        return list(self.tables.sides)

    def kinds(self) -> Sequence[str]:
        return kind_names(self.tables)

    def check_figure(self, spec: FigureSpec) -> FigureSpec:
        name = " ".join(str(spec.name).split())
        if not name:
            raise RuleError("A figure needs a name.")
        side = self._side(spec.side)
        kind = match_kind(self.tables, name, spec.kind)
        stats = check_kit(self.tables, FigureSpec(name, side, kind, spec.stats), kind)
        return FigureSpec(name=name, side=side, kind=kind, stats=stats)

    def recruit(self, spec: FigureSpec, dice: DiceSource) -> Outcome[FigureSpec]:
        """The rules roll no stats: a figure is its profile (or the player's own) and its kit."""
        checked = self.check_figure(spec)
        fig = self._figure_of(checked)
        text = f"{fig.name}: {fig.kind} — {self._profile_text(fig)}."
        return Outcome(checked, [Event("recruit", text, {"figure": fig.name, "kind": fig.kind})])

    def profile(self, spec: FigureSpec) -> str | None:
        """A Knight's or a Viking's numbers come from its kind's profile, not its stored stats; None
        for an entry today's house rules no longer accept (its stats then say what it was)."""
        try:
            return self._profile_text(self._figure_of(self.check_figure(spec)))
        except RuleError:
            return None

    def _profile_text(self, fig: MedFigure) -> str:
        return (
            f"speed {inches(fig.speed)}, Bravery {fig.bravery}, shoot {fig.shoot}, fight {fig.fight}, "
            f"health {fig.health}; {kit_text(self.tables, fig)}"
        )

    def about(self) -> Sequence[tuple[str, str]]:
        scale = self.tables.ground_scales[self.tables.ground_scale]
        return [("Ground scale", f"{scale.label}: {scale.rule}")]

    def _side(self, wanted: Any) -> str:
        side = match_name(self.tables.sides, wanted, key=fold)
        if side is not None:
            return side
        raise RuleError(f"There is no side called {short(str(wanted))} here: use {' or '.join(self.tables.sides)}.")

    def _figure_of(self, spec: FigureSpec) -> MedFigure:
        t = self.tables
        stats = dict(spec.stats)
        base = {s: stats[s] for s in ("speed", "bravery", "shoot", "fight") if s in stats}
        if spec.kind in t.profiles:
            p = t.profiles[spec.kind]
            base = {"speed": p.speed, "bravery": p.bravery, "shoot": p.shoot, "fight": p.fight}
        lasting = stats.get("health") == "light"
        return MedFigure(
            name=spec.name,
            side=spec.side,
            kind=spec.kind,
            **base,
            weapons=kit_lists(stats.get("weapons")),
            armour=kit_lists(stats.get("armour")),
            health="light" if lasting else "full",
            healed_from_serious=lasting,
        )

    def aftermath(
        self,
        state: MedState,
        specs: Sequence[FigureSpec],
        dice: DiceSource,
        options: Mapping[str, Any],
        *,
        battle: int | None = None,
    ) -> Outcome[list[Aftermath]]:
        """Between battles: the killed are dead; a serious wound heals to light and no further
        (A-MED-15); a light wound heals fully; the collapsed recover."""
        kept = {spec.name: dict(spec.stats) for spec in specs}
        results = []
        for fig in state.figures:
            stats = kept.get(fig.name, {})
            stats.pop("health", None)
            if fig.health == "killed":
                results.append(Aftermath(fig.name, fig.side, "dead", "killed in battle"))
                continue
            if fig.health == "serious" or (fig.health == "light" and fig.healed_from_serious):
                results.append(
                    Aftermath(
                        fig.name,
                        fig.side,
                        "active",
                        "a serious wound, healed only to light",
                        stats={**stats, "health": "light"},
                    )
                )
            else:
                note = {"full": "unhurt", "light": "a light wound, healed"}.get(fig.health, f"{fig.health}, recovered")
                results.append(Aftermath(fig.name, fig.side, "active", note, stats=stats))
        return Outcome(results, [])

    def start(self, figures: Sequence[FigureSpec], dice: DiceSource) -> Outcome[MedState]:
        checked = [self.check_figure(spec) for spec in figures]
        self._check_roster(checked)
        state = MedState(
            sides=list(self.tables.sides), phase="order", turn=1, figures=[self._figure_of(s) for s in checked]
        )
        events = roll_off(self.tables, state, bounded(dice))
        chooser = state.pending.decider if state.pending else state.sides[0]
        text = f"{self._scale_text()}. Set up the figures; {chooser} chooses to go first or second."
        events.append(Event("setup", text, {"ground_scale": self.tables.ground_scale}))
        return Outcome(state, events, decision_of(state.pending) if state.pending else None)

    def start_on_map(self, figures: Sequence[FigureSpec], dice: DiceSource, field: MapData) -> Outcome[MedState]:
        """A battle on the bot's map: the figures are placed first (``place``, ``deploy``), then the
        roll-off is rolled with the action that places the last of them, and its winner, having
        seen both sides set out, chooses to go first or second (A-MED-20)."""
        checked = [self.check_figure(spec) for spec in figures]
        self._check_roster(checked)
        state = MedState(
            sides=list(self.tables.sides),
            phase="deployment",
            turn=1,
            figures=[self._figure_of(s) for s in checked],
            field=FieldState(field),
        )
        text = (
            f"{self._scale_text()}; bases {inches(onmap.radius(self.tables) * 2)} across. The battle is fought "
            f"on {field.name} ({field.width:g}″ by {field.height:g}″): place your figures in your deployment "
            "zone (/map place figure: at:, or /map deploy). When all are placed, the roll-off's winner "
            "chooses to go first or second."
        )
        data = {"ground_scale": self.tables.ground_scale, "map": field.name}
        return Outcome(state, [Event("setup", text, data)])

    def _scale_text(self) -> str:
        scale = self.tables.ground_scales[self.tables.ground_scale]
        return f"Ground scale for {scale.label}: {scale.rule}"

    def _check_roster(self, figures: Sequence[FigureSpec]) -> None:
        need = self.tables.min_figures_per_side
        for side in self.tables.sides:
            count = sum(1 for f in figures if f.side == side)
            if count < need:
                raise RuleError(f"Each side needs at least {need} figure{'s' if need > 1 else ''}: {side} has {count}.")
        unique_names(f.name for f in figures)

    # --- protocol: play

    def pending(self, state: MedState) -> Decision | None:
        """The roll-off winner's choice, while the state waits for it."""
        return decision_of(state.pending) if state.pending else None

    def ready(self, state: MedState, side: str) -> list[str]:
        """``side``'s figures in action not yet activated this turn, and the one acting now."""
        if state.phase != "play" or state.pending is not None or side != state.active:
            return []
        return [
            f.name
            for f in state.figures
            if f.side == side and in_action(f) and (not f.activated or state.current == f.name)
        ]

    def whose_turn(self, state: MedState) -> str | None:
        if state.phase == "deployment":
            waiting = onmap.unplaced(state)
            return next((f.side for f in state.figures if f.name in waiting), None)
        if state.phase == "over":
            return None
        if state.pending is not None:
            return state.pending.decider
        return state.active

    def winner(self, state: MedState) -> str | None:
        return state.winner

    def finished(self, state: MedState) -> bool:
        return state.phase == "over"

    def field_view(self, state: MedState, focus: str | None = None) -> FieldView | None:
        """The map with every placed figure (marked wounded, down or out) and ``focus``'s reach."""
        if state.field is None:
            return None
        return with_reach(onmap.field_view(self.tables, state, focus), self, state)

    # --- display and storage

    def board(self, state: MedState) -> Board:
        over = state.phase == "over"
        if over:
            headline = f"Game over: {state.winner} won"
        elif state.phase == "deployment":
            waiting = onmap.unplaced(state)
            headline = (
                f"Placing the figures on the map: {len(state.figures) - len(waiting)} of {len(state.figures)} placed"
            )
        elif state.pending is not None:
            headline = f"Waiting for {state.pending.decider} to choose who goes first"
        else:
            doing = f" · activating {state.current}" if state.current else ""
            headline = f"Turn {state.turn} · {state.active}'s turn{doing}"
        out = " · ".join(
            f"{side} {sum(1 for f in state.figures if f.side == side and not in_action(f))}/"
            f"{sum(1 for f in state.figures if f.side == side)}"
            for side in state.sides
        )
        facts = [
            ("Turn", str(state.turn)),
            ("Active", "—" if over or state.active is None else state.active),
            ("First", state.first or "—"),
            ("Activating", state.current or "—"),
            ("Out of action", out),
            ("In hand-to-hand", "; ".join(f"{a} – {b}" for a, b in state.contacts) or "none"),
            ("On the ground", "; ".join(f"{g.item} (near {g.near})" for g in state.ground) or "nothing"),
        ]
        if state.field is not None:
            facts.append(("Map", f"{state.field.map.name} ({state.field.map.width:g}″ by {state.field.map.height:g}″)"))
            if state.phase == "deployment":
                facts.append(("To place", ", ".join(onmap.unplaced(state)) or "nobody"))
        if over:
            facts.append(("Winner", str(state.winner)))
        lines = tuple(FigureLine(f.name, f.side, self._status(state, f), out=not in_action(f)) for f in state.figures)
        return Board(headline=headline, facts=tuple(facts), figures=lines, finished=over)

    def _status(self, state: MedState, fig: MedFigure) -> str:
        t = self.tables
        health = HEALTH_LABELS[fig.health]
        if not in_action(fig):
            by = f" by {fig.out_by}" if fig.out_by else ""
            return f"{fig.kind} · {health}{by} · {kit_text(t, fig)}"
        parts = [fig.kind, f"{health}: {penalties(t, fig)}" if fig.health != "full" else health, kit_text(t, fig)]
        if state.field is not None:
            xy = state.field.positions.get(fig.name)
            parts.append("not placed yet" if xy is None else f"at {xy[0]:.1f},{xy[1]:.1f}")
        if fig.prone:
            parts.append("prone")
        enemies = enemies_in_contact(state, fig)
        if enemies:
            parts.append("fighting " + ", ".join(enemies))
        if state.phase == "play" and fig.side == state.active:
            speed = effective(t, fig)["speed"]
            if fig.moved or fig.activated:
                held = " (held in combat)" if fig.stuck else ""
                parts.append(f"moved {self._distance(state, fig.moved)} of {inches(speed)}{held}")
            if state.current == fig.name:
                parts.append("activated now")
            elif fig.activated:
                parts.append("done this turn")
        elif state.phase == "play" and fig.moved:
            parts.append(f"moved {self._distance(state, fig.moved)} last turn")
        return " · ".join(parts)

    @staticmethod
    def _distance(state: MedState, value: float) -> str:
        """A distance moved: as typed at a table, to a tenth of an inch when the bot measured it."""
        return inches(value) if state.field is None else measured(value)

    def state_problems(self, state: MedState) -> list[str]:
        return state_problems(self.tables, state)


def make_engine(house_rules: Mapping[str, Any] | None = None) -> MedievalEngine:
    """The medieval engine with a campaign's house rules laid over ``tables.yaml``."""
    return MedievalEngine(load_tables("rules.medieval", MedievalTables, house_rules))
