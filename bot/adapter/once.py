"""Each interaction answered once: a repeated delivery of one this process has taken is dropped.

Discord may deliver an interaction again (a resumed gateway session replays its events), and it
takes one first response per interaction: a second is refused (40060), and a command run twice
may do its work twice (``/odds`` deferred an interaction already answered, a traceback, and sent
two more answers). A repeat of an action already applied is recognised by the store, across
restarts and processes (the log keeps the interaction's id: ``Reply.replayed``); this covers the
rest (reads, refusals, ``/odds``, clicks) for as long as Discord lets an interaction be answered.

Only this process's memory: with several processes (issue 29) a guild's interactions reach the
one that holds its shard, and a repeat that reaches another after its shard moved is answered
again, refused by Discord with 40060, and logged quietly by :func:`bot.adapter.delivery.deliver`.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable

import discord

log = logging.getLogger("skirmish_gm.once")

#: Seconds an interaction is remembered: Discord's interaction token lives 15 minutes, after which
#: nothing can answer it anyway.
REMEMBERED = 15 * 60.0
#: Interactions remembered at the most (a few megabytes of ids at the most; the oldest go first).
CAPACITY = 100_000
#: The mark an interaction object carries once it was let through: the same delivery asked again
#: (a next-move button runs its command's checks) is still the first.
FIRST = "first_delivery"


class Deliveries:
    """The interactions taken lately, by id, each forgotten ``REMEMBERED`` seconds after it came."""

    def __init__(
        self,
        remembered: float = REMEMBERED,
        capacity: int = CAPACITY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.remembered = remembered
        self.capacity = capacity
        self.clock = clock
        self._seen: OrderedDict[int, float] = OrderedDict()

    def first(self, interaction_id: int) -> bool:
        """Whether ``interaction_id`` comes for the first time (it is remembered from now on)."""
        now = self.clock()
        while self._seen and (
            len(self._seen) >= self.capacity or next(iter(self._seen.values())) <= now - self.remembered
        ):
            self._seen.popitem(last=False)
        if interaction_id in self._seen:
            return False
        self._seen[interaction_id] = now
        return True

    def __len__(self) -> int:
        return len(self._seen)


def first_delivery(interaction: discord.Interaction) -> bool:
    """Whether to handle ``interaction``: not when it is a repeat of one this process has taken."""
    if interaction.extras.get(FIRST):
        return True
    deliveries = getattr(interaction.client, "deliveries", None)
    if not isinstance(deliveries, Deliveries) or deliveries.first(interaction.id):
        interaction.extras[FIRST] = True
        return True
    log.info("interaction %s was delivered again: it is answered once, not twice", interaction.id)
    return False


class AnsweredOnce:
    """For a persistent button or select (a ``DynamicItem``): a repeated click is not handled again."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return first_delivery(interaction)
