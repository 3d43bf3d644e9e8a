"""A refusal changes nothing: the saved state, its version, the dice stream and the log are as
they were before the line."""

from __future__ import annotations

from bot.selfplay.invariants.check import Check, Step


class RefusalChangesNothing(Check):
    name = "refusal changes nothing"
    key = "refusal"

    def after(self, step: Step) -> list[str]:
        if step.record.ok or step.before.game is None:
            return []
        if step.after.game is None or step.after.game.id != step.before.game.id:
            return ["a refused line changed which game is the newest"]
        if step.before.key() != step.after.key():
            changed = [
                what
                for what, a, b in zip(
                    ("state", "version", "dice stream", "log"), step.before.key(), step.after.key(), strict=True
                )
                if a != b
            ]
            return [f"a refused line changed the game's {', '.join(changed)} (refused: {step.record.error})"]
        return []
