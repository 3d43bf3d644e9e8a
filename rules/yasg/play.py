"""The turn (RULES-NOTES.md 1.1, 1.3): morale, movement with initiative, simultaneous fire, close combat.

Morale and close combat are rolled for every figure at once by one ``next``; fire is one command
per firer, rolled at once, its damage kept until the fire phase ends (A-YASG-16).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import DiceSource, Event, RuleError, short
from rules.yasg.board import Field, adjacent, facing_towards, parse_path, side_towards, square_name
from rules.yasg.common import facing, figure, joined, own_figure, phase_event, plural, side_of
from rules.yasg.data import D6, D10, YasgTables
from rules.yasg.judge import Judge, Shot, field_of
from rules.yasg.state import PendingHit, YasgFigure, YasgState

PACES = ("walk", "run")
RESULT_WORDS = {"killed": "killed", "serious": "a serious wound", "minor": "a minor wound"}


class PlayActions:
    t: YasgTables
    judge: Judge

    # --- helpers

    @staticmethod
    def _require(state: YasgState, phase: str, doing: str) -> None:
        if state.phase != phase:
            raise RuleError(f"{doing} in the {phase} phase; it is the {state.phase} phase now.")

    def _field(self, state: YasgState) -> Field:
        return field_of(self.t, state)

    def whose_turn_of(self, state: YasgState) -> str | None:
        if state.phase == "over":
            return None
        if state.phase == "setup":
            waiting = [s for s in state.sides if any(f.side == s and f.square is None for f in state.figures)]
            return (waiting or state.sides)[0]
        if state.phase == "movement":
            return state.mover
        if state.phase in ("fire", "close combat"):
            order = state.initiative or state.sides
            return next((s for s in order if s not in state.done), order[0])
        return (state.initiative or state.sides)[0]

    # --- movement phase

    def _move(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require(state, "movement", "Figures move")
        fig = self._mover_figure(state, params.get("figure"), side, by_gm, "move")
        self._check_can_move(state, fig)
        field = self._field(state)
        path, cost, why = self._plan(state, field, fig, params.get("to"), params.get("pace"))
        pace = self._pace(fig, cost, why, params.get("pace"))
        turn_to = facing(params.get("facing")) or facing_towards(path[-2], path[-1])
        ran = pace == "run"
        events = [self._move_event(fig, path, cost, why, pace, turn_to)]
        fig.x, fig.y = path[-1]
        fig.facing = turn_to  # type: ignore[assignment]
        fig.moved, fig.ran = cost, ran
        if ran:
            events.append(self._fall_roll(state, fig, dice))
        if fig.leader:
            events.extend(self._rally(state, fig))
        return events

    def _mover_figure(self, state: YasgState, wanted: Any, side: str | None, by_gm: bool, doing: str) -> YasgFigure:
        fig = own_figure(state, wanted, side, by_gm, doing)
        if fig.side != state.mover:
            raise RuleError(f"{fig.name} fights for {fig.side}, but {state.mover} are moving now: wait for /yasg next.")
        return fig

    def _check_can_move(self, state: YasgState, fig: YasgFigure) -> None:
        if fig.moved:
            raise RuleError(f"{fig.name} has already moved this turn.")
        if fig.pinned:
            raise RuleError(
                f"{fig.name} is pinned: it may not move until its Leader comes next to it or it passes a morale test."
            )
        if fig.rallied:
            raise RuleError(f"{fig.name} was rallied by its Leader this phase: it may move again next turn.")
        if self.judge.fallen(fig, state.turn):
            raise RuleError(f"{fig.name} has fallen and spends this turn getting up.")
        if fig.weapon_state == "misfired" and fig.weapon_turn < state.turn:
            raise RuleError(f"{fig.name} is clearing its misfire this turn and may not move.")
        if fig.loading:
            raise RuleError(f"{fig.name} is loading this turn and may not move.")

    def _plan(
        self, state: YasgState, field: Field, fig: YasgFigure, to: Any, pace: Any
    ) -> tuple[list[tuple[int, int]], int, list[str]]:
        """The path the figure takes (a destination is routed through sides), its cost and why."""
        start = fig.square
        assert start is not None
        squares = parse_path(str(to or ""), state.width, state.height)
        if len(squares) > 1 and squares[0] == start:
            squares = squares[1:]
        through = self.t.movement.pass_through_friends
        goal = squares[-1]
        if goal == start:
            raise RuleError(f"{fig.name} is already at {square_name(start)}.")
        who = field.occupants.get(goal)
        if who is not None:
            raise RuleError(f"{square_name(goal)} is taken by {who[0]}: a square holds one figure.")
        if len(squares) == 1:
            reach = self.t.movement.walk if pace == "walk" else self.t.movement.run
            path = field.route(start, goal, fig.side, reach, through)
            if path is None:
                self._unreachable(field, fig, start, goal, reach, through)
        else:
            path = [start] + squares
            for a, b in zip(path, path[1:]):
                if not adjacent(a, b):
                    raise RuleError(
                        f"{square_name(a)} to {square_name(b)} is not a step through a side: "
                        f"name each square of the path, like C4 C5 D5."
                    )
            for square in path[1:-1]:
                if not field.passable(square, fig.side, through):
                    raise RuleError(
                        f"{fig.name} cannot pass through {square_name(square)}: {field.occupants[square][0]} stands there."
                    )
        assert path is not None
        cost, why = field.path_cost(path)
        return path, cost, why

    def _unreachable(
        self, field: Field, fig: YasgFigure, start: tuple[int, int], goal: tuple[int, int], reach: int, through: bool
    ) -> None:
        far = field.route(start, goal, fig.side, 10 * (field.width + field.height), through)
        if far is None:
            raise RuleError(f"{fig.name} cannot reach {square_name(goal)}: the way is blocked.")
        cost, why = field.path_cost(far)
        extra = f" ({joined(sorted(set(why)))})" if why else ""
        mv = self.t.movement
        if reach == mv.walk and reach < mv.run:
            hint = ": run instead" if cost <= mv.run else ""
            raise RuleError(
                f"{square_name(goal)} costs {fig.name} {plural(cost, 'square')} of movement{extra}; a walk is {reach}{hint}."
            )
        raise RuleError(
            f"{square_name(goal)} costs {fig.name} {plural(cost, 'square')} of movement{extra}; "
            f"it can go {plural(reach, 'square')} this turn."
        )

    def _pace(self, fig: YasgFigure, cost: int, why: list[str], wanted: Any) -> str:
        mv = self.t.movement
        pace = str(wanted).strip().casefold() if wanted else ("walk" if cost <= mv.walk else "run")
        if pace not in PACES:
            raise RuleError(f"{short(str(wanted))} is not a pace: walk or run.")
        reach = mv.walk if pace == "walk" else mv.run
        if cost > reach:
            extra = f" ({joined(sorted(set(why)))})" if why else ""
            hint = ": run instead" if pace == "walk" and cost <= mv.run else ""
            raise RuleError(f"That move costs {fig.name} {plural(cost, 'square')}{extra}; a {pace} is {reach}{hint}.")
        return pace

    def _move_event(
        self, fig: YasgFigure, path: list[tuple[int, int]], cost: int, why: list[str], pace: str, turn_to: str
    ) -> Event:
        mv = self.t.movement
        allowance = mv.run_and_fire if pace == "run" else mv.walk_and_fire
        fire = "may still fire" if cost <= allowance else "may not fire this turn"
        extra = f", {joined(why)}" if why else ""
        route = " → ".join(square_name(sq) for sq in path)
        verb = "runs" if pace == "run" else "walks"
        text = f"{fig.name} {verb} {route} ({plural(cost, 'square')}{extra}), facing {turn_to.upper()}; it {fire}."
        if fig.weapon_state == "empty" and self.t.load_automatically:
            text += f" Its {fig.weapon} stays empty this turn."
        data = {
            "figure": fig.name,
            "path": [square_name(sq) for sq in path],
            "cost": cost,
            "pace": pace,
            "facing": turn_to,
            "may_fire": cost <= allowance,
        }
        return Event("move", text, data)

    def _fall_roll(self, state: YasgState, fig: YasgFigure, dice: DiceSource) -> Event:
        falls = self.t.movement.fall_on_d10
        roll = dice.roll(D10, f"{fig.name}: ran, falls on {joined([str(f) for f in falls], 'or')}")
        fell = roll in falls
        if fell:
            fig.fallen_until = state.turn + 1
            text = f"{fig.name} rolls {roll} after running: falls, and spends next turn getting up."
        else:
            text = f"{fig.name} rolls {roll} after running: stays on its feet."
        return Event("fall" if fell else "run", text, {"figure": fig.name, "roll": roll, "fell": fell})

    def _rally(self, state: YasgState, leader: YasgFigure) -> list[Event]:
        """A-YASG-9: the Leader ending its move next to pinned figures of its side unpins them."""
        events = []
        for fig in state.figures:
            if fig.side == leader.side and fig.standing and fig.pinned and adjacent(fig.square, leader.square):  # type: ignore[arg-type]
                fig.pinned, fig.rallied = False, True
                text = f"{leader.name}, the Leader, rallies {fig.name}: no longer pinned (it may move again next turn)."
                events.append(Event("rally", text, {"leader": leader.name, "figure": fig.name}))
        return events

    def _face(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require(state, "movement", "Figures turn")
        fig = self._mover_figure(state, params.get("figure"), side, by_gm, "turn")
        if self.judge.fallen(fig, state.turn):
            raise RuleError(f"{fig.name} has fallen and spends this turn getting up.")
        turn_to = facing(params.get("facing"))
        if turn_to is None:
            raise RuleError(f"Say which way {fig.name} faces: n, e, s or w.")
        fig.facing = turn_to  # type: ignore[assignment]
        text = f"{fig.name} faces {turn_to.upper()} at {square_name(fig.square)}."  # type: ignore[arg-type]
        return [Event("face", text, {"figure": fig.name, "facing": turn_to})]

    def _load(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        if state.phase == "movement":
            fig = self._mover_figure(state, params.get("figure"), side, by_gm, "load")
        elif state.phase == "fire":
            fig = own_figure(state, params.get("figure"), side, by_gm, "load")
        else:
            raise RuleError(f"Figures begin loading in the movement or fire phase; it is the {state.phase} phase now.")
        if not self.t.weapons[fig.weapon].fires:
            raise RuleError(f"{fig.name} carries a {fig.weapon}, which needs no loading.")
        if fig.weapon_state == "loaded":
            raise RuleError(f"{fig.name}'s {fig.weapon} is already loaded.")
        if fig.weapon_turn >= state.turn:
            raise RuleError(f"{fig.name} fired this turn: it can load next turn.")
        if fig.loading:
            raise RuleError(f"{fig.name} is already loading this turn.")
        if fig.moved:
            raise RuleError(f"{fig.name} has moved this turn: loading takes a whole turn without moving.")
        if self.judge.fallen(fig, state.turn):
            raise RuleError(f"{fig.name} has fallen and spends this turn getting up.")
        fig.loading = True
        doing = "clears its misfire" if fig.weapon_state == "misfired" else f"loads its {fig.weapon}"
        text = f"{fig.name} {doing} this turn: it may not move, and close combat would spoil it."
        return [Event("load", text, {"figure": fig.name})]

    # --- fire phase

    def _fire(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require(state, "fire", "Figures fire")
        fig = own_figure(state, params.get("figure"), side, by_gm, "fire")
        if fig.side in state.done:
            raise RuleError(f"{fig.side} have finished firing this turn.")
        why = self.judge.why_cannot_fire(state, fig)
        if why:
            raise RuleError(f"{fig.name} {why}.")
        target = figure(state, params.get("target"), "the figure to fire at")
        field = self._field(state)
        shot = self.judge.shot(state, field, fig, target)
        if shot.need > D10:
            raise RuleError(
                f"{fig.name} cannot hit {target.name} ({self._shot_terms(shot)}): it would need {shot.need} on a d10."
            )
        events = self._resolve_shot(state, fig, target, shot, dice)
        events.extend(self._fire_progress(state, field))
        return events

    def _shot_terms(self, shot: Shot) -> str:
        parts = [f"{plural(shot.squares, 'square')}, {shot.band} range", f"class {self.judge.letter(shot.firer_class)}"]
        parts += [f"{name} +{value}" for name, value in shot.modifiers]
        return "; ".join(parts)

    def _resolve_shot(
        self, state: YasgState, fig: YasgFigure, target: YasgFigure, shot: Shot, dice: DiceSource
    ) -> list[Event]:
        """Dice order: d6 misfire, d10 to hit, d10 damage on a hit (A-YASG-13)."""
        fig.fired, fig.weapon_turn = True, state.turn
        misfires = self.t.misfire_on_d6
        check = dice.roll(D6, f"{fig.name}: {fig.weapon}, misfires on {joined([str(m) for m in misfires], 'or')}")
        data: dict[str, Any] = {
            "figure": fig.name,
            "target": target.name,
            "squares": shot.squares,
            "band": shot.band,
            "class": self.judge.letter(shot.firer_class),
            "modifiers": [list(m) for m in shot.modifiers],
            "needed": shot.need,
            "misfire_roll": check,
        }
        if check in misfires:
            fig.weapon_state = "misfired"
            text = f"{fig.name}'s {fig.weapon} misfires ({check} on the d6): no shot; it spends next turn clearing it."
            return [Event("misfire", text, {**data, "misfire": True})]
        fig.weapon_state = "empty"
        roll = dice.roll(D10, f"{fig.name}: shot at {target.name}, hits on {shot.need}+")
        hit = roll >= shot.need
        text = f"{fig.name} fires at {target.name} ({self._shot_terms(shot)}): needs {shot.need}, rolls {roll}: "
        data.update(roll=roll, hit=hit)
        if not hit:
            return [Event("fire", text + "miss.", data)]
        face = dice.roll(D10, f"{fig.name}: damage to {target.name}")
        result = self.judge.damage(face)
        state.hits.append(PendingHit(target.name, fig.name, result, f"shot by {fig.name}"))  # type: ignore[arg-type]
        data.update(damage_roll=face, result=result)
        text += f"hit; damage {face}: {RESULT_WORDS[result]} (taken when the fire phase ends)."
        return [Event("fire", text, data)]

    def _fire_progress(self, state: YasgState, field: Field) -> list[Event]:
        """Sides with nothing left to fire at are done; when every side is, the phase ends."""
        events = []
        for side in state.sides:
            if side in state.done:
                continue
            if not any(self.judge.can_fire_now(state, field, f) for f in state.figures if f.side == side):
                state.done.append(side)
                events.append(Event("done", f"{side.title()} have no more shots this turn.", {"side": side}))
        if len(state.done) == len(state.sides):
            events.extend(self._end_fire(state))
        return events

    def _start_fire(self, state: YasgState) -> list[Event]:
        state.phase, state.mover, state.done = "fire", None, []
        field = self._field(state)
        able = {
            s: [f.name for f in state.figures if f.side == s and self.judge.can_fire_now(state, field, f)]
            for s in state.sides
        }
        if not any(able.values()):
            text = f"Turn {state.turn} · fire phase: no figure can fire."
            return [phase_event(state, text)] + self._end_fire(state)
        order = state.initiative or state.sides
        lines = [f"{s.title()}: {joined(able[s]) if able[s] else 'no shots'}" for s in order]
        text = f"Turn {state.turn} · fire phase (simultaneous). Able to fire — {'; '.join(lines)}. Each side ends with /yasg next."
        events = [phase_event(state, text, able=able)]
        for side in order:
            if not able[side]:
                state.done.append(side)
        return events

    def _end_fire(self, state: YasgState) -> list[Event]:
        events = self._apply_hits(state, "fire")
        if self._check_end(state, events):
            return events
        return events + self._start_close_combat(state)

    # --- wounds and the end of the game

    def _apply_hits(self, state: YasgState, phase: str) -> list[Event]:
        """Every hit of a simultaneous phase, taken at once (A-YASG-16)."""
        events: list[Event] = []
        w = self.t.wounds
        for hit in state.hits:
            fig = figure(state, hit.target)
            if fig.out:
                events.append(
                    Event("wound", f"{fig.name} is already out: {hit.how} changes nothing.", {"figure": fig.name})
                )
                continue
            if hit.result == "killed":
                fig.out, fig.out_by = True, hit.by
                events.append(
                    Event(
                        "casualty",
                        f"{fig.name} is killed ({hit.how}).",
                        {"figure": fig.name, "side": fig.side, "by": hit.by, "result": "killed"},
                    )
                )
                continue
            points = w.serious_points if hit.result == "serious" else w.minor_points
            fig.wounds += points
            if fig.wounds > w.out_when_points_exceed:
                fig.out, fig.out_by = True, hit.by
                text = f"{fig.name} takes {RESULT_WORDS[hit.result]} ({hit.how}): {fig.wounds} wound points, out of the fight."
                events.append(
                    Event(
                        "casualty",
                        text,
                        {
                            "figure": fig.name,
                            "side": fig.side,
                            "by": hit.by,
                            "result": hit.result,
                            "wounds": fig.wounds,
                        },
                    )
                )
                continue
            letter = self.judge.letter(self.judge.current_class(fig))
            text = f"{fig.name} takes {RESULT_WORDS[hit.result]} ({hit.how}): {plural(fig.wounds, 'wound point')}, now class {letter}."
            events.append(
                Event("wound", text, {"figure": fig.name, "result": hit.result, "wounds": fig.wounds, "class": letter})
            )
        state.hits = []
        if not events:
            events.append(Event("wound", f"No hits to take from the {phase} phase.", {}))
        return events

    def _check_end(self, state: YasgState, events: list[Event]) -> bool:
        """The game ends when a side has no figure left in the fight (both at once: a draw)."""
        left = [s for s in state.sides if any(f.side == s and f.standing for f in state.figures)]
        if len(left) == len(state.sides):
            return False
        state.phase, state.mover, state.done = "over", None, []
        if left:
            state.winner = left[0]
            loser = next(s for s in state.sides if s != state.winner)
            text = f"{state.winner.title()} win: the last of {loser}'s figures is out of the fight."
            events.append(Event("victory", text, {"winner": state.winner, "loser": loser}))
        else:
            state.result = "draw"
            events.append(Event("game over", "A draw: the last figures of both sides fell together.", {"winner": None}))
        return True

    # --- close combat phase

    def _pairs(self, state: YasgState, field: Field) -> dict[str, list[YasgFigure]]:
        found = {f.name: self.judge.contacts(state, field, f) for f in state.figures if f.standing}
        return {name: enemies for name, enemies in found.items() if enemies}

    def _start_close_combat(self, state: YasgState) -> list[Event]:
        field = self._field(state)
        pairs = self._pairs(state, field)
        if not pairs:
            events = [Event("close combat", "No figures are in contact: no close combat this turn.", {})]
            return events + self._end_turn(state)
        state.phase, state.done = "close combat", []
        lines = [
            f"{name} → {enemies[0].name}"
            + (f" (or {joined([e.name for e in enemies[1:]], 'or')})" if len(enemies) > 1 else "")
            for name, enemies in pairs.items()
        ]
        choosers = {figure(state, n).side for n, e in pairs.items() if len(e) > 1}
        for side in state.initiative or state.sides:
            if side not in choosers:
                state.done.append(side)
        hint = (
            "choose other targets with /yasg engage, then " if choosers else ""
        ) + "/yasg next rolls every fight at once"
        text = f"Turn {state.turn} · close combat phase: {'; '.join(lines)}. {hint.capitalize()}."
        return [phase_event(state, text, pairs={n: [e.name for e in es] for n, es in pairs.items()})]

    def _engage(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        self._require(state, "close combat", "Close-combat targets are chosen")
        fig = own_figure(state, params.get("figure"), side, by_gm, "choose targets for")
        if fig.side in state.done:
            raise RuleError(f"{fig.side} are done with the close combat phase: their targets are set.")
        enemy = figure(state, params.get("target"), "the enemy it fights")
        field = self._field(state)
        contacts = self.judge.contacts(state, field, fig)
        if enemy not in contacts:
            there = joined([e.name for e in contacts], "or") or "no enemy"
            raise RuleError(f"{fig.name} is not in contact with {enemy.name}: it can fight {there}.")
        fig.engage = enemy.name
        return [Event("engage", f"{fig.name} will fight {enemy.name}.", {"figure": fig.name, "target": enemy.name})]

    def _close_combat(self, state: YasgState, dice: DiceSource) -> list[Event]:
        """Dice order: per figure in the list, d10 to hit then d10 damage on a hit (A-YASG-14, -16)."""
        field = self._field(state)
        events = [phase_event(state, f"Turn {state.turn} · close combat, every fight at once:")]
        for fig in state.figures:
            if not fig.standing:
                continue
            contacts = self.judge.contacts(state, field, fig)
            if not contacts:
                continue
            fig.in_combat = True
            enemy = next((e for e in contacts if e.name == fig.engage), contacts[0])
            events.append(self._fight(state, field, fig, enemy, dice))
        events.extend(self._apply_hits(state, "close combat"))
        if self._check_end(state, events):
            return events
        return events + self._end_turn(state)

    def _fight(self, state: YasgState, field: Field, fig: YasgFigure, enemy: YasgFigure, dice: DiceSource) -> Event:
        number, why = self.judge.combat_class(state, field, fig, enemy)
        need = self.judge.combat_need(number)
        letter = self.judge.letter(number)
        terms = ", ".join([f"class {letter}"] + why)
        data: dict[str, Any] = {"figure": fig.name, "target": enemy.name, "class": letter, "needed": need, "why": why}
        if need > D10:
            return Event("fight", f"{fig.name} fights {enemy.name} ({terms}): cannot hit.", {**data, "hit": False})
        roll = dice.roll(D10, f"{fig.name}: close combat with {enemy.name}, hits on {need}+")
        data.update(roll=roll, hit=roll >= need)
        text = f"{fig.name} fights {enemy.name} ({terms}): needs {need}, rolls {roll}: "
        if roll < need:
            return Event("fight", text + "miss.", data)
        face = dice.roll(D10, f"{fig.name}: damage to {enemy.name}")
        result = self.judge.damage(face)
        state.hits.append(PendingHit(enemy.name, fig.name, result, f"in close combat with {fig.name}"))  # type: ignore[arg-type]
        data.update(damage_roll=face, result=result)
        return Event("fight", text + f"hit; damage {face}: {RESULT_WORDS[result]}.", data)

    # --- the end of a turn, morale and initiative

    def _end_turn(self, state: YasgState) -> list[Event]:
        events: list[Event] = []
        for fig in state.figures:
            if not fig.standing:
                continue
            events.extend(self._loading_result(state, fig))
            if fig.fallen_until == state.turn:
                events.append(Event("up", f"{fig.name} is back on its feet.", {"figure": fig.name}))
            fig.shaken = fig.ran
            fig.moved, fig.ran, fig.fired, fig.loading, fig.rallied, fig.in_combat, fig.engage = (
                0,
                False,
                False,
                False,
                False,
                False,
                None,
            )
        state.turn += 1
        state.phase, state.mover, state.done, state.initiative = "morale", None, [], []
        events.append(
            phase_event(
                state, f"Turn {state.turn} · morale phase: /yasg next rolls morale for every figure that must test."
            )
        )
        return events

    def _loading_result(self, state: YasgState, fig: YasgFigure) -> list[Event]:
        """A-YASG-12, -13, -17: a clean turn (no move, no close combat, on its feet) loads or clears."""
        if fig.weapon_state == "loaded" or fig.weapon_turn >= state.turn:
            return []
        misfired = fig.weapon_state == "misfired"
        if not (misfired or fig.loading or self.t.load_automatically):
            return []
        spoiled = (
            "it moved"
            if fig.moved
            else "it was in close combat"
            if fig.in_combat
            else "it was getting up"
            if self.judge.fallen(fig, state.turn)
            else None
        )
        doing = "clear its misfire" if misfired else "load"
        if spoiled:
            if misfired or fig.loading or fig.in_combat:
                return [
                    Event("load", f"{fig.name} could not {doing}: {spoiled}.", {"figure": fig.name, "loaded": False})
                ]
            return []
        fig.weapon_state = "loaded"
        text = (
            f"{fig.name} has cleared its misfire and reloaded."
            if misfired
            else f"{fig.name} has loaded its {fig.weapon}."
        )
        return [Event("load", text, {"figure": fig.name, "loaded": True})]

    def _morale(self, state: YasgState, dice: DiceSource) -> list[Event]:
        """Dice order: one d10 per testing figure, in the order of the list; then initiative."""
        events = [phase_event(state, f"Turn {state.turn} · morale phase.")]
        tested = 0
        for fig in state.figures:
            if not fig.standing:
                continue
            reason = self.judge.must_test(state, fig)
            if reason is None:
                continue
            tested += 1
            number, why = self.judge.morale_class(fig)
            need = self.judge.morale_need(number)
            letter = self.judge.letter(number)
            roll = dice.roll(D10, f"{fig.name}: morale, passes above {need} (class {letter})")
            passed = roll > need
            was = fig.pinned
            fig.pinned = not passed
            outcome = (
                ("passes and is no longer pinned" if was else "passes")
                if passed
                else ("fails: still pinned" if was else "fails: pinned")
            )
            terms = f"class {letter}" + (f", {', '.join(why)}" if why else "")
            text = f"{fig.name} ({reason}; {terms}) rolls {roll}, needs more than {need}: {outcome}."
            events.append(
                Event(
                    "morale",
                    text,
                    {
                        "figure": fig.name,
                        "reason": reason,
                        "class": letter,
                        "needed": need,
                        "roll": roll,
                        "passed": passed,
                        "pinned": fig.pinned,
                    },
                )
            )
        if not tested:
            events.append(Event("morale", "No figure needs to test its morale.", {}))
        events.extend(self._initiative(state, dice))
        return events

    def _initiative(self, state: YasgState, dice: DiceSource) -> list[Event]:
        """A-YASG-8: a d6 each (first side first), ties rolled again; the higher moves first."""
        a, b = state.sides
        events = []
        while True:
            rolls = {a: dice.roll(D6, f"Initiative: {a}"), b: dice.roll(D6, f"Initiative: {b}")}
            first = None if rolls[a] == rolls[b] else max(rolls, key=lambda s: rolls[s])
            outcome = "a tie, roll again" if first is None else f"{first} move first"
            events.append(
                Event(
                    "initiative",
                    f"Initiative: {a} {rolls[a]}, {b} {rolls[b]}: {outcome}.",
                    {"rolls": rolls, "first": first},
                )
            )
            if first is not None:
                break
        state.initiative = [first, b if first == a else a]
        state.phase, state.mover = "movement", first
        events.append(
            phase_event(state, f"Turn {state.turn} · movement phase: {first} move first, then /yasg next.", mover=first)
        )
        return events

    # --- /yasg next

    def _next(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        if state.phase == "setup":
            return self._begin(state)
        if state.phase == "morale":
            return self._morale(state, dice)
        if state.phase == "movement":
            if not by_gm and side != state.mover:
                raise RuleError(f"{state.mover} are moving: they end their movement with /yasg next.")
            if state.mover == state.initiative[0]:
                state.mover = state.initiative[1]
                return [
                    phase_event(
                        state,
                        f"Turn {state.turn} · movement phase: {state.mover} move now, then /yasg next.",
                        mover=state.mover,
                    )
                ]
            return self._start_fire(state)
        acting = side_of(state, side) or self.whose_turn_of(state)
        events: list[Event] = []
        if len(state.done) < len(state.sides):
            if acting in state.done:
                waiting = joined([s for s in state.sides if s not in state.done])
                raise RuleError(f"{acting} are done with the {state.phase} phase: waiting for {waiting}.")
            state.done.append(acting)  # type: ignore[arg-type]
            events.append(Event("done", f"{acting.title()} are done with the {state.phase} phase.", {"side": acting}))  # type: ignore[union-attr]
            if len(state.done) < len(state.sides):
                return events
        if state.phase == "fire":
            return events + self._end_fire(state)
        return events + self._close_combat(state, dice)

    def _begin(self, state: YasgState) -> list[Event]:
        unplaced = [f.name for f in state.figures if f.square is None]
        if unplaced:
            raise RuleError(
                f"Place every figure first: {joined(unplaced[:5])}{' …' if len(unplaced) > 5 else ''} "
                f"{'is' if len(unplaced) == 1 else 'are'} not on the board (/yasg place)."
            )
        state.phase, state.turn = "morale", 1
        return [
            phase_event(
                state,
                "The battle begins. Turn 1 · morale phase: /yasg next rolls morale for every figure that must test.",
            )
        ]

    # --- /yasg look

    def _look(
        self, state: YasgState, side: str | None, by_gm: bool, params: Mapping[str, Any], dice: DiceSource
    ) -> list[Event]:
        fig = figure(state, params.get("figure"))
        target = figure(state, params.get("target"), "the figure to look at")
        if not fig.standing or not target.standing:
            gone = fig if not fig.standing else target
            raise RuleError(f"{gone.name} is not on the board.")
        field = self._field(state)
        a, b = fig.square, target.square
        assert a is not None and b is not None
        where = f"{fig.name} ({square_name(a)}, facing {fig.facing.upper()}) → {target.name} ({square_name(b)})"
        if target.side == fig.side:
            text = f"{where}: {plural(abs(a[0] - b[0]) + abs(a[1] - b[1]), 'square')}, a friend."
            return [Event("look", text, {"figure": fig.name, "target": target.name})]
        try:
            shot = self.judge.shot(state, field, fig, target)
        except RuleError as exc:
            return [
                Event("look", f"{where}: {exc.message}", {"figure": fig.name, "target": target.name, "can_fire": False})
            ]
        why = self.judge.why_cannot_fire(state, fig) if state.phase != "setup" else None
        need = f"needs {shot.need} on a d10" if shot.need <= D10 else f"cannot hit (would need {shot.need})"
        text = f"{where}: {self._shot_terms(shot)}; {need}" + (f" — but {fig.name} {why}" if why else "") + "."
        if fig.square and target.square and adjacent(a, b):
            text += (
                f" In contact across its {side_towards(a, b).upper()} side."
                if self.judge.in_contact(field, fig, target)
                else ""
            )
        return [
            Event(
                "look", text, {"figure": fig.name, "target": target.name, "needed": shot.need, "can_fire": why is None}
            )
        ]
