"""An artillery piece's base on the bot's map (A-SHARPE-47): the room it takes up, its place in the
deployment and its token in the picture. Kept apart from :mod:`rules.sharpe.onmap`, which asks it
for the guns alongside the characters; what a gun does on the map is :mod:`rules.sharpe.guns_onmap`."""

from __future__ import annotations

from rules.battlefield import Token
from rules.battlefield.deployment import Piece
from rules.sharpe.schema import SharpeTables
from rules.sharpe.state import Gun, SharpeState


def gun_radius(t: SharpeTables) -> float:
    return t.map.gun_base_radius


def gun_radii(t: SharpeTables, state: SharpeState) -> dict[str, float]:
    """Every gun takes up room (the rules never destroy one)."""
    return {g.name: gun_radius(t) for g in state.guns}


def gun_pieces(t: SharpeTables, state: SharpeState) -> list[Piece]:
    return [Piece(g.name, g.side, gun_radius(t)) for g in state.guns]


def unplaced_guns(state: SharpeState) -> list[str]:
    field = state.field
    if field is None:
        return []
    return [g.name for g in state.guns if g.name not in field.positions]


def gun_named(state: SharpeState, name: str) -> Gun | None:
    return next((g for g in state.guns if g.name == name), None)


def side_of(state: SharpeState, name: str) -> str | None:
    """The side of a character or a gun, by exact name."""
    for ch in state.characters:
        if ch.name == name:
            return ch.side
    gun = gun_named(state, name)
    return gun.side if gun is not None else None


def gun_marks(gun: Gun) -> tuple[str, ...]:
    """The picture's badge: a gun that is not loaded has "no ammo" until it is."""
    return () if gun.loaded else ("no ammo",)


def gun_tokens(t: SharpeTables, state: SharpeState) -> tuple[Token, ...]:
    field = state.field
    if field is None:
        return ()
    return tuple(
        Token(g.name, g.side, xy[0], xy[1], gun_radius(t), field.facing.get(g.name), gun_marks(g))
        for g in state.guns
        if (xy := field.positions.get(g.name)) is not None
    )
