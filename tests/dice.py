"""Dice sources the rules tests share: forced dice that record every roll, and seeded random dice.

Neither turns cards (a ruleset that does, like NSR, keeps a source of its own)."""

from __future__ import annotations

import random
from collections.abc import Sequence


class ScriptedDice:
    """Forced dice: pops values in order, records (sides, value, reason), fails when empty."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.rolls: list[tuple[int, int, str]] = []

    def roll(self, sides: int, reason: str) -> int:
        if not self.values:
            raise AssertionError(f"no forced die left for {reason!r}")
        value = self.values.pop(0)
        assert 1 <= value <= sides, (value, sides, reason)
        self.rolls.append((sides, value, reason))
        return value

    def draw(self, cards: Sequence[str], reason: str) -> str:
        raise AssertionError(f"this ruleset turns no cards ({reason})")

    @property
    def reasons(self) -> list[str]:
        return [reason for _, _, reason in self.rolls]


class RandomDice:
    """A seeded random.Random as a DiceSource, for the statistical tests."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def roll(self, sides: int, reason: str) -> int:
        return self.rng.randint(1, sides)

    def draw(self, cards: Sequence[str], reason: str) -> str:
        raise AssertionError(f"this ruleset turns no cards ({reason})")
