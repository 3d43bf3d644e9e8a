"""No forced waits: a choice with exactly one legal answer is taken at once, and said.

In play by chat a question with one possible answer can cost a day: an NSR card only one unit
may take still waited for its side. The engines ask as the rules do; here, before the shell stores
such a decision, the one answer is given straight back to the engine in the same command, with a
line in the log saying why. Groups who want to be asked anyway set the house-rule switch
``ask_when_one_choice: true`` (kept in the campaign's settings: the engines never see it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import Action, DiceSource, Engine, Event, Outcome

ASK_SWITCH = "ask_when_one_choice"
ASK_NOTE = "Ask a side even when its choice has one legal answer (no: it is taken at once, and said)"
#: A chain of one-answer choices longer than this is asked after all (an engine would be looping).
MAX_TAKEN = 12


def asks_always(settings: Mapping[str, Any] | None) -> bool:
    return bool((settings or {}).get(ASK_SWITCH) is True)


def act_taking_sole_choices(
    engine: Engine[Any], state: Any, action: Action, dice: DiceSource, *, ask: bool
) -> tuple[Outcome[Any], list[dict[str, Any]]]:
    """``engine.act``, then each decision with one answer answered at once: the final outcome (all
    events in order) and the answers given, as data for the log (so a replay gives them too)."""
    return take_sole_choices(engine, engine.act(state, action, dice), dice, ask=ask)


def take_sole_choices(
    engine: Engine[Any], outcome: Outcome[Any], dice: DiceSource, *, ask: bool
) -> tuple[Outcome[Any], list[dict[str, Any]]]:
    """``outcome`` (of an action or a battle's start) with each one-answer decision answered."""
    if ask:
        return outcome, []
    events = list(outcome.events)
    taken: list[dict[str, Any]] = []
    while outcome.pending is not None and len(outcome.pending.choices) == 1 and len(taken) < MAX_TAKEN:
        pending, choice = outcome.pending, outcome.pending.choices[0]
        who = "The game master" if pending.decider == "gm" else pending.decider
        events.append(
            Event("only-choice", f"{who} had one choice ({pending.prompt}): {choice.label}, taken at once.", {})
        )
        answer = Action(pending.resume_action, pending.decider, {**pending.params, "choice": choice.value}, False)
        outcome = engine.act(outcome.state, answer, dice)
        events.extend(outcome.events)
        taken.append({"name": answer.name, "side": answer.side, "params": dict(answer.params), "by_gm": False})
    return Outcome(outcome.state, events, outcome.pending), taken
