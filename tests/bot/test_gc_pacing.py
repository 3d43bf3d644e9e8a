"""Garbage collected between commands (bot.gc_pacing): after the last command in flight, a full
collection every so many commands, and CPython's own thresholds back when the bot stops."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest

from bot.gc_pacing import NEVER, BetweenCommands


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of every collection run while the test runs."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    thresholds = gc.get_threshold()
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*thresholds)


async def finish(future: asyncio.Future[None]) -> None:
    future.set_result(None)
    await asyncio.sleep(0)  # done callbacks run on the next turn of the loop


async def test_the_young_generations_are_collected_once_no_command_is_in_flight(collections: list[int]) -> None:
    pacing = BetweenCommands(full_every=100)
    pacing.start()
    loop = asyncio.get_running_loop()
    first, second = loop.create_future(), loop.create_future()
    pacing.command_started(first)
    pacing.command_started(second)
    gc.disable()  # only the collections the pacing asks for
    try:
        await finish(first)
        assert collections == []  # the second command is still running
        await finish(second)
        assert collections == [1]
    finally:
        gc.enable()
        pacing.stop()


async def test_a_full_collection_every_so_many_commands(collections: list[int]) -> None:
    pacing = BetweenCommands(full_every=3)
    pacing.start()
    loop = asyncio.get_running_loop()
    gc.disable()
    try:
        for _ in range(4):
            command = loop.create_future()
            pacing.command_started(command)
            await finish(command)
        assert collections == [1, 1, 2, 1]
    finally:
        gc.enable()
        pacing.stop()


async def test_a_quiet_bot_gets_a_full_collection_after_a_while(collections: list[int]) -> None:
    now = [0.0]
    pacing = BetweenCommands(full_every=1000, full_after_s=600, clock=lambda: now[0])
    pacing.start()
    loop = asyncio.get_running_loop()
    gc.disable()
    try:
        for minute in (1, 5, 11):
            now[0] = 60.0 * minute
            command = loop.create_future()
            pacing.command_started(command)
            await finish(command)
        assert collections == [1, 1, 2]
    finally:
        gc.enable()
        pacing.stop()


async def test_a_bot_never_idle_still_gets_its_full_collection(collections: list[int]) -> None:
    pacing = BetweenCommands(full_every=2, full_at_the_latest=3)
    pacing.start()
    loop = asyncio.get_running_loop()
    gc.disable()
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
        gc.enable()
        pacing.stop()


def test_it_takes_over_the_full_collections_and_gives_them_back(collections: list[int]) -> None:
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


async def test_the_bot_counts_every_command_its_tree_runs(collections: list[int]) -> None:
    from unittest.mock import MagicMock

    import discord

    from bot.adapter.client import SkirmishBot

    bot = SkirmishBot(app=MagicMock())
    bot.collector.start()
    try:
        interaction = MagicMock(spec=discord.Interaction)
        command = asyncio.get_running_loop().create_task(bot.tree.interaction_check(interaction))
        assert await command is True
        assert bot.collector.in_flight == 1
        await asyncio.sleep(0)
        assert bot.collector.in_flight == 0 and 1 in collections
    finally:
        await bot.close()
    assert gc.get_threshold()[2] != NEVER
