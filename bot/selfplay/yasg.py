"""YASG's random sides on the bot's square board: eight figures a side placed on their home rows
(the board sometimes changed first), then each phase as the rules run it, from the ruleset's
action specs: morale and initiative with /yasg next, moves (walk or run) toward or away from the
enemy, turns, loading, fire at every enemy it can hit, close combat with every adjacent enemy."""

from __future__ import annotations

import random
from typing import Any

from bot.selfplay.moves import Line, Setting, candidate_line, player_of, quoted
from bot.selfplay.table import Snapshot
from rules.specs import Role

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
#: The specs whose candidates a side's player types (every one but the look, a question).
TYPED = (Role.PLAY, Role.PASS)


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
        """What the ruleset's specs offer the side to act on the grid, with a few lines no spec
        offers: the game master changing the board before anyone is placed, shots at whoever (most
        refused), and a look now and then."""
        engine = snap.engine
        turn = engine.whose_turn(state)
        if turn is None:
            return []
        me = player_of(turn)
        lines = [
            Line(me, candidate_line(self.slug, c), c.weight)
            for spec in engine.specs.values()
            if spec.role in TYPED
            for c in spec.candidates(engine, state, turn)
        ]
        mine = [f for f in state.figures if f.side == turn and not f.out]
        foes = [f for f in state.figures if f.side != turn and not f.out and f.square is not None]
        if state.phase == "setup":
            if not any(f.square is not None for f in state.figures):
                lines.append(Line("GM", '/yasg board map:"open field"', 0.05))
            return lines
        if state.phase == "fire":
            for f in mine:
                for e in foes:
                    lines.append(
                        Line(me, f"/yasg fire figure:{quoted(f.name)} target:{quoted(e.name)}", 0.3 / len(foes))
                    )
        if foes and mine and rng.random() < 0.1:
            lines.append(
                Line(
                    me, f"/yasg look figure:{quoted(rng.choice(mine).name)} target:{quoted(rng.choice(foes).name)}", 0.2
                )
            )
        return lines
