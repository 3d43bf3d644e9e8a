"""Campaigns written straight into the bot's database through the application layer, so a test
or the benchmark starts from a game in progress without sending dozens of setup commands."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.app.replies import Caller
from bot.app.service import App
from bot.dice import SeededDice
from bot.store import Store
from bot.store.database import sqlite_url
from tests.e2e.fake_discord import FakeChannel, FakeDiscord, FakeUser
from tests.named_app import NamedApp
from tests.orm import orm

RED_NAMES = ["Rossi", "Ada", "Cy", "Dee", "Eli", "Fay"]
BLUE_NAMES = ["Big Jim", "Bo", "Bert", "Bill", "Ben", "Bud"]


@dataclass
class Table:
    channel: FakeChannel
    gm: FakeUser
    red: FakeUser
    blue: FakeUser


def caller(fake: FakeDiscord, user: FakeUser, channel: FakeChannel, n: int) -> Caller:
    return Caller(user.id, user.display_name, fake.guild_of(channel).id, channel.id, interaction_id=None)


async def seed_ssg(app: App, fake: FakeDiscord, table: Table, *, per_side: int = 6, battlefield: str = "table") -> None:
    """A campaign in ``table.channel``: the game master, red and blue players, ``per_side`` figures
    a side, the game started (red or blue first, as the seeded roll-off says). On the ``map``, the
    battle is fought on the crossroads, both sides deployed."""
    gm = caller(fake, table.gm, table.channel, 0)
    red = caller(fake, table.red, table.channel, 1)
    blue = caller(fake, table.blue, table.channel, 2)
    await app.campaign_new(gm, f"Campaign {table.channel.name}", "ssg", battlefield)
    if per_side != 6:
        from sqlalchemy import select

        from bot.store.schema import Campaign

        async with orm(app.store.db) as s:
            campaign = await s.scalar(
                select(Campaign).where(Campaign.channel_id == table.channel.id, Campaign.active.is_(True))
            )
            campaign.house_rules = {"figures_per_side": per_side}
    for player, side in ((red, "red"), (blue, "blue")):
        asked = await app.campaign_join(player, side)
        await app.decide(gm, "approve", asked.decision.decision_id)
    for n in range(per_side):
        await app.roster_add(red, RED_NAMES[n % 6] + ("" if n < 6 else f" {n}"), "rifle" if n % 3 else "smg")
        await app.roster_add(blue, BLUE_NAMES[n % 6] + ("" if n < 6 else f" {n}"), "rifle" if n % 3 else "pistol")
    if battlefield == "map":  # the parts themselves: seeding draws no pictures nobody will see
        await app.maps.map_new(gm, "crossroads")
        await app.games.game_start(gm)
        await app.maps.deploy(red)
        await app.maps.deploy(blue)
    else:
        await app.game_start(gm)


async def seeded_app(db_path: Path, seed: int = 1) -> App:
    dice = SeededDice(seed)
    return NamedApp(await Store.open(sqlite_url(db_path)), lambda: dice)


def new_table(fake: FakeDiscord, n: int) -> Table:
    channel = fake.channel if n == 0 else fake.add_channel(f"battle-{n}")
    return Table(channel, fake.add_user(f"gm{n}"), fake.add_user(f"red{n}"), fake.add_user(f"blue{n}"))
