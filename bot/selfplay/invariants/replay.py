"""Replaying the log gives the saved state: the start, then every action not undone, each with the
dice it rolled and nothing more. Done step by step (each new entry applied to the state replayed so
far), and from the start again whenever an entry was undone, and once at the end of the battle."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.app.log_replay import apply_logged
from bot.dice import ForcedDice
from bot.selfplay.invariants.check import End, Step
from bot.store.records import LoggedAction
from rules.core import Action, Engine, FigureSpec, RuleError, from_data


def forced_from(entry: LoggedAction) -> ForcedDice:
    """The dice and cards an entry rolled, in order, and nothing more."""
    dice = [int(r.value) for r in entry.rolls if r.kind == "die"]
    cards = [r.value for r in entry.rolls if r.kind == "card"]
    return ForcedDice(dice, cards)


def start_of(engine: Engine[Any], first: LoggedAction) -> Any:
    data = first.action or {}
    specs = [from_data(FigureSpec, spec) for spec in data["start"]]
    dice = forced_from(first)
    if "map" in data:  # a battle on the bot's map: the map it began on
        state = engine.start_on_map(specs, dice, engine.read_map(data["map"])).state
    else:
        state = engine.start(specs, dice).state
    for step in data.get("then", []):  # one-answer choices the start's outcome took at once
        state = engine.act(state, Action(step["name"], step.get("side"), step.get("params") or {}, False), dice).state
    return state


def apply(engine: Engine[Any], state: Any, entry: LoggedAction) -> Any:
    """``state`` after the logged action (and the one-answer choices taken with it)."""
    return apply_logged(engine, state, entry.action or {}, forced_from(entry))


def is_start(entry: LoggedAction) -> bool:
    return bool(entry.action) and "start" in (entry.action or {})


def counts(entry: LoggedAction) -> bool:
    return not entry.undone and bool(entry.action) and "name" in (entry.action or {}) and not is_start(entry)


def replay(engine: Engine[Any], entries: Sequence[LoggedAction]) -> Any:
    """The state the whole log leads to."""
    first = next((e for e in entries if is_start(e)), None)
    if first is None:
        raise ValueError("the log has no start")
    state = start_of(engine, first)
    for entry in entries:
        if counts(entry):
            state = apply(engine, state, entry)
    return state


def same(engine: Engine[Any], state: Any, saved: Any) -> bool:
    return json.loads(json.dumps(engine.dump_state(state), sort_keys=True)) == json.loads(
        json.dumps(saved, sort_keys=True)
    )


def changed(step: Step) -> bool:
    before, after = step.before.game, step.after.game
    return after is not None and (before is None or before.id != after.id or before.version != after.version)


class ReplayGivesState:
    name = "replaying the log gives the saved state"
    key = "replay"

    def __init__(self) -> None:
        self.game_id: int | None = None
        self.applied: list[int] = []
        self.state: Any = None

    def after(self, step: Step) -> list[str]:
        snap = step.after
        if snap.game is None or not snap.log or not changed(step):
            return []
        engine = snap.engine
        try:
            state = self._follow(engine, snap.game.id, snap.log)
        except (RuleError, ValueError, KeyError) as exc:
            self.game_id = None
            return [f"the log does not replay: {type(exc).__name__}: {exc}"]
        if not same(engine, state, snap.game.state):
            self.game_id = None
            return ["replaying the log gives another state than the saved one"]
        return []

    def _follow(self, engine: Engine[Any], game_id: int, entries: Sequence[LoggedAction]) -> Any:
        kept = [e.id for e in entries if counts(e)]
        if self.game_id != game_id or kept[: len(self.applied)] != self.applied:
            self.game_id, self.applied, self.state = game_id, [], replay(engine, [e for e in entries if not counts(e)])
        done = set(self.applied)
        for entry in entries:
            if counts(entry) and entry.id not in done:
                self.state = apply(engine, self.state, entry)
                self.applied.append(entry.id)
        return self.state

    def at_end(self, end: End) -> list[str]:
        snap = end.last
        if snap.game is None or not snap.log:
            return []
        try:
            state = replay(snap.engine, snap.log)
        except (RuleError, ValueError, KeyError) as exc:
            return [f"the whole log does not replay: {type(exc).__name__}: {exc}"]
        return [] if same(snap.engine, state, snap.game.state) else ["the whole log replays to another state"]
