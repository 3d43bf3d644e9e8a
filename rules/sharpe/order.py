"""The order of movement (3): 1D6 + initiative, ties by unmodified D6s, wounds move a man down."""

from __future__ import annotations

from rules.sharpe.common import Ctx
from rules.sharpe.profile import current
from rules.sharpe.state import Character


def roll_order(ctx: Ctx, characters: list[Character], *, heading: str) -> list[str]:
    """Dice order: one D6 per character in the listed order, then the tie-break D6s."""
    die = ctx.t.order.die
    scores: dict[str, int] = {}
    parts = []
    for ch in characters:
        initiative = current(ctx.t, ch, "I")
        roll = ctx.dice.roll(die, f"{ch.name}: order of movement, D6 + I {initiative}")
        scores[ch.name] = roll + initiative
        parts.append(f"{ch.name} {roll}+{initiative} = {scores[ch.name]}")
    order: list[str] = []
    ties: list[str] = []
    for score in sorted(set(scores.values()), reverse=True):
        group = [ch.name for ch in characters if scores[ch.name] == score]
        if len(group) > 1:
            group = _break_tie(ctx, group, ties)
        order.extend(group)
    text = f"{heading}: " + ", ".join(parts)
    if ties:
        text += "; ties: " + "; ".join(ties)
    text += ". Order: " + ", ".join(f"{i}. {name}" for i, name in enumerate(order, 1)) + "."
    ctx.say("order", text, scores=scores, order=order)
    return order


def _break_tie(ctx: Ctx, group: list[str], notes: list[str]) -> list[str]:
    """Tied characters roll unmodified D6s, higher first; those still tied roll again, each tie
    settled before the next lower one is rolled. A loop, not a recursion: dice that keep tying
    end at the action's bound on dice (``rules.vocabulary.MAX_DRAWS``), not in a RecursionError."""
    result: list[str] = []
    todo = [group]
    while todo:
        tied = todo.pop()
        if len(tied) == 1:
            result.extend(tied)
            continue
        rolls = {name: ctx.dice.roll(ctx.t.order.die, f"{name}: order of movement tie, unmodified D6") for name in tied}
        notes.append(", ".join(f"{name} {rolls[name]}" for name in tied))
        values = sorted(set(rolls.values()))
        todo.extend([name for name in tied if rolls[name] == value] for value in values)
    return result


def move_down(ctx: Ctx, ch: Character, severity: str) -> str:
    """A-SHARPE-13: a light wound moves a character 1 place later, a serious one 3 (not past the end)."""
    if ctx.t.options.reroll_order_every_bound or severity not in ctx.t.order.places_down:
        return ""
    order = ctx.state.order
    if ch.name not in order:
        return ""
    places = ctx.t.order.places_down[severity]
    index = order.index(ch.name)
    new = min(len(order) - 1, index + places)
    if new == index:
        return ""
    order.remove(ch.name)
    order.insert(new, ch.name)
    return f"moves down the order: he now acts after {order[new - 1]}"
