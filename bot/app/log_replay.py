"""A logged action applied again: the action as the log keeps it, then the one-answer choices taken
with it at once, each with the dice it rolled. Undo uses it to see which later entries still hold
on the restored state; self-play replays whole logs with it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Action, DiceSource, Engine


def apply_logged(engine: Engine[Any], state: Any, data: Mapping[str, Any], dice: DiceSource) -> Any:
    """``state`` after the logged action ``data`` (``{"name", "side", "params", "by_gm", "then"}``)."""
    for step in [data, *data.get("then", [])]:
        action = Action(step["name"], step.get("side"), step.get("params") or {}, bool(step.get("by_gm")))
        state = engine.act(state, action, dice).state
    return state
