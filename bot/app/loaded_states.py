"""Rules states this process has already built, so the commands players send most skip rebuilding them.

``engine.load_state`` builds a game's state from the saved JSON and holds it to the engine's own
checks; in the bot that was a fifth of an action's work (``python -m bench.latency``). A game's
``version`` changes with every write of its state (the ORM's version counter and the plain
``SAVE_STATE`` alike, each checking the version it read), so the state kept for a game at a version
is what the row holds for as long as the row says that version. A state is kept only when it was
read from the row, or after the transaction that wrote it committed: a write that rolled back never
leaves its state here. Games are never deleted, so an id is never reused for another game.

Engines never change a state they are given (every ruleset's tests hold ``act`` to that), so one
object serves every command until the game moves on. A state is kept with the engine that built it:
a campaign whose house rules changed has another engine, and its states are built and checked again.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Protocol

from rules.core import Engine

#: Games kept at the most: a kept state is a couple of kilobytes.
CAPACITY = 4096


class SavedGame(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def state(self) -> Any: ...


class LoadedStates:
    """The newest state this process saw of each game it serves, least recently used dropped first."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[int, tuple[int, Engine[Any], Any]] = OrderedDict()

    def load(self, engine: Engine[Any], game: SavedGame) -> Any:
        """``engine.load_state(game.state)``, built once per game and version.

        Only for a game as committed: read in this transaction before anything changed it. A game
        this transaction wrote (a turn passed step by step under one lock, say) is not committed
        yet, and its state must not be kept: load that with the engine itself.
        """
        kept = self._kept.get(game.id)
        if kept is not None and kept[0] == game.version and kept[1] is engine:
            self._kept.move_to_end(game.id)
            return kept[2]
        state = engine.load_state(game.state)
        self.keep(game.id, game.version, engine, state)
        return state

    def keep(self, game_id: int, version: int, engine: Engine[Any], state: Any) -> None:
        """``state`` is what game ``game_id`` holds at ``version`` (committed), built by ``engine``."""
        self._kept[game_id] = (version, engine, state)
        self._kept.move_to_end(game_id)
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)
