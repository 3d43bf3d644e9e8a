"""A hint or next-move button offered is accepted when taken: the battle loop now and then takes
one of the quick moves the last answer offered ("next"), as the player whose turn it is, and the
bot must accept it."""

from __future__ import annotations

from bot.selfplay.invariants.check import Check, Step


class HintsAccepted(Check):
    name = "hints are accepted"
    key = "hints"

    def after(self, step: Step) -> list[str]:
        if step.intent != "hint" or step.record.ok:
            return []
        return [f"the offered {step.record.line!r} was refused: {step.record.error}"]
