"""No exception but a refusal: a "something went wrong" answer, or an error the bot logged while
the line ran, is a bug."""

from __future__ import annotations

from bot.adapter.errors import BUG_SENTENCE
from bot.selfplay.invariants.check import Check, Step


class NoBug(Check):
    name = "no bug"
    key = "bug"

    def after(self, step: Step) -> list[str]:
        problems = [f"the bot logged an error: {text}" for text in step.logged]
        if step.record.error == BUG_SENTENCE:
            problems.append("the answer was the bug sentence (an exception other than a refusal)")
        return problems
