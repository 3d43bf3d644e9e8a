"""What the parts of the application share: the store, the dice, the clock, and per-process upkeep."""

from __future__ import annotations

import asyncio
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.app.pictures import Pictures
from bot.app.replies import Caller
from bot.store import Store
from rules.core import DiceSource, Engine


def utcnow() -> datetime:
    return datetime.now(UTC)


class ChannelLocks:
    """Commands in one channel run one at a time in this process (the database serialises across
    processes, and this keeps one channel's commands from queueing on its lock in turn)."""

    def __init__(self) -> None:
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    def of(self, caller: Caller) -> asyncio.Lock:
        return self._locks[caller.channel_id]

    def of_channel(self, channel_id: int) -> asyncio.Lock:
        return self._locks[channel_id]


#: Games whose states are kept at the most: a kept state is a couple of kilobytes.
STATES_KEPT = 4096


class SavedGame(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def state(self) -> Any: ...


class LoadedStates:
    """The rules states this process has already built, so the commands players send most skip
    rebuilding them: the newest state it saw of each game it serves, least recently used dropped
    first.

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

    def __init__(self, capacity: int = STATES_KEPT) -> None:
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


@dataclass
class Context:
    """Built once per :class:`bot.app.service.App` and handed to each of its parts.

    ``dice`` makes the dice for one command (the secure source in Discord; forced or seeded ones
    only in tests and at the terminal); ``clock`` is the time of day in UTC. ``states`` and
    ``pictures`` keep what this process built lately (game states, battlefield pictures).
    """

    store: Store
    dice: Callable[[], DiceSource]
    clock: Callable[[], datetime] = utcnow
    locks: ChannelLocks = field(default_factory=ChannelLocks)
    states: LoadedStates = field(default_factory=LoadedStates)
    pictures: Pictures = field(default_factory=Pictures)
