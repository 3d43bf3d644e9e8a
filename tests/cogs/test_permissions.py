"""Who may use each command, and what everyone else gets (always a short private refusal).

The roles: the game master, the owner of the figure acted on (red's player), another player
(blue's), a stranger in the same channel, and a member of another guild.
"""

from __future__ import annotations

import pytest
from discord import app_commands
from sqlalchemy import func, select

from bot.store.database import Database
from bot.store.schema import ActionRecord, Campaign, Figure, Game, Member
from tests.cogs.test_cogs import command
from tests.orm import orm
from tests.support import BLUE, GM, RED, STRANGER, fake_interaction

OTHER_GUILD = 5
OK = "ok"
NOT_IN = "not in this campaign"
NO_CAMPAIGN = "no campaign in this channel"
GM_ONLY = "Only the game master"

ROLES = {"gm": GM, "owner": RED, "other player": BLUE, "stranger": STRANGER, "other guild": OTHER_GUILD}

# command, options, then what each role gets: "ok" or a piece of the refusal.
TABLE = [
    ("campaign info", {}, [OK, OK, OK, OK, NO_CAMPAIGN]),
    ("campaign end", {}, [OK, GM_ONLY, GM_ONLY, GM_ONLY, NO_CAMPAIGN]),
    ("campaign join", {"side": "blue"}, [OK, OK, "already play blue", OK, NO_CAMPAIGN]),
    ("roster add", {"name": "Newcomer", "kind": "rifle"}, ["Say which side", OK, OK, NOT_IN, NO_CAMPAIGN]),
    (
        "roster add",
        {"name": "Newcomer", "kind": "rifle", "side": "blue"},
        [OK, "only the game master may add figures to blue", OK, NOT_IN, NO_CAMPAIGN],
    ),
    ("roster list", {}, [OK, OK, OK, OK, NO_CAMPAIGN]),
    ("roster show", {"name": "Rossi"}, [OK, OK, OK, OK, NO_CAMPAIGN]),
    (
        "roster remove",
        {"name": "Rossi"},
        ["in the game in progress", "in the game in progress", "not yours", NOT_IN, NO_CAMPAIGN],
    ),
    ("game start", {}, ["already in progress", GM_ONLY, GM_ONLY, GM_ONLY, NO_CAMPAIGN]),
    ("game status", {}, [OK, OK, OK, OK, NO_CAMPAIGN]),
    ("game log", {}, [OK, OK, OK, OK, NO_CAMPAIGN]),
    ("game undo", {}, [OK, OK, "Only the player who made the last action", NOT_IN, NO_CAMPAIGN]),
    ("game end", {}, [OK, GM_ONLY, GM_ONLY, GM_ONLY, NO_CAMPAIGN]),
    ("ssg move", {"figure": "Rossi", "distance": 1.0}, [OK, OK, "It is red's turn", NOT_IN, NO_CAMPAIGN]),
    ("ssg next", {}, [OK, OK, "It is red's turn", NOT_IN, NO_CAMPAIGN]),
    (
        "decide",
        {"choice": "approve"},
        [
            OK,
            "Nothing is waiting for your decision",
            "Nothing is waiting for your decision",
            "Nothing is waiting",
            NO_CAMPAIGN,
        ],
    ),
    ("roll", {"dice": "1d6"}, [OK, OK, OK, OK, OK]),
    (
        "admin sync",
        {},
        [
            "Only the bot's owner",
            "Only the bot's owner",
            "Only the bot's owner",
            "Only the bot's owner",
            "Only the bot's owner",
        ],
    ),
]
CASES = [
    (name, options, role, expected)
    for name, options, outcomes in TABLE
    for role, expected in zip(ROLES, outcomes, strict=True)
]


async def snapshot(database: Database) -> tuple:
    async with orm(database) as s:
        return (
            tuple(await s.scalars(select(Game.state))),
            await s.scalar(select(func.count()).select_from(Figure)),
            tuple(await s.scalars(select(Member.side).order_by(Member.id))),
            tuple(await s.scalars(select(Campaign.active))),
            await s.scalar(select(func.count()).select_from(ActionRecord).where(ActionRecord.undone.is_(False))),
        )


@pytest.mark.parametrize(
    "name,options,role,expected",
    CASES,
    ids=[f"{n}:{r}{':' + o['side'] if 'side' in o and n == 'roster add' else ''}" for n, o, r, _ in CASES],
)
async def test_who_may_use_each_command(table, name: str, options: dict, role: str, expected: str) -> None:
    bot, database = table
    before = await snapshot(database)
    guild = 999 if role == "other guild" else None
    interaction = fake_interaction(bot, ROLES[role], role, **({"guild": guild} if guild else {}))
    cmd = command(bot, name)
    interaction.command = cmd
    try:
        await cmd.callback(cmd.binding, interaction, **options)
    except Exception as exc:
        try:
            raise app_commands.CommandInvokeError(cmd, exc) from exc
        except app_commands.CommandInvokeError as wrapped:
            await bot.tree.on_error(interaction, wrapped)
    [sent] = interaction.sent
    description = sent["embeds"][0].description or ""
    if expected == OK:
        assert sent["embeds"][0].title != "Not done", description
    else:
        assert sent["ephemeral"] is True and sent["embeds"][0].title == "Not done"
        assert expected in description
        assert len(description) < 200 and "Traceback" not in description
        assert await snapshot(database) == before
