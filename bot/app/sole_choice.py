"""No forced waits: a choice with exactly one legal answer is taken at once, and said in one line.

In play by chat a question with one possible answer can cost a day: an NSR card only one unit
may take still waited for its side. The engines ask as the rules do; here, before the shell stores
such a decision, the one answer is given straight back to the engine in the same command, with a
line in the log saying why. Groups who want to be asked anyway set the house-rule switch
``ask_when_one_choice: true`` (kept in the campaign's settings: the engines never see it).

The line folds what the engine says about it: the question (an NSR card's "3♥ — Allied: choose a
unit to move") and the answer's own first line ("Allied chooses Rifles to move on 3♥") become
"Then: Allied chooses Rifles to move on 3♥, the only choice.", and a run of them, as when card after
card passes, one line: "Then: French passes on J♠, Allied passes on 5♥ and French chooses 1er Ligne
to fire on 9♠, each the only choice." The folded events keep their kind and data with no text
(cards and the log print no line for an event with no text: :func:`bot.render.shown.told`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from rules.core import Action, Choice, Decision, DiceSource, Engine, Event, Outcome
from rules.words import joined

ASK_SWITCH = "ask_when_one_choice"
ASK_NOTE = "Ask a side even when its choice has one legal answer (no: it is taken at once, and said)"
#: A chain of one-answer choices longer than this is asked after all (an engine would be looping).
MAX_TAKEN = 12
ONLY_CHOICE = "only-choice"
#: Events the shell draws as cards of their own: never folded into the line.
DRAWN = frozenset({"wound", "casualty", "victory", "phase", "bound", "turn", "decision", "roll"})


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
        answer = Action(pending.resume_action, pending.decider, {**pending.params, "choice": choice.value}, False)
        outcome = engine.act(outcome.state, answer, dice)
        _quiet_question(events, pending)
        said = list(outcome.events)
        events.append(Event(ONLY_CHOICE, _answer_clause(pending, choice, said), _answer_data(pending, choice)))
        events.extend(said)
        taken.append({"name": answer.name, "side": answer.side, "params": dict(answer.params), "by_gm": False})
    return Outcome(outcome.state, fold_runs(events), outcome.pending), taken


def _quiet_question(events: list[Event], pending: Decision) -> None:
    """The question's own line (the engine's last event, when it says the prompt) left unprinted."""
    if events and events[-1].text.strip().rstrip(".") == pending.prompt.strip().rstrip("."):
        events[-1] = replace(events[-1], text="")


def _answer_clause(pending: Decision, choice: Choice, said: list[Event]) -> str:
    """What was chosen, as a clause: the answer's first line when it says so (it names the choice),
    which is then left unprinted; otherwise who chose what."""
    if said and said[0].kind not in DRAWN and str(choice.value).casefold() in said[0].text.casefold():
        clause = said[0].text.strip().rstrip(".")
        said[0] = replace(said[0], text="")
        return clause
    who = "the game master" if pending.decider == "gm" else pending.decider
    return f"{who}: {choice.label}"


def _answer_data(pending: Decision, choice: Choice) -> dict[str, Any]:
    return {"decider": pending.decider, "prompt": pending.prompt, "choice": choice.value, "label": choice.label}


def fold_runs(events: list[Event]) -> list[Event]:
    """Each run of one-answer lines (with nothing printed between them) as one line."""
    out = list(events)
    runs: list[list[int]] = []
    for index, event in enumerate(out):
        if event.kind != ONLY_CHOICE:
            continue
        if runs and all(not e.text for e in out[runs[-1][-1] + 1 : index]):
            runs[-1].append(index)
        else:
            runs.append([index])
    for run in runs:
        clauses = [out[i].text for i in run]
        tail = "each the only choice" if len(clauses) > 1 else "the only choice"
        text = f"Then: {joined(clauses)}, {tail}."
        out[run[0]] = replace(out[run[0]], text=text)
        for i in run[1:]:
            out[i] = replace(out[i], text="")
    return out
