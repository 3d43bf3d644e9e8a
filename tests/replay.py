"""Test support: a game rebuilt from its log: the start, then every action not undone, each with the dice it
rolled. It proves the log is complete: the replayed state must equal the saved one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import selectinload

from bot.dice import ForcedDice
from bot.store.schema import ActionRecord, Game
from rules.core import Action, Engine, FigureSpec, from_data


def forced_from(record: ActionRecord) -> ForcedDice:
    """The dice and cards an action rolled, in order, and nothing more."""
    dice = [int(r.value) for r in record.rolls if r.kind == "die"]
    cards = [r.value for r in record.rolls if r.kind == "card"]
    return ForcedDice(dice, cards)


def replay(engine: Engine[Any], records: Sequence[ActionRecord]) -> Any:
    """The state the log leads to. Raises if an action no longer applies or the dice do not fit."""
    started = [r for r in records if r.action and "start" in r.action]
    if not started:
        raise ValueError("the log has no start")
    first = started[0]
    specs = [from_data(FigureSpec, spec) for spec in first.action["start"]]
    dice = forced_from(first)
    if "map" in first.action:  # a battle on the bot's map: the map it began on
        state = engine.start_on_map(specs, dice, engine.read_map(first.action["map"])).state
    else:
        state = engine.start(specs, dice).state
    for step in first.action.get("then", []):  # one-answer choices the start's outcome took at once
        state = engine.act(state, Action(step["name"], step.get("side"), step.get("params") or {}, False), dice).state
    for record in records:
        if record is first or record.undone or not record.action or "name" not in record.action:
            continue
        data = record.action
        dice = forced_from(record)
        for step in [data, *data.get("then", [])]:  # the action, then any one-answer choices taken at once
            action = Action(step["name"], step.get("side"), step.get("params") or {}, bool(step.get("by_gm")))
            state = engine.act(state, action, dice).state
    return state


async def load_log(session: AsyncSession, game: Game) -> list[ActionRecord]:
    return list(
        await session.scalars(
            select(ActionRecord)
            .where(ActionRecord.game_id == game.id)
            .order_by(ActionRecord.seq)
            .options(selectinload(ActionRecord.rolls))
        )
    )
