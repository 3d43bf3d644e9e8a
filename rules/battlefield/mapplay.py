"""Map play: the part of a battle on the bot's map that every ruleset played on it shares.

SSG, Sharpe, NSR and the medieval rules each compose one :class:`MapPlay` (``engine.map_play``;
None for a ruleset played only on a table or on a board of its own, as YASG's grid): the shipped
maps and a map file checked for the ruleset, the battle's :class:`FieldState` (:func:`field_of`),
and the deployment phase with its one guard: while figures are still to be placed, only placing
them (``place``, ``deploy``), the ruleset's pass action (which deploys the rest of a side) and the
few actions the ruleset allows at any time may be taken. The events of placing have one kind in
every ruleset: :data:`PLACED` for one figure or unit, :data:`DEPLOYED` for a side's, and
:data:`DEPLOYMENT_DONE` once the last is on the map. Whether an action closed a stretch of play (so
its reply shows the map's picture) is read once, by :meth:`MapPlay.moved_on`: never on a table,
always at the deployment's end, and otherwise as the ruleset's own stretches say.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from rules.battlefield.field import FieldState
from rules.battlefield.maps import MapData, load_scenario, read_map, scenario_names
from rules.battlefield.terrain import Terrain
from rules.contract import Event, RuleError
from rules.words import joined

#: The event kind of one figure (or unit) put on the map.
PLACED = "placed"
#: The event kind of a side's figures set out in its zone at once.
DEPLOYED = "deployed"
#: The event kind of the deployment's end: every figure (or unit) is on the map, the battle begins.
DEPLOYMENT_DONE = "deployment-done"
#: The actions that put figures on the map.
PLACING = ("place", "deploy")


class OnMap(Protocol):
    """A battle's state that may be fought on the bot's map: its field, None on a table."""

    @property
    def field(self) -> FieldState | None: ...


S = TypeVar("S", bound=OnMap)


def field_of(state: OnMap) -> FieldState:
    """The battle's map and positions; refused on a table (a map action in a battle without one)."""
    if state.field is None:
        raise RuleError("This battle is played on a table: there is no map.")
    return state.field


@dataclass(frozen=True)
class MapPlay(Generic[S]):
    """One ruleset's map play. ``unplaced`` names what is still to be placed in a state;
    ``deploying`` says whether a state is in its deployment phase (placing before the first turn)."""

    #: The package whose ``maps/`` folder holds the shipped maps (``rules.ssg``).
    package: str
    sides: Sequence[str]
    #: What each kind of terrain does in this ruleset (its tables' ``terrain:``).
    terrain: Terrain
    unplaced: Callable[[S], Sequence[str]]
    deploying: Callable[[S], bool]
    #: What is placed, as the deployment's refusal names it ("figure", "unit").
    pieces: Callable[[S], str] = lambda state: "figure"
    #: The ruleset's pass action: while deploying, it sets out the rest of the acting side.
    pass_action: str | None = None
    #: Actions the ruleset allows while deploying besides placing (describing a building, conceding).
    also_while_deploying: tuple[str, ...] = ()
    #: Whether an action begun in a state, with these events, closed one of the ruleset's stretches
    #: of play after the deployment (a movement phase, a bound, a side's turn).
    stretch_ended: Callable[[S, Sequence[Event]], bool] = lambda before, events: False

    # --- maps ------------------------------------------------------------------------------------

    def scenarios(self) -> list[str]:
        return scenario_names(self.package)

    def scenario(self, name: str) -> MapData:
        """A shipped map by name (``crossroads``)."""
        return load_scenario(self.package, name, self.sides, self.terrain)

    def read_map(self, data: Any) -> MapData:
        """A map file's data (an import, a draft kept between battles), checked for this ruleset."""
        return read_map(data, self.sides, self.terrain)

    def field_of(self, state: S) -> FieldState | None:
        """The battle's map and positions; None on a table."""
        return state.field

    # --- the deployment phase --------------------------------------------------------------------

    def while_deploying(self, state: S, name: str) -> bool:
        """The guard of the deployment phase, for :meth:`rules.base.Engine.check_turn`: True when
        ``name`` is the pass action taken while deploying (the side taking it is the one acting,
        whoever is to place next); a RuleError for anything else but placing and the actions
        allowed meanwhile. False outside the deployment phase."""
        if not self.deploying(state):
            return False
        if name == self.pass_action:
            return True
        if name in PLACING or name in self.also_while_deploying:
            return False
        raise RuleError(self.deployment_sentence(state))

    def deployment_sentence(self, state: S) -> str:
        """Why nothing but placing may be done yet."""
        return (
            f"The battle begins once every {self.pieces(state)} is on the map: "
            f"still to place {joined(list(self.unplaced(state)))} (/map place or /map deploy)."
        )

    def moved_on(self, before: S, events: Sequence[Event]) -> bool:
        """Whether an action begun in ``before`` closed a stretch of play figures moved in, so its
        reply shows the map's picture: the deployment's end, or one of the ruleset's stretches;
        never in a battle on a table."""
        if before.field is None:
            return False
        return any(e.kind == DEPLOYMENT_DONE for e in events) or self.stretch_ended(before, events)

    def actions_now(self, state: S, actions: Sequence[str]) -> tuple[str, ...]:
        """Of ``actions`` (what the phase offers otherwise), what may be taken now: placing while
        deploying, then everything else but placing."""
        if self.deploying(state):
            return PLACING
        return tuple(name for name in actions if name not in PLACING)
