"""YASG's random sides on the bot's square board: eight figures a side placed on their home rows
(the board sometimes changed first), then each phase as the rules run it: morale and initiative
with /yasg next, moves (walk or run) toward, away from or across the enemy, turns, loading, fire at
every enemy, close combat with every adjacent enemy."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay.moves import Line, Setting, player_of, quoted
from bot.selfplay.table import Snapshot
from rules.yasg.board import distance, facing_towards, parse_square, square_name
from rules.yasg.judge import field_of

ROSTERS = {
    "british": [
        ("Sharpe", "A", True),
        ("Harper", "B", False),
        ("Hagman", "A", False),
        ("Harris", "B", False),
        ("Perkins", "C", False),
        ("Cooper", "C", False),
        ("Tongue", "D", False),
        ("Dodd", "D", False),
    ],
    "french": [
        ("Ducos", "B", True),
        ("Leroux", "C", False),
        ("Masson", "C", False),
        ("Vidal", "D", False),
        ("Morel", "C", False),
        ("Girard", "D", False),
        ("Lebrun", "C", False),
        ("Pétain", "D", False),
    ],
}
FACINGS = ("north", "east", "south", "west")


class YasgMoves:
    slug = "yasg"

    def settings(self) -> list[Setting]:
        return [Setting(None, False)]

    def roster(self, side: str, rng: random.Random) -> list[str]:
        lines = []
        for name, kind, leader in ROSTERS[side]:
            lines.append(f"/roster add name:{quoted(name)} kind:{kind}" + (' stats:"leader=yes"' if leader else ""))
        return lines

    def before_start(self, setting: Setting) -> list[Line]:
        return []

    def options(self, snap: Snapshot, state: Any, rng: random.Random) -> list[Line]:
        turn = snap.engine.whose_turn(state)
        if turn is None:
            return []
        me = player_of(turn)
        mine = [f for f in state.figures if f.side == turn and not f.out]
        foes = [f for f in state.figures if f.side != turn and not f.out and f.square is not None]
        if state.phase == "setup":
            return self._setup(state, turn, me, mine, rng)
        lines = [Line(me, "/yasg next", 1.0)]
        if state.phase == "movement":
            may_move = set(snap.engine.ready(state, turn))
            taken = {f.square for f in state.figures if f.square is not None and not f.out}
            for f in mine:
                if f.name not in may_move or f.square is None:
                    continue
                fig = quoted(f.name)
                target = min(foes, key=lambda e: distance(f.square, e.square), default=None)
                if target is not None:
                    for pace, steps in (("walk", 2), ("run", 4), ("walk", 1)):
                        square = self._step_toward(state, f.square, target.square, steps)
                        if parse_square(square, state.width, state.height) in taken and rng.random() < 0.9:
                            continue
                        facing = facing_towards(parse_square(square, state.width, state.height), target.square)
                        move = f"/yasg move figure:{fig} to:{square} pace:{pace} facing:{facing}"
                        lines.append(Line(me, move, 2.0))
                    turned = facing_towards(f.square, target.square)
                    if turned != f.facing:
                        lines.append(Line(me, f"/yasg face figure:{fig} facing:{turned}", 1.0))
                    back = self._step_toward(state, f.square, target.square, -2)
                    lines.append(Line(me, f"/yasg move figure:{fig} to:{back}", 0.3))
                lines.append(Line(me, f"/yasg face figure:{fig} facing:{rng.choice(FACINGS)}", 0.3))
                lines.append(Line(me, f"/yasg load figure:{fig}", 0.2))
        elif state.phase == "fire":
            field = field_of(snap.engine.t, state)  # type: ignore[attr-defined]
            for f in mine:
                if f.standing and snap.engine.judge.why_cannot_fire(state, f) is None:  # type: ignore[attr-defined]
                    for shot in snap.engine.judge.targets(state, field, f):  # type: ignore[attr-defined]
                        lines.append(Line(me, f"/yasg fire figure:{quoted(f.name)} target:{quoted(shot.target)}", 5.0))
                for e in foes:
                    lines.append(
                        Line(me, f"/yasg fire figure:{quoted(f.name)} target:{quoted(e.name)}", 0.3 / len(foes))
                    )
        elif state.phase == "close combat" and turn not in state.done:
            for f in mine:
                for e in foes:
                    if f.square is not None and distance(f.square, e.square) <= 1:
                        lines.append(Line(me, f"/yasg engage figure:{quoted(f.name)} target:{quoted(e.name)}", 4.0))
        if foes and mine and rng.random() < 0.1:
            lines.append(
                Line(
                    me, f"/yasg look figure:{quoted(rng.choice(mine).name)} target:{quoted(rng.choice(foes).name)}", 0.2
                )
            )
        return lines

    def _setup(self, state: Any, side: str, me: str, mine: list[Any], rng: random.Random) -> list[Line]:
        unplaced = [f for f in mine if f.square is None]
        if not unplaced:
            return [Line(me, "/yasg next")]
        lines = []
        if not any(f.square is not None for f in state.figures):
            lines.append(Line("GM", '/yasg board map:"open field"', 0.05))
        taken = {f.square for f in state.figures if f.square is not None}
        rows = (state.height - 1, state.height - 2) if side == state.sides[0] else (0, 1)
        facing = "north" if side == state.sides[0] else "south"
        free = [(x, y) for y in rows for x in range(state.width) if (x, y) not in taken]
        f = unplaced[0]
        for square in rng.sample(free, min(3, len(free))):
            lines.append(
                Line(me, f"/yasg place figure:{quoted(f.name)} square:{square_name(square)} facing:{facing}", 1.0)
            )
        return lines

    @staticmethod
    def _step_toward(state: Any, start: tuple[int, int], goal: tuple[int, int], steps: int) -> str:
        """The square ``steps`` squares from ``start`` toward ``goal`` (away, when negative)."""
        x, y = start
        for _ in range(abs(steps)):
            dx = (goal[0] > x) - (goal[0] < x)
            dy = (goal[1] > y) - (goal[1] < y)
            if steps < 0:
                dx, dy = -dx, -dy
            if dx and dy:
                dx, dy = (dx, 0) if abs(goal[0] - x) >= abs(goal[1] - y) else (0, dy)
            x, y = min(max(x + dx, 0), state.width - 1), min(max(y + dy, 0), state.height - 1)
        return square_name((x, y))
