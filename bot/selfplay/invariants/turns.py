"""Nobody acts out of turn: a ruleset command accepted from a side's player was that side's to
give (its turn, or a decision waiting for it); and a line the battle loop typed as the wrong side
on purpose (a probe) is refused."""

from __future__ import annotations

from bot.selfplay.invariants import Check, Step, state_of

#: Commands any side may give at any time (they ask, or give up), by ruleset.
ANY_TIME = {
    "sharpe": {"concede", "targets"},
    "yasg": {"look"},
    "nsr": {"building"},
}


def command_of(line: str) -> tuple[str, str]:
    """``("ssg", "move")`` for ``/ssg move figure:…``."""
    words = line.split()
    return words[0].lstrip("/"), words[1] if len(words) > 1 else ""


def sides_of(player: str, sides: list[str]) -> str | None:
    return next((s for s in sides if s.capitalize() == player), None)


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
        if step.intent == "probe":
            if step.record.ok:
                return [f"{step.record.player} gave {step.record.line!r} out of turn and it was accepted"]
            return []
        if not step.record.ok:
            return []
        engine, state = before.engine, state_of(before)
        side = sides_of(step.record.player, list(engine.sides()))
        if side is None:
            return []
        waiting = engine.pending(state)
        allowed = {engine.whose_turn(state)} | ({waiting.decider} if waiting is not None else set())
        allowed |= {d.decider for d in before.decisions}
        if None in allowed or side in allowed:
            return []
        return [f"{side} acted ({step.record.line!r}) while it was {', '.join(sorted(map(str, allowed)))}'s to act"]
