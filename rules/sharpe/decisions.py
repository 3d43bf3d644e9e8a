"""A defender's choice (a melee defence, or dodging a shot) as the one waiting-choice type,
:class:`rules.contract.Waiting`: labelled from the tables and his profile when it is asked (the
shell sees it through the one :func:`rules.contract.decision_of`), and what it keeps for its answer
read back when it is answered.

Its ``params`` are the decision's number (the ``pending`` option of ``defend``, so an answer to an
earlier decision is refused); its ``kept`` name the defender and the kind of choice, with the
attack (as plain data) or the shot's options it interrupts.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from rules.contract import DataError, Waiting, decision_of
from rules.plain import from_data, to_data
from rules.sharpe.common import Ctx
from rules.sharpe.profile import current
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Attack, Character, SharpeState

LABELS = {
    "parry": "Parry",
    "riposte": "Riposte",
    "dodge": "Dodge",
    "distract": "Distract",
    "turn": "Turn to face",
    "d6": "Bare D6 (nothing left)",
    "horse": "Go for the horse (bare D6 first)",
    "stand": "Stand and take it",
    "rider_parry": "Rider parries for the horse",
    "horse_d6": "The horse defends (D6)",
    "take": "Take the shot",
}
#: The action that answers a choice.
ANSWER = "defend"
#: A choice waiting on a shot: the target may dodge it (options.dodge_shots).
SHOT_DODGE = "shot_dodge"
#: The stages of a melee attack a defender chooses at (:attr:`Attack.stage`).
MELEE_KINDS = ("defence", "ride_over", "horse_defence")


def labels(t: SharpeTables, defender: Character, kind: str) -> Mapping[str, str]:
    """What each choice is called on its button: a shot's dodge shows the target's dexterity left."""
    if kind == SHOT_DODGE:
        return {"dodge": f"Dodge (D {current(t, defender, 'D')})", "take": LABELS["take"]}
    return LABELS


def waiting_for(
    t: SharpeTables,
    number: int,
    defender: Character,
    kind: str,
    choices: list[str],
    prompt: str,
    *,
    attack: Mapping[str, Any] | None = None,
    shot: Mapping[str, Any] | None = None,
) -> Waiting:
    """Decision ``number``: ``defender``'s side chooses among ``choices`` (labelled now)."""
    named = labels(t, defender, kind)
    kept: dict[str, Any] = {"figure": defender.name, "kind": kind}
    if attack is not None:
        kept["attack"] = dict(attack)
    if shot is not None:
        kept["shot"] = dict(shot)
    return Waiting(defender.side, prompt, [[c, named.get(c, c)] for c in choices], ANSWER, {"pending": number}, kept)


def ask(
    ctx: Ctx,
    defender: Character,
    kind: str,
    choices: list[str],
    prompt: str,
    *,
    attack: Attack | None = None,
    shot: Mapping[str, Any] | None = None,
) -> None:
    """The state waits for ``defender``'s side to choose; the action's outcome asks it."""
    state = ctx.state
    kept_attack = None if attack is None else to_data(attack)
    state.pending = waiting_for(ctx.t, state.next_id, defender, kind, choices, prompt, attack=kept_attack, shot=shot)
    state.next_id += 1
    ctx.decision = decision_of(state.pending)


# --- read back ------------------------------------------------------------------------------------


def number_of(waiting: Waiting) -> int:
    return int(waiting.params["pending"])


def values_of(waiting: Waiting) -> list[str]:
    """The choices' values (``parry``, ``take``…)."""
    return [value for value, _ in waiting.choices]


def figure_of(waiting: Waiting) -> str:
    """The man who chooses (the rider, for his horse)."""
    return str(waiting.kept.get("figure", ""))


def kind_of(waiting: Waiting) -> str:
    """A stage of a melee attack (:data:`MELEE_KINDS`) or :data:`SHOT_DODGE`."""
    return str(waiting.kept.get("kind", ""))


def attack_of(waiting: Waiting) -> Attack:
    """The attack the choice interrupts (a DataError if the state does not keep one that fits)."""
    return from_data(Attack, waiting.kept.get("attack"), "pending.kept.attack")


def shot_of(waiting: Waiting) -> dict[str, Any]:
    """The shoot options of the shot the target may dodge, read again when it is answered."""
    shot = waiting.kept.get("shot")
    return dict(shot) if isinstance(shot, Mapping) else {}


def waiting_problems(state: SharpeState, sides: Collection[str]) -> list[str]:
    """What a loaded state's waiting choice gets wrong that its type cannot say."""
    waiting = state.pending
    if waiting is None:
        return []
    problems: list[str] = []
    if waiting.decider not in sides:
        problems.append(f"pending.decider: {waiting.decider!r} is not one of the sides")
    if waiting.resume_action != ANSWER or not isinstance(waiting.params.get("pending"), int):
        problems.append(f"pending: answered with {ANSWER} and a number (params.pending)")
    figure, kind = figure_of(waiting), kind_of(waiting)
    if figure not in {c.name for c in state.characters}:
        problems.append(f"pending.kept.figure: {figure!r} is not a character in this game")
    unknown = [value for value in values_of(waiting) if value not in LABELS]
    if unknown:
        problems.append(f"pending.choices: {unknown[0]!r} is not a defender's choice")
    if kind == SHOT_DODGE:
        if not isinstance(waiting.kept.get("shot"), Mapping):
            problems.append("pending.kept.shot: a dodge keeps the shot it answers")
    elif kind in MELEE_KINDS:
        try:
            attack_of(waiting)
        except DataError as broken:
            problems += broken.problems
    else:
        problems.append(f"pending.kept.kind: {kind!r} is not one of {', '.join((*MELEE_KINDS, SHOT_DODGE))}")
    return problems


# --- states saved before the choice was a Waiting -------------------------------------------------


@dataclass
class SavedPending:
    """A defender's choice as states saved it before it was a :class:`Waiting`: its values only,
    beside the attack or shot in progress."""

    id: int
    decider: str
    figure: str
    kind: str
    choices: list[str]
    prompt: str
    attack: Attack | None = None
    shot: dict[str, Any] | None = None


def is_saved_pending(data: object) -> bool:
    return isinstance(data, Mapping) and "kind" in data and "resume_action" not in data


def waiting_of_saved(t: SharpeTables, state: SharpeState, data: Mapping[str, Any]) -> Waiting:
    """A choice saved in the old shape (:class:`SavedPending`) as the :class:`Waiting` it is now,
    labelled as it would have been asked in ``state``."""
    saved = from_data(SavedPending, data, "pending")
    defender = next((c for c in state.characters if c.name == saved.figure), None)
    if defender is None:
        raise DataError([f"pending.figure: {saved.figure!r} is not a character in this game"])
    unknown = [value for value in saved.choices if value not in LABELS]
    if unknown:
        raise DataError([f"pending.choices: {unknown[0]!r} is not a defender's choice"])
    attack = None if saved.attack is None else to_data(saved.attack)
    waiting = waiting_for(
        t, saved.id, defender, saved.kind, saved.choices, saved.prompt, attack=attack, shot=saved.shot
    )
    waiting.decider = saved.decider
    return waiting
