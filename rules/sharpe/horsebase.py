"""A horse's base on the bot's map once its rider is off it (A-SHARPE-43): its name there, the room
it takes up and its token in the picture. Kept apart from :mod:`rules.sharpe.onmap`, which asks it
for the horses alongside the characters; what a horse does on the map is :mod:`rules.sharpe.mounts`."""

from __future__ import annotations

from rules.battlefield import Token
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Character, SharpeState


def horse_key(rider: str) -> str:
    """The name a horse goes by on the map once its rider is off it."""
    return f"{rider}'s horse"


def horses_on_map(state: SharpeState) -> list[Character]:
    """The riders whose horse stands on the map without them, running loose or lying dead."""
    field = state.field
    if field is None:
        return []
    return [
        c
        for c in state.characters
        if c.horse is not None and (c.horse.loose or c.horse.dead) and horse_key(c.name) in field.positions
    ]


def horse_radii(t: SharpeTables, state: SharpeState) -> dict[str, float]:
    """A riderless horse takes up a horse's base, and so does a dead one where it fell."""
    return {horse_key(c.name): t.map.mounted_base_radius for c in horses_on_map(state)}


def is_horse(state: SharpeState, name: str) -> bool:
    return any(horse_key(c.name) == name for c in horses_on_map(state))


def horse_tokens(t: SharpeTables, state: SharpeState) -> tuple[Token, ...]:
    """Each horse without its rider in his side's colours: marked riderless, or out when dead."""
    field = state.field
    if field is None:
        return ()
    found = []
    for c in horses_on_map(state):
        key = horse_key(c.name)
        x, y = field.positions[key]
        mark = "out" if c.horse is not None and c.horse.dead else "riderless"
        found.append(Token(key, c.side, x, y, t.map.mounted_base_radius, field.facing.get(key), (mark,)))
    return tuple(found)
