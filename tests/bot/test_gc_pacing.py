"""Garbage collected between commands (bot.gc_pacing): after the last command in flight, a full
collection every so many commands, and CPython's own thresholds back when the bot stops."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest

from bot.gc_pacing import NEVER, BetweenCommands


class Collections(list[int]):
    """The generation of every collection the pacing asks for, in order (it is the pacing's
    ``collect``: what CPython's own thresholds collect meanwhile is not the pacing's doing)."""

    def __call__(self, generation: int) -> int:
        self.append(generation)
        return 0


@pytest.fixture
def collections() -> Iterator[Collections]:
    """A fresh record, and CPython's thresholds as they were afterwards, whatever the test left."""
    kept = gc.get_threshold()
    try:
        yield Collections()
    finally:
        gc.set_threshold(*kept)


async def finish(future: asyncio.Future[None]) -> None:
    future.set_result(None)
    await asyncio.sleep(0)  # done callbacks run on the next turn of the loop


async def test_the_young_generations_are_collected_once_no_command_is_in_flight(collections: Collections) -> None:
    pacing = BetweenCommands(full_every=100, collect=collections)
    pacing.start()
    loop = asyncio.get_running_loop()
    first, second = loop.create_future(), loop.create_future()
    pacing.command_started(first)
    pacing.command_started(second)
    try:
        await finish(first)
        assert collections == []  # the second command is still running
        await finish(second)
        assert collections == [1]
    finally:
        pacing.stop()


async def test_a_full_collection_every_so_many_commands(collections: Collections) -> None:
    pacing = BetweenCommands(full_every=3, collect=collections)
    pacing.start()
    loop = asyncio.get_running_loop()
    try:
        for _ in range(4):
            command = loop.create_future()
            pacing.command_started(command)
            await finish(command)
        assert collections == [1, 1, 2, 1]
    finally:
        pacing.stop()


async def test_a_quiet_bot_gets_a_full_collection_after_a_while(collections: Collections) -> None:
    now = [0.0]
    pacing = BetweenCommands(full_every=1000, full_after_s=600, clock=lambda: now[0], collect=collections)
    pacing.start()
    loop = asyncio.get_running_loop()
    try:
        for minute in (1, 5, 11):
            now[0] = 60.0 * minute
            command = loop.create_future()
            pacing.command_started(command)
            await finish(command)
        assert collections == [1, 1, 2]
    finally:
        pacing.stop()


async def test_a_bot_never_idle_still_gets_its_full_collection(collections: Collections) -> None:
    pacing = BetweenCommands(full_every=2, full_at_the_latest=3, collect=collections)
    pacing.start()
    loop = asyncio.get_running_loop()
    try:
        running = loop.create_future()
        pacing.command_started(running)  # in flight throughout
        for _ in range(3):
            command = loop.create_future()
            pacing.command_started(command)
            await finish(command)
        assert collections == [2]
        await finish(running)
    finally:
        pacing.stop()


def test_it_takes_over_the_full_collections_and_gives_them_back(collections: Collections) -> None:
    gc.set_threshold(700, 10, 10)
    pacing = BetweenCommands()
    pacing.start()
    assert gc.get_threshold() == (700, 10, NEVER)
    pacing.stop()
    assert gc.get_threshold() == (700, 10, 10)


async def test_nothing_is_counted_before_it_starts() -> None:
    pacing = BetweenCommands()
    command = asyncio.get_running_loop().create_future()
    pacing.command_started(command)
    pacing.command_started(None)
    assert pacing.in_flight == 0
    await finish(command)
    assert pacing.in_flight == 0


async def test_the_bot_counts_every_command_its_tree_runs(collections: Collections) -> None:
    from unittest.mock import MagicMock

    import discord

    from bot.adapter.client import SkirmishBot

    bot = SkirmishBot(app=MagicMock())
    assert bot.collector.collect is gc.collect  # the real collector, in the bot
    bot.collector.collect = collections
    bot.collector.start()
    try:
        interaction = MagicMock(spec=discord.Interaction)
        command = asyncio.get_running_loop().create_task(bot.tree.interaction_check(interaction))
        assert await command is True
        assert bot.collector.in_flight == 1
        await asyncio.sleep(0)
        assert bot.collector.in_flight == 0 and collections == [1]
    finally:
        await bot.close()
    assert gc.get_threshold()[2] != NEVER
