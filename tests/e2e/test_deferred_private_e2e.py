"""A private answer after a public deferral stays private, through the loopback Discord with the real
bot process.

A command whose map work is slow is deferred publicly ("thinking"), as its answer is public when
it succeeds. On Discord the first follow-up after a deferral fills that "thinking" message and keeps
its visibility (the follow-up's ephemeral flag is ignored), so a refusal would be shown to the whole
channel. The maps' worker is stopped (SIGSTOP) until the bot has deferred, so the deferral does not
depend on how fast the machine is; then it goes on, and its answer is a refusal: as a reply (the
file's problems) and as an exception (the campaign changed meanwhile, through the error handler).
"""

from __future__ import annotations

import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import select

from bench.heavy_map import heavy_map
from bot.store.schema import Campaign
from tests.e2e.attachments import AttachmentHost, Upload, send_slash_with_files, slash_with_files
from tests.e2e.fake_discord import DEFERRED_CHANNEL_MESSAGE, FakeDiscord, FakeInteraction, InteractionResult
from tests.e2e.seeding import Table, caller, new_table, seeded_app
from tests.e2e.test_answers_e2e import GENEROUS, drawing_workers
from tests.orm import orm

#: A map file large enough to be read in the maps' worker (over 6 KiB), small enough to be quick.
GOOD = heavy_map(("british", "french"), points=10, features=60)
#: The same with sides the ruleset does not have: the file's problems, listed privately.
BAD = heavy_map(("red", "blue"), points=10, features=60)


@asynccontextmanager
async def workers_stopped(bot: Any) -> AsyncIterator[None]:
    """The bot's worker processes (the maps' among them) do nothing until the block ends."""
    stopped = drawing_workers(bot.process.pid)
    for pid in stopped:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)


async def a_map_campaign(fake: FakeDiscord, bot: Any, cdn: AttachmentHost) -> tuple[Any, Table]:
    """A Sharpe campaign on the map whose first import started the maps' worker."""
    table = new_table(fake, 0)
    app = await seeded_app(bot.db_path)
    await app.campaign_new(caller(fake, table.gm, table.channel, 0), "Slow maps", "sharpe", "map")
    first = await slash_with_files(fake, cdn, table.gm, "map import", file=Upload("first.yaml", GOOD), timeout=GENEROUS)
    assert first.titles[:1] == ["Map imported"] and not first.ephemeral, first
    await fake.wait_until(lambda: drawing_workers(bot.process.pid), GENEROUS, "the bot's workers started")
    return app, table


async def deferred(fake: FakeDiscord, inter: FakeInteraction) -> None:
    await fake.wait_until(lambda: inter.response_type == DEFERRED_CHANNEL_MESSAGE, GENEROUS, f"{inter.label} deferred")


def shown_privately(fake: FakeDiscord, table: Table, result: InteractionResult, words: str) -> None:
    """The answer holding ``words`` is one private follow-up, and the channel sees none of it."""
    assert result.interaction.response_type == DEFERRED_CHANNEL_MESSAGE
    assert not (result.interaction.original and result.interaction.original.ephemeral)  # deferred publicly
    public = [m for m in fake.messages_in(table.channel, ephemeral=False) if words in m.text]
    assert public == [], "a private answer was shown to the channel"
    assert result.message is None, "the public 'thinking' message is gone"
    [answer] = result.followups
    assert answer.ephemeral and words in answer.text and answer.interaction_user == table.gm


async def test_a_file_refused_after_a_public_deferral_is_shown_only_to_its_sender(fake: FakeDiscord, bot: Any) -> None:
    async with AttachmentHost() as cdn:
        app, table = await a_map_campaign(fake, bot, cdn)
        async with workers_stopped(bot):
            inter = await send_slash_with_files(fake, cdn, table.gm, "map import", file=Upload("bad.yaml", BAD))
            await deferred(fake, inter)
        result = await fake._result(inter, GENEROUS)
    shown_privately(fake, table, result, "problems in bad.yaml")
    assert fake.take_breaches() == []
    await app.store.db.close()


async def test_a_refusal_raised_after_a_public_deferral_is_shown_only_to_its_sender(
    fake: FakeDiscord, bot: Any
) -> None:
    async with AttachmentHost() as cdn:
        app, table = await a_map_campaign(fake, bot, cdn)
        async with workers_stopped(bot):
            inter = await send_slash_with_files(fake, cdn, table.gm, "map import", file=Upload("again.yaml", GOOD))
            await deferred(fake, inter)
            async with orm(app.store.db) as s:  # another process changes the house rules meanwhile
                campaign = await s.scalar(select(Campaign))
                assert campaign is not None
                campaign.house_rules = {}
        result = await fake._result(inter, GENEROUS)
    shown_privately(fake, table, result, "changed meanwhile")
    assert fake.take_breaches() == []
    await app.store.db.close()
