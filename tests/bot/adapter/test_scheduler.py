"""The pace scheduler with a fake clock: reminders and timeouts posted once, across restarts and
with two bot processes on one database; the bot's poster pings only the players meant."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.adapter.delivery import channel_poster
from bot.adapter.scheduler import PaceScheduler, poll_interval
from bot.app.replies import Card, PendingDecision, Reply
from bot.app.service import App
from bot.store import Store
from bot.store.database import Database
from rules.core import Choice
from tests.named_app import NamedApp
from tests.support import BLUE, CHANNEL, GM, RED, caller, ssg_table

T0 = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)
H = timedelta(hours=1)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def at(self, hours: float) -> None:
        self.now = T0 + H * hours


class Posts:
    """A stand-in for the channel: what was posted where, and a switch to make posting fail."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, Reply]] = []
        self.failing = False

    async def __call__(self, channel_id: int, reply: Reply) -> None:
        if self.failing:
            raise RuntimeError("Discord is down")
        self.sent.append((channel_id, reply))

    def titles(self) -> list[str]:
        return [reply.cards[0].title for _, reply in self.sent]


def scheduler(app: App, clock: Clock, posts: Posts) -> PaceScheduler:
    app.pace_clock = clock
    return PaceScheduler(app, posts, poll=0.01)


async def test_a_tick_posts_the_reminder_then_the_timeout_each_once(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock, posts = Clock(), Posts()
    pace = scheduler(app, clock, posts)
    await app.set_deadline(caller(GM), 24, "pass")
    for hours in (0, 10, 17.9):
        clock.at(hours)
        assert await pace.tick() == []
    clock.at(18)
    [reminder] = await pace.tick()
    assert reminder.channel_id == CHANNEL and reminder.reply.ping_user_ids == [RED]
    assert await pace.tick() == []
    clock.at(24)
    [timeout] = await pace.tick()
    assert timeout.reply.cards[0].title == "⏰ Deadline passed: red's turn" and timeout.reply.ping_user_ids == [BLUE]
    assert await pace.tick() == []
    assert posts.titles() == ["⏰ Reminder: red's turn", "⏰ Deadline passed: red's turn"]
    clock.at(24 + 18)  # blue's clock started when red's turn was passed
    [blue] = await pace.tick()
    assert blue.reply.ping_user_ids == [BLUE] and "blue's turn" in blue.reply.content


async def test_a_reminder_not_posted_is_tried_again_and_a_timeout_is_not(app: App, forced, caplog) -> None:
    await ssg_table(app, forced)
    clock, posts = Clock(), Posts()
    pace = scheduler(app, clock, posts)
    await app.set_deadline(caller(GM), 4, "pass")
    posts.failing = True
    clock.at(3)
    with caplog.at_level(logging.WARNING, "skirmish_gm.scheduler"):
        assert await pace.tick() == []
    assert "trying again later" in caplog.text
    posts.failing = False
    clock.at(3.1)
    assert [n.reply.ping_user_ids for n in await pace.tick()] == [[RED]]
    posts.failing = True
    clock.at(4)
    with caplog.at_level(logging.WARNING, "skirmish_gm.scheduler"):
        assert len(await pace.tick()) == 1  # applied (it is in the game's log) though not posted
    assert "could not be posted" in caplog.text
    posts.failing = False
    assert await pace.tick() == [] and len(posts.sent) == 1


async def test_two_bot_processes_on_one_database_send_each_once(app: App, database: Database, forced) -> None:
    await ssg_table(app, forced)
    other_db = await Database.open(database.url, upgrade=False)
    try:
        other = NamedApp(Store(other_db), lambda: forced)
        clock, posts = Clock(), Posts()
        first, second = scheduler(app, clock, posts), scheduler(other, clock, posts)
        await app.set_deadline(caller(GM), 8, "pass")
        clock.at(6)
        await asyncio.gather(first.tick(), second.tick(), first.tick(), second.tick())
        clock.at(8)
        await asyncio.gather(first.tick(), second.tick(), first.tick(), second.tick())
        assert posts.titles() == ["⏰ Reminder: red's turn", "⏰ Deadline passed: red's turn"]
    finally:
        await other_db.close()


async def test_after_a_restart_what_fell_due_is_caught_up_once(app: App, database: Database, forced) -> None:
    await ssg_table(app, forced)
    clock, posts = Clock(), Posts()
    before = scheduler(app, clock, posts)
    await app.set_deadline(caller(GM), 24, "gm")
    clock.at(1)
    assert await before.tick() == []
    await database.close()  # the bot goes down; a new process opens the database a day and more later
    reopened = await Database.open(database.url)
    try:
        restarted = NamedApp(Store(reopened), lambda: forced)
        clock.at(30)
        again = scheduler(restarted, clock, posts)
        [caught_up] = await again.tick()
        # The reminder's moment passed with the deadline: the timeout comes, not a late reminder.
        assert caught_up.reply.cards[0].title == "⏰ Deadline passed: red's turn"
        assert caught_up.reply.ping_user_ids == [GM]
        assert await again.tick() == []
        assert posts.titles() == ["⏰ Deadline passed: red's turn"]
    finally:
        await reopened.close()


async def test_start_runs_ticks_in_the_background_and_stop_ends_them(app: App, forced) -> None:
    await ssg_table(app, forced)
    clock, posts = Clock(), Posts()
    pace = scheduler(app, clock, posts)
    await app.set_deadline(caller(GM), 1, "gm")
    clock.at(2)
    pace.start()
    try:
        async with asyncio.timeout(60):  # the first tick, in the background: however long it takes
            while not posts.sent:
                await asyncio.sleep(0.01)
    finally:
        await pace.stop()
    assert posts.titles() == ["⏰ Deadline passed: red's turn"]
    assert pace._task is None


def test_the_poll_follows_the_length_of_an_hour() -> None:
    assert poll_interval(timedelta(hours=1)) == 30.0
    assert poll_interval(timedelta(seconds=24)) == 0.2
    assert poll_interval(timedelta(minutes=10)) == 5.0


async def test_the_bots_poster_mentions_only_the_pinged_players_and_adds_buttons() -> None:
    channel = MagicMock()
    channel.send = AsyncMock()
    bot = MagicMock(spec=discord.Client)
    bot.get_channel.return_value = None
    bot.get_partial_messageable.return_value = channel
    post = channel_poster(bot)
    decision = PendingDecision(
        7, "red", (RED,), "Go first?", (Choice("first", "Go first"), Choice("second", "Go second"))
    )
    reply = Reply(
        cards=[Card(title="⏰", description="@everyone <@99>")],
        content=f"<@{RED}> @everyone",
        ping_user_ids=[RED],
        decision=decision,
    )
    await post(CHANNEL, reply)
    bot.get_partial_messageable.assert_called_once_with(CHANNEL)
    kwargs: dict[str, Any] = channel.send.await_args.kwargs
    mentions = kwargs["allowed_mentions"]
    assert mentions.everyone is False and mentions.roles is False
    assert [u.id for u in mentions.users] == [RED]
    assert [item.custom_id for item in kwargs["view"].children] == ["decision:7:0", "decision:7:1"]
    await post(CHANNEL, Reply(cards=[Card(title="note")]))
    assert channel.send.await_args.kwargs["allowed_mentions"].users is False
    assert "view" not in channel.send.await_args.kwargs
