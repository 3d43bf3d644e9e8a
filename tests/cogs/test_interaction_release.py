"""A finished command's task lets go of its interaction before the garbage after it is collected:
an interaction still reachable then survived the young collection and waited in the old generation
for a full one, which put 50 MB on the benchmark's peak memory (docs/benchmark.md)."""

from __future__ import annotations

import asyncio
from contextlib import nullcontext
from typing import Any

from bot.adapter.delivery import Deferral
from bot.app.replies import Reply
from bot.app.waiting import WHILE_WAITING
from tests.support import RED, fake_interaction


class Collector:
    """Notes, when each command's task ends, whether the interaction is still held by its deferral."""

    def __init__(self) -> None:
        self.held: list[bool] = []
        self.deferral: Deferral | None = None

    def command_started(self, task: Any) -> None:
        task.add_done_callback(
            lambda _: self.held.append(self.deferral is not None and self.deferral.interaction is not None)
        )


async def test_the_interaction_is_let_go_before_the_collection_after_the_command(bot) -> None:
    collector = Collector()
    bot.collector = collector
    interaction = fake_interaction(bot, RED, "Rita")

    async def command() -> None:
        assert await bot.tree.interaction_check(interaction)
        deferral = WHILE_WAITING.get()
        assert isinstance(deferral, Deferral) and deferral.interaction is interaction  # while it runs
        collector.deferral = deferral

    await asyncio.create_task(command())
    await asyncio.sleep(0)  # the done callbacks run
    assert collector.held == [False]
    assert collector.deferral is not None
    assert isinstance(collector.deferral(Reply()), nullcontext)  # a picture after that defers nothing
