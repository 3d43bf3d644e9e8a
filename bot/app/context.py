"""What the parts of the application share: the store, the dice, the clock, and per-process upkeep."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.app.loaded_states import LoadedStates
from bot.app.pictures import Pictures
from bot.app.replies import Caller
from bot.store import Store
from rules.core import DiceSource


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
