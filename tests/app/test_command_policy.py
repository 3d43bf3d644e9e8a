"""What a command declares is what it does: ``gm_only`` commands refuse a player with a game
master's sentence and the others do not; ``lock`` commands take the channel's lock and the others
do not (bot/app/commands: the policy is written where the command is declared).

Every command of the table is run, each once, with the values its /help example gives (a file is
the campaign's own export, so it reads), in a campaign on the bot's map with a draft battlefield."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.app.commands.declared import Command, Upload, split_line
from bot.app.commands.help import example
from bot.app.commands.table import command_table
from bot.app.replies import Caller, Reply
from bot.app.service import App
from rules.core import RuleError
from tests.support import BLUE, GM, RED, caller, ssg_campaign

#: Values where the example's would not read (a map path, a feature, a zone's side).
VALUES: dict[str, dict[str, Any]] = {
    "campaign battlefield": {"mode": "map"},
    "map new": {"scenario": "farm"},
    "map feature add": {"kind": "wood", "points": "2,2 6,2 6,6"},
    "map feature remove": {"feature": "1"},
    "map zone": {"side": "red", "points": "0,0 48,0 48,6"},
    "map place": {"figure": "Rossi", "at": "10,3"},
    "roster add": {"name": "Zed", "kind": "rifle"},
    "roster show": {"name": "Rossi"},
    "roster remove": {"name": "Fay"},
    "campaign join": {"side": "red"},
    "decide": {"choice": "approve"},
}
#: Run last, in this order: they end what the others need.
LAST = ("campaign end",)


class SpiedLocks:
    """The channel locks, noting each time a command asks for one."""

    def __init__(self, locks: Any) -> None:
        self.locks = locks
        self.asked = 0

    def of(self, who: Caller) -> asyncio.Lock:
        self.asked += 1
        lock: asyncio.Lock = self.locks.of(who)
        return lock

    def of_channel(self, channel_id: int) -> asyncio.Lock:
        self.asked += 1
        lock: asyncio.Lock = self.locks.of_channel(channel_id)
        return lock


def values_for(command: Command, files: dict[str, Upload]) -> dict[str, Any]:
    """The command's example values as a front-end hands them, or :data:`VALUES`."""
    if command.name in VALUES:
        return dict(VALUES[command.name])
    given: dict[str, Any] = {}
    for word in split_line(example(command))[len(command.path) :]:
        name, _, value = word.partition(":")
        given[name] = files[command.name] if name == "file" else value
    return given


async def files_of(app: App) -> dict[str, Upload]:
    """A readable file for each command that takes one: what the campaign exports of itself."""
    gina = caller(GM, "Gina")
    exported = (await app.exchange.campaign_export(gina)).files[0]
    roster = (await app.exchange.roster_export(caller(RED, "Rita"), None)).files[0]
    drafted = (await app.maps.map_export(gina)).files[0]
    return {
        "campaign import": Upload(*exported),
        "roster import": Upload(*roster),
        "map import": Upload(*drafted),
        "campaign rules set": Upload("house.yaml", b"switches: {}\n"),
    }


async def outcome(command: Command, app: App, who: Caller, files: dict[str, Upload]) -> Reply | RuleError:
    try:
        return await command.run(app, who, values_for(command, files))
    except RuleError as refused:
        return refused


def is_game_masters(result: Reply | RuleError) -> bool:
    return isinstance(result, RuleError) and result.message.startswith("Only the game master")


async def test_gm_only_commands_refuse_a_player_and_the_others_do_not(app: App) -> None:
    await ssg_campaign(app)
    await app.maps.map_new(caller(GM, "Gina"), "farm", None, None)
    files = await files_of(app)
    table = command_table()
    refused = {
        name: await outcome(command, app, caller(BLUE, "Bob"), files)
        for name, command in sorted(table.items(), key=lambda kv: kv[0] in LAST)
    }
    wrongly = {name: str(result) for name, result in refused.items() if table[name].gm_only != is_game_masters(result)}
    assert wrongly == {}
    assert sum(c.gm_only for c in table.values()) >= 10


async def test_lock_commands_take_the_channels_lock_and_the_others_do_not(app: App) -> None:
    await ssg_campaign(app)
    gina = caller(GM, "Gina")
    await app.maps.map_new(gina, "farm", None, None)
    files = await files_of(app)
    spied = SpiedLocks(app.ctx.locks)
    app.ctx.locks = spied  # type: ignore[assignment]
    table = command_table()
    took: dict[str, bool] = {}
    for name, command in sorted(table.items(), key=lambda kv: kv[0] in LAST):
        before = spied.asked
        await outcome(command, app, gina, files)
        took[name] = spied.asked > before
    assert {name for name, took_it in took.items() if took_it != table[name].lock} == set()
    assert sum(c.lock for c in table.values()) >= 20
