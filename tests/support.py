"""Helpers the tests share: callers, a table with forced dice, fakes specced from discord.py."""

from __future__ import annotations

import itertools
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.app.replies import Caller
from bot.app.service import App
from bot.dice import ForcedDice

GUILD = 1001
CHANNEL = 2002
_ids = itertools.count(10_000)

SSG_RED = ["Rossi", "Ada", "Cy", "Dee", "Eli", "Fay"]
SSG_BLUE = ["Big Jim", "Bo", "Bert", "Bill", "Ben", "Bud"]


def caller(
    user_id: int, name: str = "", *, channel: int = CHANNEL, guild: int = GUILD, interaction_id: int | None = None
) -> Caller:
    return Caller(
        user_id, name or f"user{user_id}", guild, channel, interaction_id if interaction_id is not None else next(_ids)
    )


GM = 1
RED = 2
BLUE = 3
STRANGER = 4


async def ssg_table(app: App, forced: ForcedDice, *, roll_off: tuple[int, int] = (5, 2)) -> None:
    """A campaign with a game master, red and blue players, six figures each, game started (red first)."""
    await app.campaign_new(caller(GM, "Gina"), "Test", "ssg", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    weapons = ["rifle", "rifle", "smg", "pistol", "rifle", "rifle"]
    for name, weapon in zip(SSG_RED, weapons, strict=False):
        await app.roster_add(caller(RED, "Rita"), name, weapon)
    for name, weapon in zip(SSG_BLUE, ["smg", "pistol", "rifle", "rifle", "rifle", "rifle"], strict=False):
        await app.roster_add(caller(BLUE, "Bob"), name, weapon)
    forced.push_dice(roll_off)
    await app.game_start(caller(GM, "Gina"))


async def medieval_duel(app: App) -> None:
    """A medieval campaign at a table: Hugh the knight (red, Rita) against Olaf (blue, Bob); no battle yet."""
    await app.campaign_new(caller(GM, "Gina"), "M", "medieval", "table")
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    await app.roster_add(caller(RED, "Rita"), "Hugh", "Knight")
    await app.roster_add(caller(BLUE, "Bob"), "Olaf", "Viking Warrior")


async def nsr_talavera(app: App) -> None:
    """An NSR campaign at a table: the 1er Ligne and the Chasseurs (French, Rita) against the 33rd
    Foot (Allied, Bob); no battle yet."""
    await app.campaign_new(caller(GM, "Gina"), "Talavera", "nsr", "table")
    await join(app, RED, "Rita", "French")
    await join(app, BLUE, "Bob", "Allied")
    await app.roster_add(caller(RED, "Rita"), "1er Ligne", "line", stats="figures=6")
    await app.roster_add(caller(RED, "Rita"), "Chasseurs", "mounted", stats="figures=3")
    await app.roster_add(caller(BLUE, "Bob"), "33rd Foot", "infantry", stats="figures=6")


async def join(app: App, user: int, name: str, side: str) -> None:
    """A player asks to join and the game master approves."""
    asked = await app.campaign_join(caller(user, name), side)
    assert asked.decision is not None
    await app.decide(caller(GM, "Gina"), "approve", asked.decision.decision_id)


async def ssg_campaign(app: App, battlefield: str | None = None, name: str = "Iron Coast") -> None:
    """An SSG campaign (on the map unless told), its two players and six rifles a side."""
    await app.campaign_new(caller(GM, "Gina"), name, "ssg", battlefield)
    await join(app, RED, "Rita", "red")
    await join(app, BLUE, "Bob", "blue")
    for figure in SSG_RED:
        await app.roster_add(caller(RED, "Rita"), figure, "rifle")
    for figure in SSG_BLUE:
        await app.roster_add(caller(BLUE, "Bob"), figure, "rifle")


def fake_interaction(
    client: Any, user_id: int, name: str = "", *, channel: int = CHANNEL, guild: int = GUILD
) -> MagicMock:
    """An interaction specced from the real ``discord.Interaction``; its response records what is sent."""
    interaction = MagicMock(spec=discord.Interaction)
    interaction.client = client
    user = MagicMock(spec=discord.Member)
    user.id, user.name, user.display_name = user_id, name or f"user{user_id}", name or f"user{user_id}"
    user.bot = False
    interaction.user = user
    interaction.guild_id, interaction.channel_id = guild, channel
    interaction.id = next(_ids)
    interaction.extras = {}
    interaction.command = None
    response = MagicMock(spec=discord.InteractionResponse)
    sent: list[dict[str, Any]] = []

    async def send_message(content: str | None = None, **kwargs: Any) -> None:
        sent.append({"content": content, **kwargs})
        response.is_done.return_value = True

    async def defer(**kwargs: Any) -> None:
        response.is_done.return_value = True

    response.send_message = AsyncMock(side_effect=send_message)
    response.defer = AsyncMock(side_effect=defer)
    response.is_done = MagicMock(return_value=False)
    interaction.response = response
    followup = MagicMock(spec=discord.Webhook)

    async def follow(content: str | None = None, **kwargs: Any) -> None:
        sent.append({"content": content, **kwargs})

    followup.send = AsyncMock(side_effect=follow)
    interaction.followup = followup
    interaction.sent = sent
    return interaction
