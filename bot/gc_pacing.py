"""Garbage collection between commands, instead of in the middle of one.

Every interaction leaves a reference cycle behind (discord.py's ``Interaction`` and its
``InteractionResponse`` point at each other), and with it everything hanging off the interaction:
its payload, member, namespace and our reply. Only the cyclic collector frees those. Left to its
thresholds, CPython collects whenever enough containers were allocated, which is in the middle of
some command: in the benchmark (``python -m bench.latency --trace``) a collection of the two young
generations held the event loop about 1.6 ms once every 70 answers or so, a quarter of the bot's
slowest 1%.

So the bot collects the young generations itself, as soon as its last command in flight has
finished: that command's answer is already on its way, and its garbage is all there is to go
through. The full collections (the old generation, every long-lived object) run here too, every
:data:`FULL_EVERY` commands or :data:`FULL_AFTER_S` seconds at such a moment, rather than when
CPython's count says so. The young generations keep their automatic thresholds, for whatever
runs outside commands.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable
from typing import Any

#: Commands between two full collections, taken when no command is in flight. Young collections
#: between commands leave little for the old generation: in the benchmark a full collection found
#: about 200 unreachable objects per 2,000 commands, and took 12 to 20 ms over the bot's 17,000
#: long-lived objects (kept rules states, channel locks). So it runs rarely.
FULL_EVERY = 20_000
#: Commands after which a full collection runs even if the bot was never idle (a steady overload
#: must not keep cyclic garbage in the old generation for ever).
FULL_AT_THE_LATEST = 4 * FULL_EVERY
#: Seconds after which the next idle moment takes a full collection, however few commands came.
FULL_AFTER_S = 600.0
#: CPython's automatic full collections, off: they are taken between commands instead.
NEVER = 1 << 30


class BetweenCommands:
    """Collects garbage when the last command in flight has finished (see the module)."""

    def __init__(
        self,
        full_every: int = FULL_EVERY,
        full_at_the_latest: int = FULL_AT_THE_LATEST,
        full_after_s: float = FULL_AFTER_S,
        clock: Callable[[], float] = time.monotonic,
        collect: Callable[[int], object] = gc.collect,
    ) -> None:
        """``clock`` and ``collect`` (``gc.collect``, called with the oldest generation to go through)
        are the pacing's only contacts with time and the collector, so a test can see its decisions
        without depending on when CPython would have collected anyway."""
        self.full_every = full_every
        self.full_at_the_latest = full_at_the_latest
        self.full_after_s = full_after_s
        self.clock = clock
        self.collect = collect
        self.in_flight = 0
        self.since_full = 0
        self.last_full = clock()
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Take the full collections over from CPython's thresholds."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, _ = self._thresholds
            gc.set_threshold(young, middle, NEVER)

    def stop(self) -> None:
        """CPython's own thresholds again."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def command_started(self, task: asyncio.Future[Any] | None) -> None:
        """A command runs in ``task``: collect after it (and any other in flight) has finished."""
        if task is None or self._thresholds is None:
            return
        self.in_flight += 1
        task.add_done_callback(self._command_done)

    def _command_done(self, _task: asyncio.Future[Any]) -> None:
        self.in_flight -= 1
        self.since_full += 1
        idle = self.in_flight == 0
        due = self.since_full >= self.full_every or self.clock() - self.last_full >= self.full_after_s
        if self.since_full >= self.full_at_the_latest or (idle and due):
            self.since_full, self.last_full = 0, self.clock()
            self.collect(2)
        elif idle:
            self.collect(1)
