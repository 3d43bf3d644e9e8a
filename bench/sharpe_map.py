"""Sharpe's Skirmish on the shipped farm map, timed for ``python -m bench.geometry``: a shot's sight,
range and cover measured (A-SHARPE-35: Harris at Martin behind the yard wall), the same shot through
the engine, and a walk over the yard wall through the engine (A-SHARPE-34: the path's obstacle found
and the dexterity check rolled). Six men stand on the map, as in tests/bot/test_sharpe_map_terminal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core import Action, FigureSpec
from rules.sharpe import onmap
from rules.sharpe.engine import SharpeEngine, make_engine
from rules.sharpe.state import SharpeState

#: (name, side, kind, stats, where, facing): the farm in bound 2 of the terminal's skirmish.
MEN = [
    ("Sharpe", "british", "rifle_officer", "I=6 D=5 S=5 C=6 F=10", (14.4, 15.0), 0.0),
    ("Harper", "british", "rifle_sergeant", "I=5 D=4 S=6 C=5 F=10", (14.4, 17.5), 0.0),
    ("Harris", "british", "rifleman", "I=4 D=4 S=3 C=3 F=9", (10.0, 22.0), 0.0),
    ("Leroux", "french", "officer", "I=5 D=4 S=4 C=5 F=7", (33.6, 15.0), 180.0),
    ("Dubois", "french", "voltigeur", "I=4 D=3 S=3 C=3", (42.14, 11.14), 127.0),
    ("Martin", "french", "voltigeur", "I=3 D=3 S=3 C=3", (37.0, 24.0), 210.0),
]


class Dice:
    """These dice in turn, round and round: 3 and 4 hit, 5 is the chest, 4 and 4 a serious wound."""

    def __init__(self, *values: int) -> None:
        self.values, self.next = values, 0

    def roll(self, sides: int, reason: str) -> int:
        value = self.values[self.next % len(self.values)]
        self.next += 1
        return value

    def draw(self, cards: Any, reason: str) -> str:
        raise AssertionError(reason)


def hitting() -> Dice:
    return Dice(3, 4, 5, 4, 4)


def stats(words: str) -> dict[str, Any]:
    return {key: int(value) for key, value in (pair.split("=") for pair in words.split())}


def farm_state(active: str) -> tuple[SharpeEngine, SharpeState]:
    """The six men on the farm, ``active`` to act first."""
    engine = make_engine()
    specs = [FigureSpec(name, side, kind, stats(words)) for name, side, kind, words, _, _ in MEN]
    state = engine.start_on_map(specs, hitting(), engine.scenario("farm")).state
    field = onmap.field_of(state)
    for name, _, _, _, (x, y), facing in MEN:
        field.positions[name], field.facing[name] = [x, y], facing
    state.order = [active, *(name for name, *_ in MEN if name != active)]
    state.active = active
    return engine, state


def sharpe_rows(timed: Callable[[Callable[[], object]], tuple[float, float]]) -> list[tuple[str, tuple[float, float]]]:
    engine, shooting = farm_state("Harris")
    t = engine.tables
    harris, martin = (next(c for c in shooting.characters if c.name == n) for n in ("Harris", "Martin"))
    measured = onmap.measure_shot(t, shooting, harris, [martin])
    shot = Action("shoot", "british", {"target": "Martin"})
    _, walking = farm_state("Martin")
    walk = Action("move", "french", {"pace": "walk", "to": "34.5,22.5"})
    moved = engine.act(walking, walk, Dice(1))
    fired = engine.act(shooting, shot, hitting())
    said = [e.text for e in (*fired.events, *moved.events) if e.kind in ("shot", "check", "move")]
    print(f"Sharpe on the farm: {measured.text}. {' '.join(said)}")
    return [
        ("a Sharpe shot's sight, range and cover", timed(lambda: onmap.measure_shot(t, shooting, harris, [martin]))),
        ("a Sharpe shot through the engine", timed(lambda: engine.act(shooting, shot, hitting()))),
        ("a Sharpe walk over a wall (engine)", timed(lambda: engine.act(walking, walk, Dice(1)))),
    ]
