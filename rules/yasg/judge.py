"""Reckoning from the tables and the board: classes, numbers needed, who may fire at whom, contacts.

Nothing here rolls a die or changes a state; the phases ask, then act.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from rules.core import RuleError
from rules.words import plural
from rules.yasg.board import Field, Square, distance, edge_key, in_arc, side_towards, square_name
from rules.yasg.data import Band, YasgTables
from rules.yasg.state import YasgFigure, YasgState

IMPOSSIBLE = 11  # a d10 number no die reaches


def field_of(tables: YasgTables, state: YasgState) -> Field:
    """The game's board as geometry, with every figure still in the fight on it."""
    terrain = {(t.x, t.y): t.kind for t in state.terrain}
    uphill = {(t.x, t.y): (tuple(t.uphill) if t.uphill is not None else None) for t in state.terrain}
    edges = {edge_key(e.x, e.y, e.side): e.kind for e in state.edges}
    occupants: dict[Square, tuple[str, str]] = {}
    for f in state.figures:
        if f.standing and f.square is not None:
            occupants[f.square] = (f.name, f.side)
    return Field(
        state.width,
        state.height,
        terrain,
        uphill,
        edges,
        occupants,
        tables.terrain,
        tables.edges,
        tables.movement.uphill_cost,
    )


def extrapolated(table: Mapping[str, int], number: int, letters: list[str]) -> int:
    """The table's number for class ``number`` (A=1); past its last class, one more per class (A-YASG-4)."""
    number = max(1, number)
    if number <= len(letters) and letters[number - 1] in table:
        return table[letters[number - 1]]
    last = max(letters.index(k) + 1 for k in table if k in letters)
    return table[letters[last - 1]] + (number - last)


@dataclass(frozen=True)
class Shot:
    """Everything a shot needs, reckoned before any die is rolled."""

    firer: str
    target: str
    squares: int
    band: str
    firer_class: int
    base_need: int
    modifiers: tuple[tuple[str, int], ...]
    cover: str
    cover_why: str | None

    @property
    def need(self) -> int:
        return self.base_need + sum(v for _, v in self.modifiers)


