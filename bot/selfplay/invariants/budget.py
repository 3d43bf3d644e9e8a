"""Every line is answered within a time budget. This check reports a slow answer; a line that never
comes back is caught by the runner, which kills the worker that stops answering."""

from __future__ import annotations

from bot.selfplay.invariants.check import Check, Step


class WithinBudget(Check):
    name = "time budget"
    key = "budget"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def after(self, step: Step) -> list[str]:
        if step.seconds > self.seconds:
            return [f"the line took {step.seconds:.1f} s, more than the budget of {self.seconds:.0f} s"]
        return []
