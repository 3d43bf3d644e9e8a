"""What a ruleset's random side is made of: one small interface, one module per ruleset.

A :class:`Moves` knows the lines that set a battle up (rosters, deployment) and, given the saved
game, the lines its sides might type now, each with a weight (the aggressive lean: shots, charges
and moves toward the enemy weigh more than moves away). The battle loop picks one at random,
after any decision waiting and any ``/decide`` it needs. Issue 27 will declare every action once in
the rulesets; then these modules give way to that declaration.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from bot.app.entries import command_line
from bot.selfplay.table import Snapshot
from rules.specs import Candidate


@dataclass(frozen=True)
class Line:
    """A command line a side may type, how much the random side likes it, and whether a refusal
    of it is expected (a guess at a table's distance) rather than a sign of a wrong hint."""

    player: str
    text: str
    weight: float = 1.0


def player_of(side: str) -> str:
    """The terminal player who plays ``side`` (one per side)."""
    return side.capitalize()


@dataclass(frozen=True)
class Setting:
    """Where a battle is fought: a shipped map's slug, ``table`` (typed distances), or the
    ruleset's own board (None)."""

    map: str | None
    table: bool


class Moves(Protocol):
    slug: str

    def settings(self) -> Sequence[Setting]:
        """Where this ruleset's battles may be fought."""
        ...

    def roster(self, side: str, rng: random.Random) -> list[str]:
        """The ``/roster add`` lines of one side (typed by its player)."""
        ...

    def before_start(self, setting: Setting) -> list[Line]:
        """Lines after the rosters and before ``/game start`` (a map, a board)."""
        ...

    def options(self, snap: Snapshot, state: Any, rng: random.Random) -> list[Line]:
        """The lines the side to act might type now."""
        ...


class OnShippedMaps:
    """A ruleset's random side whose battles are fought on its shipped maps or at a table, with fixed
    rosters: what each ruleset's module gives is ``maps`` and ``rosters``, and its ``options``."""

    maps: tuple[str, ...] = ()
    rosters: ClassVar[dict[str, list[str]]] = {}

    def settings(self) -> list[Setting]:
        return [Setting(m, False) for m in self.maps] + [Setting(None, True)]

    def roster(self, side: str, rng: random.Random) -> list[str]:
        return list(self.rosters[side])

    def before_start(self, setting: Setting) -> list[Line]:
        return [Line("GM", f"/map new scenario:{setting.map}")] if setting.map else []

    def options(self, snap: Snapshot, state: Any, rng: random.Random) -> list[Line]:
        """Deploying on the map while figures wait to be placed; then the ruleset's own lines."""
        turn = snap.engine.whose_turn(state)
        if turn is None:
            return []
        if state.phase == "deployment":
            return [Line(player_of(turn), "/map deploy")]
        return self.playing(snap, state, turn, player_of(turn), rng)

    def playing(self, snap: Snapshot, state: Any, turn: str, me: str, rng: random.Random) -> list[Line]:
        """The lines ``turn``'s player (``me``) might type once the battle is under way."""
        raise NotImplementedError


def pick(rng: random.Random, lines: Sequence[Line]) -> Line:
    return rng.choices(list(lines), weights=[max(line.weight, 0.0) for line in lines])[0]


def candidate_line(slug: str, candidate: Candidate) -> str:
    """A ruleset's candidate action as its player types it: ``/sharpe shoot target:Dubois``."""
    return command_line(slug, candidate.action, candidate.params)


def quoted(name: str) -> str:
    """A name as an option's value on the command line."""
    return f'"{name}"' if " " in name or ":" in name else name


def standing(engine: Any, state: Any) -> set[str]:
    """The figures (or units) still in the fight, as the status board lists them."""
    return {line.name for line in engine.board(state).figures if not line.out}
