"""A defender's choice (a melee defence, or dodging a shot) as the shell's :class:`Decision`: built the
same way when it is asked and when a restored state is asked again (after /game undo)."""

from __future__ import annotations

from rules.core import Choice, Decision
from rules.sharpe.profile import current
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Pending, SharpeState

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


def decision_of(t: SharpeTables, state: SharpeState, pending: Pending) -> Decision:
    """The choice ``pending`` as the shell shows it: one button per choice, for the defender's side."""
    if pending.kind == "shot_dodge":
        target = next(c for c in state.characters if c.name == pending.figure)
        labels = {"dodge": f"Dodge (D {current(t, target, 'D')})", "take": LABELS["take"]}
    else:
        labels = LABELS
    choices = tuple(Choice(c, labels[c]) for c in pending.choices)
    return Decision(pending.decider, pending.prompt, choices, ANSWER, {"pending": pending.id})
