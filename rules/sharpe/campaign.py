"""Between games (12, "Kill"): what becomes of characters put out of action, for the roster to keep.

A "Kill" is "not necessarily dead but out of action for this game". The campaign chooses
(``options.kill_outcome``): ``death_on_6`` rolls a D6 and the man dies on a 6; ``miss_d6_games``
rolls a D6 for the games he misses; ``none`` keeps everyone. Wounds short of a kill heal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.core import DiceSource
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, SharpeState

Fate = Literal["dead", "injured", "fit"]


@dataclass(frozen=True)
class Aftermath:
    name: str
    side: str
    fate: Fate
    #: Games he must sit out before he may fight again (``miss_d6_games``).
    misses: int
    roll: int | None
    text: str


def after_battle(tables: SharpeTables, state: SharpeState, dice: DiceSource) -> list[Aftermath]:
    """Every character out of action learns his fate, in the batting order (one D6 each, as the rule says)."""
    how = tables.options.kill_outcome
    out = [c for c in _in_order(state) if c.out]
    results = []
    for ch in out:
        if how == "none":
            results.append(
                Aftermath(ch.name, ch.side, "fit", 0, None, f"{ch.name} was out of action; he will fight again.")
            )
        elif how == "death_on_6":
            roll = dice.roll(6, f"{ch.name}: out of action — does he die? (6 dies)")
            dead = roll == 6
            text = f"{ch.name} rolls {roll}: " + (
                "he dies of his wounds." if dead else "he lives, and will fight again."
            )
            results.append(Aftermath(ch.name, ch.side, "dead" if dead else "fit", 0, roll, text))
        else:
            roll = dice.roll(6, f"{ch.name}: out of action — games to miss (D6)")
            text = f"{ch.name} rolls {roll}: he misses the next " + (f"{roll} games." if roll > 1 else "game.")
            results.append(Aftermath(ch.name, ch.side, "injured", roll, roll, text))
    return results


def _in_order(state: SharpeState) -> list[Character]:
    by_name = {c.name: c for c in state.characters}
    return [by_name[n] for n in state.order if n in by_name] + [
        c for c in state.characters if c.name not in state.order
    ]
