"""Nobody acts out of turn: a ruleset command accepted from a side's player was that side's to
give (its turn, or a decision waiting for it); and a line the battle loop typed as the wrong side
on purpose (a probe) is refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.selfplay.invariants.check import Check, Step, state_of
from bot.selfplay.table import Snapshot

#: Commands any side may give at any time (they ask, or give up), by ruleset.
ANY_TIME = {
    "sharpe": {"concede", "targets"},
    "yasg": {"look"},
    "nsr": {"building"},
}


def yasg_sides(state: Any) -> set[str] | None:
    """YASG's sides that may act: both while setting up and for morale; in the fire and close
    combat phases both sides at once, each until it is done; in movement the side moving."""
    if state.phase in ("setup", "morale"):
        return set(state.sides)
    if state.phase in ("fire", "close combat"):  # once both are done, either rolls the phase's dice
        return {s for s in state.sides if s not in state.done} or set(state.sides)
    return None


#: Rulesets where more than the side whose turn it is may act, and who may.
SIDES_THAT_MAY_ACT: dict[str, Callable[[Any], set[str] | None]] = {"yasg": yasg_sides}


def command_of(line: str) -> tuple[str, str]:
    """``("ssg", "move")`` for ``/ssg move figure:…``."""
    words = line.split()
    return words[0].lstrip("/"), words[1] if len(words) > 1 else ""


def sides_of(player: str, sides: list[str]) -> str | None:
    return next((s for s in sides if s.capitalize() == player), None)


def may_act(snap: Snapshot) -> set[str | None]:
    """The sides that may give a ruleset command now (None in it: anyone)."""
    engine, state = snap.engine, state_of(snap)
    waiting = engine.pending(state)
    allowed: set[str | None] = {engine.whose_turn(state)} | ({waiting.decider} if waiting is not None else set())
    allowed |= {d.decider for d in snap.decisions}
    allowed |= SIDES_THAT_MAY_ACT.get(engine.slug, lambda _: None)(state) or set()
    return allowed


class NobodyOutOfTurn(Check):
    name = "nobody acts out of turn"
    key = "turn"

    def after(self, step: Step) -> list[str]:
        before = step.before
        if before.game is None or before.campaign is None:
            return []
        group, name = command_of(step.record.line)
        if group != before.campaign.ruleset or name in ANY_TIME.get(group, set()):
            return []
        if not step.record.ok:
            return []
        side = sides_of(step.record.player, list(before.engine.sides()))
        if side is None:
            return []
        allowed = may_act(before)
        if None in allowed or side in allowed:
            return []
        if step.intent == "probe":
            return [f"{side} gave {step.record.line!r} out of turn and it was accepted"]
        return [f"{side} acted ({step.record.line!r}) while it was {', '.join(sorted(map(str, allowed)))}'s to act"]