class Judge:
    def __init__(self, tables: YasgTables) -> None:
        self.t = tables

    # --- classes

    def class_number(self, letter: str) -> int:
        return self.t.class_letters.index(letter) + 1

    def letter(self, number: int) -> str:
        letters = self.t.class_letters
        return letters[number - 1] if 1 <= number <= len(letters) else f"{letters[-1]}+{number - len(letters)}"

    def current_class(self, fig: YasgFigure) -> int:
        """Initial class moved one letter worse per wound point (A-YASG-3, -5: counted once)."""
        return self.class_number(fig.base_class) + fig.wounds * self.t.wounds.class_per_point

    def fallen(self, fig: YasgFigure, turn: int) -> bool:
        return fig.fallen_until >= turn

    # --- morale

    def must_test(self, state: YasgState, fig: YasgFigure) -> str | None:
        """Why the figure tests morale this turn (A-YASG-6), or None."""
        m = self.t.morale
        enemies = [f.square for f in state.figures if f.standing and f.side != fig.side]
        near = [
            sq
            for sq in enemies
            if sq is not None and fig.square and distance(fig.square, sq) <= m.within_squares_of_enemy
        ]
        if near:
            return f"within {m.within_squares_of_enemy} squares of an enemy"
        if fig.wounds and m.wounded_figures_test:
            return "wounded"
        if fig.pinned and m.pinned_figures_test:
            return "pinned"
        return None

    def morale_class(self, fig: YasgFigure) -> tuple[int, list[str]]:
        number, why = self.current_class(fig), []
        if fig.shaken and self.t.morale.shaken_class_penalty:
            number += self.t.morale.shaken_class_penalty
            why.append("ran last turn")
        return number, why

    def shaken_effects(self) -> str:
        """What being shaken (having run last turn) costs a figure, as the tables say (A-YASG-7, -11):
        empty when a campaign's house rules make it cost nothing."""
        morale, firing = self.t.morale.shaken_class_penalty, self.t.firing.modifiers.shaken
        return ", ".join(
            ([f"morale {plural(morale, 'class', 'classes')} worse"] if morale else [])
            + ([f"{firing} more needed to fire"] if firing else [])
        )

    def morale_need(self, number: int) -> int:
        """Pass if the d10 is more than this."""
        return extrapolated(self.t.morale.pass_if_d10_greater_than, number, self.t.class_letters)

    # --- firing

    def band(self, squares: int) -> Band | None:
        return next((b for b in self.t.firing.bands if squares <= b.up_to), None)

    def max_range(self) -> int:
        return self.t.firing.bands[-1].up_to

    def why_cannot_fire(self, state: YasgState, fig: YasgFigure) -> str | None:
        """Why the figure cannot fire at all this fire phase, as the end of a sentence, or None."""
        if fig.out:
            return "is out of the fight"
        if not self.t.weapons[fig.weapon].fires:
            return f"carries a {fig.weapon}, which does not fire"
        if fig.fired:
            return "has already fired this turn"
        if self.fallen(fig, state.turn):
            return "has fallen and is getting up"
        if fig.weapon_state == "misfired":
            return "is clearing a misfire"
        if fig.weapon_state != "loaded":
            return f"has an empty {fig.weapon}: loading takes a whole turn"
        mv = self.t.movement
        allowance = mv.run_and_fire if fig.ran else mv.walk_and_fire
        if fig.moved > allowance:
            pace = "ran" if fig.ran else "walked"
            return f"{pace} {fig.moved} squares this turn; to fire it may move only {allowance}"
        return None

    def shot(self, state: YasgState, field: Field, firer: YasgFigure, target: YasgFigure) -> Shot:
        """The shot reckoned from the board, or a RuleError saying why it cannot be made."""
        if target.side == firer.side:
            raise RuleError(f"{target.name} is on {firer.name}'s own side: fire at an enemy.")
        if not target.standing:
            raise RuleError(f"{target.name} is already out of the fight.")
        a, b = firer.square, target.square
        assert a is not None and b is not None
        squares = distance(a, b)
        band = self.band(squares)
        if band is None:
            raise RuleError(
                f"{target.name} is {squares} squares from {firer.name}, beyond {firer.weapon} range ({self.max_range()})."
            )
        if not in_arc(a, firer.facing, b, self.t.arc_of_fire_degrees):
            raise RuleError(
                f"{target.name} ({square_name(b)}) is outside {firer.name}'s arc of fire facing "
                f"{firer.facing.upper()} from {square_name(a)}: turn it in its movement phase."
            )
        blocked = field.line_of_fire(a, b, self.t.figures_block_fire)
        if blocked:
            raise RuleError(f"{firer.name} cannot see {target.name}: {blocked} is in the way.")
        number = self.current_class(firer)
        mods = self.t.firing.modifiers
        if firer.pinned:
            number += mods.pinned_class
        base = extrapolated_or_impossible(band.need, number, self.t.class_letters)
        cover, why = field.cover(a, b)
        modifiers = []
        if firer.shaken:
            modifiers.append(("ran last turn", mods.shaken))
        if firer.moved:
            modifiers.append(("moved", mods.moved))
        if target.ran:
            modifiers.append(("target ran", mods.target_ran))
        if cover == "soft":
            modifiers.append((f"soft cover, {why}", mods.soft_cover))
        elif cover == "hard":
            modifiers.append((f"hard cover, {why}", mods.hard_cover))
        modifiers = [(k, v) for k, v in modifiers if v]
        return Shot(firer.name, target.name, squares, band.name, number, base, tuple(modifiers), cover, why)

    def targets(self, state: YasgState, field: Field, firer: YasgFigure) -> list[Shot]:
        """Every shot the figure could make now that can hit."""
        found = []
        for target in state.figures:
            if target.side == firer.side or not target.standing:
                continue
            try:
                shot = self.shot(state, field, firer, target)
            except RuleError:
                continue
            if shot.need <= 10:
                found.append(shot)
        return found

    def can_fire_now(self, state: YasgState, field: Field, fig: YasgFigure) -> bool:
        return fig.standing and self.why_cannot_fire(state, fig) is None and bool(self.targets(state, field, fig))

    # --- close combat

    def in_contact(self, field: Field, a: YasgFigure, b: YasgFigure) -> bool:
        """Enemies in orthogonally adjacent squares with no obstruction (A-YASG-15)."""
        if a.side == b.side or not a.standing or not b.standing:
            return False
        assert a.square is not None and b.square is not None
        if distance(a.square, b.square) != 1:
            return False
        return not (self.t.close_combat.walls_block and field.walls_between(a.square, b.square))

    def contacts(self, state: YasgState, field: Field, fig: YasgFigure) -> list[YasgFigure]:
        """The enemies in contact with ``fig``, those it faces first, then north, east, south, west."""
        found = [e for e in state.figures if self.in_contact(field, fig, e)]
        order = {"n": 0, "e": 1, "s": 2, "w": 3}
        here = fig.square
        assert here is not None

        def key(enemy: YasgFigure) -> tuple[int, int]:
            assert enemy.square is not None  # in contact: on the board
            side = side_towards(here, enemy.square)
            return (0 if side == fig.facing else 1, order[side])

        return sorted(found, key=key)

    def combat_class(self, state: YasgState, field: Field, fig: YasgFigure, enemy: YasgFigure) -> tuple[int, list[str]]:
        cc = self.t.close_combat
        number, why = self.current_class(fig), []
        if fig.pinned and cc.pinned_class_penalty:
            number += cc.pinned_class_penalty
            why.append("pinned")
        if self.fallen(fig, state.turn) and cc.fallen_class_penalty:
            number += cc.fallen_class_penalty
            why.append("getting up")
        assert fig.square is not None and enemy.square is not None
        if cc.enemy_height_advantage and field.height_advantage(fig.square, enemy.square):
            number += cc.enemy_height_advantage
            why.append("enemy uphill")
        mine, theirs = self.t.weapons[fig.weapon], self.t.weapons[enemy.weapon]
        if cc.enemy_weapon_advantage and theirs.close_combat > mine.close_combat:
            number += cc.enemy_weapon_advantage
            why.append(f"enemy's {enemy.weapon}")
        return number, why

    def combat_need(self, number: int) -> int:
        return extrapolated(self.t.close_combat.hit_if_d10_at_least, number, self.t.class_letters)

    # --- damage

    def damage(self, face: int) -> Literal["killed", "serious", "minor"]:
        d = self.t.damage_d10
        return "killed" if face in d.killed else "serious" if face in d.serious else "minor"


def extrapolated_or_impossible(need: Mapping[str, int], number: int, letters: list[str]) -> int:
    """A firing-table cell; a class the band has no number for cannot hit (the table's "—")."""
    if 1 <= number <= len(letters) and letters[number - 1] in need:
        return need[letters[number - 1]]
    return IMPOSSIBLE
