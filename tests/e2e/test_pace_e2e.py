"""Play-by-chat pace through the loopback Discord, with the real bot process.

A deadline hour lasts sixteen seconds here (``SKIRMISH_GM_HOUR_SECONDS``, read by the bot): the
reminder comes at 3/4 of the deadline and only while it has not passed, so the last quarter (4 s of
an hour) must hold one of the scheduler's looks even when a loaded machine keeps the bot waiting
for a core. The game
master sets the deadline with ``/campaign deadline``; the bot's scheduler posts the reminder and the
timeout in the campaign's channel with its REST client, and the fake records them. One deadline
falls due while the bot is down and is caught up once on restart.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import select

from bot.app.replies import Caller
from bot.store.schema import Deadline, Game, utcnow
from rules import get_engine
from tests.e2e.fake_discord import FakeDiscord, FakeMessage, FakeUser
from tests.e2e.seeding import new_table, seed_ssg, seeded_app
from tests.orm import orm

HOUR_SECONDS = 16.0
pytestmark = pytest.mark.bot_env(SKIRMISH_GM_HOUR_SECONDS=str(HOUR_SECONDS))


def bot_posts(fake: FakeDiscord, channel: Any, words: str) -> list[FakeMessage]:
    """Channel messages the bot posted itself (not answers to an interaction) holding ``words``."""
    return [m for m in fake.messages_in(channel) if m.interaction is None and m.author.bot and words in m.text]


async def test_reminder_timeout_and_a_restart_in_the_channel(fake: FakeDiscord, bot: Any) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    try:
        await seed_ssg(app, fake, table)
        async with orm(app.store.db) as s:
            game = await s.scalar(select(Game))
        first = get_engine("ssg").whose_turn(get_engine("ssg").load_state(game.state))
        second = "blue" if first == "red" else "red"
        players: dict[str, FakeUser] = {"red": table.red, "blue": table.blue}

        refused = await fake.slash(table.red, "campaign deadline", hours=1.5, then="pass")
        assert refused.ephemeral and "Only the game master" in refused.text
        set_ = await fake.slash(table.gm, "campaign deadline", hours=1.5, then="pass")  # 24 s; reminded after 18 s
        assert not set_.ephemeral and "1.5 hours" in set_.text and f"{first}'s turn starts now" in set_.text

        [reminder] = await fake.wait_until(lambda: bot_posts(fake, table.channel, "Reminder"), 60, "the reminder")
        assert reminder.pings.users == {players[first].id} and not reminder.pings.everyone
        assert f"{first}'s turn" in reminder.text and not reminder.ephemeral

        [passed] = await fake.wait_until(lambda: bot_posts(fake, table.channel, "Deadline passed"), 60, "the timeout")
        assert f"Deadline passed: {first}'s turn" in passed.text
        assert f"the bot passed for {first}: `/ssg next` ×2" in passed.text
        assert passed.pings.users == {players[second].id}  # the next side's move: only they are pinged
        assert f"{second} · movement phase" in passed.text

        # The bot goes down; the second side's deadline falls due meanwhile.
        await bot.stop()
        async with orm(app.store.db) as s:
            row = await s.scalar(select(Deadline).where(Deadline.status == "open"))
        assert row.side == second
        await asyncio.sleep(max(0.0, (row.due_at - utcnow()).total_seconds()) + 0.5)
        await bot.start()
        [caught_up] = await fake.wait_until(
            lambda: bot_posts(fake, table.channel, f"Deadline passed: {second}'s turn"), 60, "the caught-up timeout"
        )
        cleared = await fake.slash(table.gm, "campaign deadline")  # the game master stops the clock
        assert "No turn deadline any more" in cleared.text
        await asyncio.sleep(1.0)
        assert bot_posts(fake, table.channel, f"Deadline passed: {second}'s turn") == [caught_up]  # once
        assert bot_posts(fake, table.channel, f"Reminder: {second}") == []  # not sent late
        assert caught_up.pings.users == {players[first].id}
        log = await fake.slash(table.gm, "game log", count=10)
        assert f"(deadline passed: the bot passed for {second})" in log.text
    finally:
        await app.store.db.close()


async def test_the_game_master_is_pinged_and_answers_by_button_for_the_absent_player(
    fake: FakeDiscord, bot: Any
) -> None:
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    guild = fake.guild_of(table.channel).id

    def as_caller(user: FakeUser) -> Caller:
        return Caller(user.id, user.display_name, guild, table.channel.id)

    try:
        await app.campaign_new(as_caller(table.gm), "Border feud", "medieval", "table")
        for user, side in ((table.red, "red"), (table.blue, "blue")):
            asked = await app.campaign_join(as_caller(user), side)
            await app.decide(as_caller(table.gm), "approve", asked.decision.decision_id)
        await app.roster_add(as_caller(table.red), "Hugh", "Knight")
        await app.roster_add(as_caller(table.blue), "Olaf", "Viking Warrior")
        await fake.slash(table.gm, "campaign deadline", hours=1, then="gm")
        started = await fake.slash(table.gm, "game start")
        chooser, side = (table.red, "red") if "red" in started.content else (table.blue, "blue")

        [reminder] = await fake.wait_until(lambda: bot_posts(fake, table.channel, "Reminder"), 60, "the reminder")
        assert reminder.pings.users == {chooser.id} and f"{side}'s decision" in reminder.text
        [timeout] = await fake.wait_until(lambda: bot_posts(fake, table.channel, "Deadline passed"), 60, "the timeout")
        assert timeout.pings.users == {table.gm.id}
        assert f"answer it for {side} with /decide or its buttons" in timeout.text

        button = started.message.custom_ids[0]
        answered = await fake.click(table.gm, started, button)
        assert not answered.ephemeral
        [result] = await answered.wait_followups(1)
        assert f"(game master for {side})" in result.text and "chooses to go first" in result.text
        log = await fake.slash(table.gm, "game log", count=5)
        assert f"(game master for {side})" in log.text
    finally:
        await app.store.db.close()
