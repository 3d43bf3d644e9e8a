"""SSG's random sides: six rifles a side; on a shipped map each side deploys, then moves toward,
away from, or anywhere near the enemy, fights every melee and shoots at every enemy; at a table
(battlefield:table) it types distances, contacts and lines of sight as players would."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bot.selfplay import geometry
from bot.selfplay.moves import Line, OnShippedMaps, quoted
from bot.selfplay.table import Snapshot

SIDES = ("red", "blue")
NAMES = {"red": ["Rossi", "Ada", "Cy", "René", "Eli", "Fay"], "blue": ["Big Jim", "Bo", "Bert", "Ζωή", "Ben", "Bud"]}
WEAPONS = ("rifle", "rifle", "rifle", "smg", "pistol")


class SsgMoves(OnShippedMaps):
    slug = "ssg"
    maps = ("crossroads", "farm", "woodland-edge")

    def roster(self, side: str, rng: random.Random) -> list[str]:
        return [f"/roster add name:{quoted(n)} kind:{rng.choice(WEAPONS)}" for n in NAMES[side]]

    def playing(self, snap: Snapshot, state: Any, side: str, me: str, rng: random.Random) -> list[Line]:
        mine = [f for f in state.figures if f.side == side and not f.removed]
        foes = [f for f in state.figures if f.side != side and not f.removed]
        lines = [Line(me, "/ssg next", 1.0)]
        if state.field is None:
            lines += self._at_table(state, me, mine, foes, rng)
        else:
            lines += self._on_map(snap, state, me, mine, foes, rng)
        return lines

    def _on_map(
        self, snap: Snapshot, state: Any, me: str, mine: list[Any], foes: list[Any], rng: random.Random
    ) -> list[Line]:
        where = geometry.positions(snap.engine, state)
        table = geometry.size(snap.engine, state) or (36.0, 36.0)
        lines = []
        if state.phase == "movement":
            for f in mine:
                if f.moved >= 4 or f.name not in where:
                    continue
                enemy = geometry.nearest(where[f.name], {e.name: where[e.name] for e in foes if e.name in where})
                fig = quoted(f.name)
                if enemy:
                    lines.append(Line(me, f"/ssg move figure:{fig} toward:{quoted(enemy)}", 4.0))
                    lines.append(
                        Line(
                            me,
                            f'/ssg move figure:{fig} to:"{geometry.away(where[f.name], where[enemy], 2, table)}"',
                            0.3,
                        )
                    )
                lines.append(
                    Line(me, f'/ssg move figure:{fig} to:"{geometry.wander(rng, where[f.name], 4, table)}"', 1.0)
                )
        elif state.phase == "melee":
            lines += melees(state, me, mine)
        else:
            lines += shots(me, mine, foes, lambda: "")
        return lines

    def _at_table(self, state: Any, me: str, mine: list[Any], foes: list[Any], rng: random.Random) -> list[Line]:
        lines = []
        if state.phase == "movement":
            for f in mine:
                if f.moved >= 4:
                    continue
                step = round(rng.uniform(0.5, 4 - f.moved), 1)
                lines.append(Line(me, f"/ssg move figure:{quoted(f.name)} distance:{step}", 1.0))
                if foes and rng.random() < 0.5:
                    e = rng.choice(foes)
                    lines.append(
                        Line(me, f"/ssg move figure:{quoted(f.name)} distance:{step} contact:{quoted(e.name)}", 1.0)
                    )
        elif state.phase == "melee":
            lines += melees(state, me, mine)
        else:
            los = ("clear", "clear", "partial", "blocked")
            lines += shots(me, mine, foes, lambda: f" range:{rng.randint(2, 30)} los:{rng.choice(los)}")
        return lines


def melees(state: Any, me: str, mine: list[Any]) -> list[Line]:
    """A melee for every pair in contact, fought by the figure of the side to act."""
    lines = []
    for a, b in state.contacts:
        fighter, opponent = (a, b) if any(f.name == a for f in mine) else (b, a)
        lines.append(Line(me, f"/ssg melee fighter:{quoted(fighter)} opponent:{quoted(opponent)}", 5.0))
    return lines


def shots(me: str, mine: list[Any], foes: list[Any], measures: Callable[[], str]) -> list[Line]:
    """A shot at every enemy by every figure that has not shot, with what a table types (``measures``)."""
    return [
        Line(me, f"/ssg shoot shooter:{quoted(f.name)} target:{quoted(e.name)}{measures()}", 3.0 / len(foes))
        for f in mine
        if not f.shot
        for e in foes
    ]
